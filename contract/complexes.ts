import { z } from 'zod';
import { text } from './common.ts';
import { defineEntity } from './entity.ts';
import { houseRecord } from './houses.ts';

/** What an admin enters for a residential complex; the API validates with it, the SPA shows its limits. */
export const complexInput = z.object({
  name: text('Назва', { min: 2, max: 150 }),
  city: text('Місто', { min: 2, max: 100 }),
  address: text('Адреса', { max: 250 }).default(''),
  description: text('Опис', { max: 5000 }).default(''),
});
export type ComplexInput = z.infer<typeof complexInput>;

export const complexRecord = z.object({
  id: z.number(),
  name: z.string(),
  city: z.string(),
  address: z.string(),
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Complex = z.infer<typeof complexRecord>;

/** What the complex holds: houses and units by type; `residents` is 0 until residents exist. */
export const complexCounts = z.object({
  houses: z.number(),
  apartment: z.number(),
  parking: z.number(),
  storage: z.number(),
  commercial: z.number(),
  residents: z.number(),
});
export type ComplexCounts = z.infer<typeof complexCounts>;

/**
 * GET /complexes/{id} only: the record plus its houses and counts. Both are optional: `houses`
 * is left out for a user whose role may not view houses.
 */
export const complexDetailRecord = complexRecord.extend({
  houses: z.array(houseRecord).optional(),
  counts: complexCounts.optional(),
});
export type ComplexDetail = z.infer<typeof complexDetailRecord>;

export const COMPLEX_SORTS = ['id', 'name', 'city', 'created_at'] as const;

/** Samples' names differ even for the same unique word (a name is unique in an organization). */
let samples = 0;

/** Residential complexes: the organization's, and a staff user's own ones (contract/entity.ts). */
export const complexEntity = defineEntity({
  name: 'complexes',
  path: '/complexes',
  area: 'complexes',
  list: 'main_data',
  create: 'main_data',
  input: complexInput,
  record: complexRecord,
  fields: {
    name: { type: 'text', label: 'Назва', required: true, max: 150, sortable: true },
    city: { type: 'text', label: 'Місто', required: true, max: 100, sortable: true },
    address: { type: 'text', label: 'Адреса', max: 250 },
    description: { type: 'multiline', label: 'Опис', max: 5000, list: false, wide: true },
    created_at: { type: 'datetime', label: 'Створено', input: false, sortable: true },
  },
  search: ['name', 'city', 'address'],
  sort: { field: 'id', order: 'asc' },
  scope: 'complex',
  messages: { notFound: 'Комплекс не знайдено.', deleted: 'Комплекс видалено.', inUse: 'Комплекс не можна видалити: на нього посилаються інші записи.' },
  exportName: 'Комплекси',
  sample: ({ unique }) => ({ name: `ЖК ${unique} ${(samples = (samples + 1) % 100000)}`, city: 'Київ', address: 'вул. Зразкова, 1', description: '' }),
});
