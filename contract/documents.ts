import { z } from 'zod';
import { idList } from './audience.ts';
import { text } from './common.ts';
import { formFlag } from './advertisements.ts';

/** Multipart fields of POST/PUT /documents (the file comes as `file`; on PUT it is optional). */
export const documentInput = z.object({
  name: text('Назва', { min: 1, max: 200 }),
  complexIds: idList('Комплекси'),
  houseIds: idList('Будинки'),
  apartmentIds: idList('Квартири'),
  is_public: formFlag('Доступний мешканцям').default(false),
});
export type DocumentInput = z.infer<typeof documentInput>;

export const documentRecord = z.object({
  id: z.number(),
  name: z.string(),
  file_name: z.string(),
  mime: z.string(),
  size: z.number(),
  /** The authorised download route. */
  file_url: z.string(),
  is_public: z.boolean(),
  complexIds: z.array(z.number()),
  houseIds: z.array(z.number()),
  apartmentIds: z.array(z.number()),
  complexes: z.array(z.object({ id: z.number(), name: z.string() })),
  houses: z.array(z.object({ id: z.number(), address: z.string() })),
  apartments: z.array(z.object({ id: z.number(), house_id: z.number(), number: z.string(), address: z.string() })),
  author: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DocumentRecord = z.infer<typeof documentRecord>;
