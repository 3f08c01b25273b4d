import { z } from 'zod';
import { idSchema, text } from './common.ts';

/** A 0/1 flag as forms send it ("0", "1", "true", "false"). */
export const formFlag = (label: string) =>
  z.enum(['0', '1', 'true', 'false'], { error: `Поле «${label}»: 0 або 1.` }).transform((v) => v === '1' || v === 'true');

/** Multipart fields of POST /advertisement (the picture comes as the file `image`). */
export const advertisementCreate = z.object({
  name: text('Назва', { min: 1, max: 200 }),
  desc: text('Опис', { max: 5000 }).default(''),
  house_id: idSchema,
  published: formFlag('Опубліковано').optional(),
});

/** PUT /advertisement/{id}: name and description; a new `image` file or `remove_image=1` changes the picture. */
export const advertisementUpdate = z.object({
  name: text('Назва', { min: 1, max: 200 }),
  desc: text('Опис', { max: 5000 }).default(''),
  house_id: idSchema.optional(),
  remove_image: formFlag('Прибрати зображення').optional(),
});

/** POST /advertisement/{id}: only the published switch. */
export const advertisementPublish = z.object({ published: formFlag('Опубліковано') });

export const advertisementRecord = z.object({
  id: z.number(),
  name: z.string(),
  desc: z.string(),
  house_id: z.number(),
  address: z.string(),
  complex_id: z.number().nullable(),
  image_id: z.number().nullable(),
  /** The authorised route of the picture, or null. */
  image: z.string().nullable(),
  published: z.union([z.literal(0), z.literal(1)]),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Advertisement = z.infer<typeof advertisementRecord>;
