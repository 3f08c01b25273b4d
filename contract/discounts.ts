import { z } from 'zod';
import { audienceInput, audienceRecord, dateTime } from './audience.ts';
import { text } from './common.ts';
import { linkSchema, phoneSchema } from './contacts.ts';
import { defineEntity } from './entity.ts';

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** A partner's offer for residents of the chosen complexes. */
export const discountInput = z.object({
  partner: text('Партнер', { min: 1, max: 150 }),
  title: text('Пропозиція', { min: 1, max: 200 }),
  description: text('Опис', { max: 2000 }).default(''),
  percent: z
    .preprocess(
      emptyToNull,
      z.coerce
        .number({ error: 'Знижка має бути числом.' })
        .int('Знижка — ціле число відсотків.')
        .min(1, 'Знижка — від 1%.')
        .max(100, 'Знижка — до 100%.')
        .nullable(),
    )
    .default(null),
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

/** Partner discounts for residents of the chosen complexes (the legacy area's «Disconts»); staff see those of their complexes. */
export const discountEntity = defineEntity({
  name: 'discounts',
  path: '/discounts',
  area: 'discounts',
  list: 'data_pagination',
  input: discountInput,
  record: discountRecord,
  fields: {
    partner: { type: 'text', label: 'Партнер', required: true, max: 150, sortable: true },
    title: { type: 'text', label: 'Пропозиція', required: true, max: 200 },
    description: { type: 'multiline', label: 'Опис', max: 2000, list: false, export: true, wide: true },
    percent: { type: 'number', label: 'Знижка, %', min: 1, max: 100 },
    promo_code: { type: 'text', label: 'Промокод', max: 50 },
    address: { type: 'text', label: 'Адреса партнера', max: 300, list: false, export: true },
    phone: { type: 'phone', label: 'Телефон', list: false, export: true },
    link: { type: 'url', label: 'Сайт', list: false, export: true },
    valid_until: { type: 'datetime', label: 'Діє до', sortable: true },
    complexes: { type: 'tags', label: 'Комплекси', input: false },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, sortable: true, export: true },
  },
  search: ['partner', 'title'],
  sort: { field: 'created_at', order: 'desc' },
  scope: 'complex',
  messages: { notFound: 'Знижку не знайдено.', deleted: 'Знижку видалено.', inUse: 'Знижку не можна видалити: на неї посилаються інші записи.' },
  exportName: 'Знижки',
  sample: ({ complexId, unique }) => ({
    partner: `Кав’ярня ${unique}`,
    title: 'Знижка на каву',
    percent: 15,
    phone: '067 123 45 67',
    link: 'https://zerno.ua',
    complex_ids: [complexId],
    house_ids: [],
  }),
});
