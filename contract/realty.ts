import { z } from 'zod';
import { idSchema, text } from './common.ts';
import { defineEntity } from './entity.ts';

export const REALTY_TYPES = ['apartment', 'parking', 'storage', 'commercial'] as const;
export type RealtyType = (typeof REALTY_TYPES)[number];

const optionalInt = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `Поле «${label}» має бути числом.` })
    .int(`Поле «${label}» має бути цілим числом.`)
    .min(min, `Поле «${label}» — від ${min}.`)
    .max(max, `Поле «${label}» — до ${max}.`)
    .nullable()
    .default(null);

/** A unit: number unique per house and type, area in m² with two decimals. */
export const realtyInput = z.object({
  house_id: idSchema,
  type: z.enum(REALTY_TYPES, { error: 'Тип: квартира, паркомісце, комора або комерційне приміщення.' }),
  number: text('Номер', { min: 1, max: 20 }),
  area: z.coerce
    .number({ error: 'Площа має бути числом.' })
    .positive('Площа має бути більшою за нуль.')
    .max(100000, 'Площа завелика.')
    .refine((v) => Math.round(v * 100) === Number((v * 100).toFixed(6)), 'Площа — не більше двох знаків після коми.')
    .nullable()
    .default(null),
  floor: optionalInt('Поверх', -10, 200),
  entrance: optionalInt("Під'їзд", 1, 100),
});
export type RealtyInput = z.infer<typeof realtyInput>;

export const realtyRecord = z.object({
  id: z.number(),
  house_id: z.number(),
  complex_id: z.number().nullable(),
  address: z.string(),
  type: z.enum(REALTY_TYPES),
  number: z.string(),
  /** m² as a number with at most two decimals */
  area: z.number().nullable(),
  floor: z.number().nullable(),
  entrance: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Realty = z.infer<typeof realtyRecord>;

const TYPE_LABELS = { apartment: 'Квартира', parking: 'Паркомісце', storage: 'Комора', commercial: 'Комерційне приміщення' } as const;

/** Units of houses: apartments, parking places, storerooms, commercial premises (contract/entity.ts). */
export const realtyEntity = defineEntity({
  name: 'realty',
  path: '/realty',
  area: 'realty',
  list: 'main_data',
  input: realtyInput,
  record: realtyRecord,
  fields: {
    number: { type: 'text', label: 'Номер', required: true, max: 20, sortable: true },
    type: { type: 'enum', label: 'Тип', required: true, options: REALTY_TYPES, optionLabels: TYPE_LABELS },
    house_id: { type: 'reference', label: 'Будинок', required: true, reference: 'houses', optionText: 'address', list: false, export: false },
    address: { type: 'text', label: 'Адреса', input: false },
    area: { type: 'number', label: 'Площа, м²', min: 0.01, max: 100000, sortable: true },
    floor: { type: 'number', label: 'Поверх', min: -10, max: 200, sortable: true },
    entrance: { type: 'number', label: "Під'їзд", min: 1, max: 100 },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, export: true },
  },
  search: ['number', 'address'],
  filters: [
    { source: 'type', type: 'enum' },
    { source: 'house_id', type: 'reference', reference: 'houses', optionText: 'address' },
  ],
  sort: { field: 'id', order: 'asc' },
  /** Units grouped by house (in the order houses were added), numbers naturally within each. */
  sorts: ['house'],
  scope: 'house',
  messages: { notFound: 'Приміщення не знайдено.', deleted: 'Приміщення видалено.', inUse: 'Приміщення не можна видалити: на нього посилаються інші записи.' },
  exportName: 'Приміщення',
  sample: ({ houseId, unique }) => ({
    house_id: houseId,
    type: 'apartment' as const,
    number: `${unique.replace(/[^0-9a-z]/gi, '').slice(-12)}${(samples = (samples + 1) % 10000)}`.slice(-20),
    area: 50.5,
    floor: 3,
    entrance: 1,
  }),
});

/** Samples' numbers differ even for the same unique word (a number is unique in a house and type). */
let samples = 0;
