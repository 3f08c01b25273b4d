import { z } from 'zod';
import { idSchema, text } from './common.ts';
import { defineEntity } from './entity.ts';

const count = (label: string, max: number) =>
  z.coerce
    .number({ error: `Поле «${label}» має бути числом.` })
    .int(`Поле «${label}» має бути цілим числом.`)
    .min(1, `Поле «${label}» — щонайменше 1.`)
    .max(max, `Поле «${label}» — не більше ${max}.`)
    .nullable()
    .default(null);

/**
 * A house: its address (city, street — an existing street id, or a name that is added to the
 * streets when the house is saved — number, optional building letter/section), type, floors,
 * entrances, and at most one complex.
 */
export const houseInput = z
  .object({
    complex_id: idSchema.nullable().default(null),
    city_id: idSchema,
    street_id: idSchema.nullable().default(null),
    street_name: text('Вулиця', { max: 150 }).default(''),
    number: text('Номер будинку', { min: 1, max: 20 }),
    building: text('Корпус / секція', { max: 30 }).default(''),
    house_type_id: idSchema.nullable().default(null),
    floors: count('Поверхів', 200),
    entrances: count("Під'їздів", 100),
  })
  .refine((v) => v.street_id !== null || v.street_name.length >= 2, {
    message: 'Оберіть вулицю зі списку або введіть її назву.',
    path: ['street_id'],
  });
export type HouseInput = z.infer<typeof houseInput>;

export const realtyCounts = z.object({ apartment: z.number(), parking: z.number(), storage: z.number(), commercial: z.number() });

export const houseRecord = z.object({
  id: z.number(),
  complex_id: z.number().nullable(),
  complex_name: z.string().nullable(),
  city_id: z.number(),
  city: z.string(),
  region: z.string(),
  street_id: z.number(),
  street: z.string(),
  street_type: z.string().nullable(),
  number: z.string(),
  building: z.string(),
  /** One line for lists and selectors, e.g. «м. Київ, вулиця Липова, 12А». */
  address: z.string(),
  house_type_id: z.number().nullable(),
  house_type: z.string().nullable(),
  floors: z.number().nullable(),
  entrances: z.number().nullable(),
  realty_counts: realtyCounts,
  created_at: z.string(),
  updated_at: z.string(),
});
export type House = z.infer<typeof houseRecord>;

export const HOUSE_SORTS = ['id', 'address', 'number', 'created_at'] as const;

/** POST /houses/unlink: detach houses from their complex without deleting them. */
export const unlinkInput = z.object({
  house_ids: z.array(idSchema, { error: 'Передайте список будинків.' }).min(1, 'Оберіть хоча б один будинок.').max(1000),
});

export const houseTypeInput = z.object({ name: text('Назва типу', { min: 2, max: 100 }) });
export const houseTypeRecord = z.object({ id: z.number(), name: z.string(), houses_count: z.number(), created_at: z.string(), updated_at: z.string() });
export type HouseType = z.infer<typeof houseTypeRecord>;

/**
 * House types of the organization (Багатоквартирний, Таунхаус, …): shared by every complex, so
 * no staff scope; `houses_count` counts all the organization's houses of the type.
 */
export const houseTypeEntity = defineEntity({
  name: 'house-types',
  path: '/house-types',
  area: 'houses',
  list: 'data_pagination',
  input: houseTypeInput,
  record: houseTypeRecord,
  fields: {
    name: { type: 'text', label: 'Назва типу', required: true, max: 100, sortable: true },
    houses_count: { type: 'number', label: 'Будинків', input: false },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, sortable: true, export: true },
  },
  search: ['name'],
  sort: { field: 'id', order: 'asc' },
  scope: 'organization',
  messages: {
    notFound: 'Тип будинку не знайдено.',
    deleted: 'Тип будинку видалено.',
    inUse: 'Тип використовують будинки, тому його не можна видалити. Спершу змініть тип цих будинків.',
  },
  exportName: 'Типи будинків',
  // Names are unique: two samples of one `unique` differ by a random tail.
  sample: ({ unique }) => ({ name: `Тип ${unique} ${Math.random().toString(36).slice(2, 8)}` }),
});
