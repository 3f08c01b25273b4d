import { z } from 'zod';
import type { SampleFile } from './entity.ts';

// Every message zod writes itself (wrong type, bad shape, ...) is in Ukrainian too.
z.config(z.locales.uk());

/** Ids are PostgreSQL integers: anything outside that range cannot exist. */
export const MAX_ID = 2147483647;

export const idSchema = z.coerce
  .number({ error: 'Ідентифікатор має бути числом.' })
  .int('Ідентифікатор має бути цілим числом.')
  .min(1, 'Ідентифікатор має бути додатним.')
  .max(MAX_ID, 'Ідентифікатор завеликий.');

/** Trimmed text within limits, without the NUL character PostgreSQL cannot store. */
export function text(label: string, opts: { min?: number; max: number }) {
  const min = opts.min ?? 0;
  let s = z
    .string({ error: `Поле «${label}» має бути текстом.` })
    .trim()
    .max(opts.max, `Поле «${label}» — не довше ${opts.max} символів.`);
  if (min > 0) s = s.min(1, `Поле «${label}» обов'язкове.`);
  const checked = s
    .refine((v) => v.length === 0 || v.length >= min, `Поле «${label}» — щонайменше ${min} символи.`)
    .refine((v) => !v.includes('\u0000'), `Поле «${label}» містить недопустимі символи.`);
  // A form sends a cleared optional field as null: that means empty.
  return z.preprocess((v) => (v === null && min === 0 ? '' : v), checked);
}

export const emailSchema = z
  .string({ error: 'Вкажіть e-mail.' })
  .trim()
  .min(1, 'Вкажіть e-mail.')
  .max(254, 'E-mail задовгий.')
  .pipe(z.email('Вкажіть коректний e-mail.'))
  .transform((v) => v.toLowerCase());

/** At least 8 characters, at most 64, no composition rules (NIST SP 800-63B). */
export const passwordSchema = z
  .string({ error: 'Вкажіть пароль.' })
  .min(8, 'Пароль має містити щонайменше 8 символів.')
  .max(64, 'Пароль має бути не довшим за 64 символи.')
  .refine((v) => !v.includes('\u0000'), 'Пароль містить недопустимі символи.');

/**
 * The input schema's entry of a declared `file` field: the file travels as the form's file part,
 * which the server reads apart from the text fields, so a text value under its name is refused.
 * Samples give a `SampleFile` here.
 */
export const fileInput = (label: string) =>
  z.custom<SampleFile | undefined>((v) => v === undefined, { error: `Поле «${label}»: надішліть файл, а не текст.` }).optional();
