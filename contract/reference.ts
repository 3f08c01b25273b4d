import { z } from 'zod';
import { idSchema, text } from './common.ts';

/** Apostrophes users type (' ʼ ` ‘) all mean ’ (U+2019), the form the reference data uses. */
export function normaliseApostrophes(value: string): string {
  return value.replace(/['ʼ`‘]/g, '’');
}

/** What searches compare: lower-cased, apostrophes folded, spaces collapsed. */
export function searchForm(value: string): string {
  return normaliseApostrophes(value).toLowerCase().replace(/\s+/g, ' ').trim();
}

export const FIND_LIMIT = 20;

export const findCityQuery = z.object({
  search_query: z.string().max(100, 'Запит задовгий.').default(''),
});

export const findStreetQuery = z.object({
  search_query: z.string().max(100, 'Запит задовгий.').default(''),
  city_id: idSchema,
});

/** A settlement as the city look-up returns it; region and district tell same-named ones apart. */
export const cityRecord = z.object({
  id: z.number(),
  name: z.string(),
  /** М місто, Х селище, С село, К місто зі спеціальним статусом */
  category: z.string(),
  region: z.string(),
  district: z.string().nullable(),
  community: z.string().nullable(),
});
export type City = z.infer<typeof cityRecord>;

export const streetRecord = z.object({
  id: z.number(),
  city_id: z.number(),
  name: z.string(),
  type: z.string().nullable(),
  district: z.string().nullable(),
  source: z.enum(['reference', 'admin']),
});
export type Street = z.infer<typeof streetRecord>;

export const STREET_TYPES = [
  'вулиця',
  'провулок',
  'проспект',
  'бульвар',
  'площа',
  'майдан',
  'узвіз',
  'проїзд',
  'в’їзд',
  'лінія',
  'шосе',
  'дорога',
  'алея',
  'набережна',
  'тупик',
] as const;

/** An admin adds a street the reference lacks, or renames an outdated one. */
export const streetInput = z.object({
  city_id: idSchema,
  name: text('Назва вулиці', { min: 2, max: 150 }),
  type: z.enum(STREET_TYPES, { error: 'Оберіть тип вулиці зі списку.' }).nullable().default('вулиця'),
});
