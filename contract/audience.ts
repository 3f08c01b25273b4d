import { z } from 'zod';
import { idSchema } from './common.ts';

/** A list of ids; a single value (one `name[]=x` in a form) is taken as a one-item list. */
export const idList = (label: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v.filter((x) => x !== '') : [v]),
    z.array(idSchema, { error: `Поле «${label}» має бути списком.` }).max(500, `Поле «${label}» — не більше 500 значень.`),
  );

/** Whom content is for: complexes and, optionally, single houses of them. */
export const audienceInput = {
  complex_ids: idList('Комплекси'),
  house_ids: idList('Будинки'),
};

export const audienceRecord = {
  complex_ids: z.array(z.number()),
  house_ids: z.array(z.number()),
  complexes: z.array(z.object({ id: z.number(), name: z.string() })),
  houses: z.array(z.object({ id: z.number(), address: z.string() })),
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** 2026-02-30 is not a day, although Date would roll it over to March. */
function realCalendarDay(v: string): boolean {
  const [y, m, d] = v.slice(0, 10).split('-').map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** A moment in ISO 8601 (a date alone is its midnight UTC). */
export const dateTime = (label: string) =>
  z
    .string({ error: `Поле «${label}» має бути датою.` })
    .trim()
    .regex(ISO_DATE, `Поле «${label}»: некоректна дата.`)
    .refine((v) => !Number.isNaN(Date.parse(v)) && realCalendarDay(v), `Поле «${label}»: некоректна дата.`)
    .transform((v) => new Date(v))
    .refine((d) => d.getUTCFullYear() >= 2000 && d.getUTCFullYear() <= 2100, `Поле «${label}»: дата поза межами 2000–2100 років.`);

/** List filters of the header selection: `complex_id` and `house_ids[]`. */
export const audienceFilters = {
  complex_id: idSchema.optional(),
  house_ids: idList('Будинки').optional(),
};
