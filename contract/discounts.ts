import { z } from 'zod';
import { audienceInput, audienceRecord, dateTime } from './audience.ts';
import { text } from './common.ts';
import { linkSchema, phoneSchema } from './contacts.ts';

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** A partner's offer for residents of the chosen complexes. */
export const discountInput = z.object({
  partner: text('Партнер', { min: 1, max: 150 }),
  title: text('Пропозиція', { min: 1, max: 200 }),
  description: text('Опис', { max: 2000 }).default(''),
  percent: z.preprocess(emptyToNull, z.coerce.number({ error: 'Знижка має бути числом.' }).int('Знижка — ціле число відсотків.').min(1, 'Знижка — від 1%.').max(100, 'Знижка — до 100%.').nullable()).default(null),
  promo_code: z.preprocess(emptyToNull, text('Промокод', { max: 50 }).nullable()).default(null),
  address: text('Адреса партнера', { max: 300 }).default(''),
  phone: z.preprocess(emptyToNull, phoneSchema.nullable()).default(null),
  link: z.preprocess(emptyToNull, linkSchema.nullable()).default(null),
  valid_until: z.preprocess(emptyToNull, dateTime('Діє до').nullable()).default(null),
  ...audienceInput,
});
export type DiscountInput = z.infer<typeof discountInput>;

export const discountRecord = z.object({
  id: z.number(),
  partner: z.string(),
  title: z.string(),
  description: z.string(),
  percent: z.number().nullable(),
  promo_code: z.string().nullable(),
  address: z.string(),
  phone: z.string().nullable(),
  link: z.string().nullable(),
  valid_until: z.string().nullable(),
  /** Past its date: kept, but no longer offered. */
  expired: z.boolean(),
  ...audienceRecord,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Discount = z.infer<typeof discountRecord>;
