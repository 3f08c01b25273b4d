import { z } from 'zod';
import { idSchema, text } from './common.ts';

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
