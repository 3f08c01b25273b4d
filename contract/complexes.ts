import { z } from 'zod';
import { text } from './common.ts';
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
