import { z } from 'zod';

/** An uploaded file as the API describes it; `url` is the authorised route that serves it. */
export const mediaRecord = z.object({
  id: z.number(),
  kind: z.enum(['image', 'document']),
  name: z.string(),
  mime: z.string(),
  size: z.number(),
  url: z.string(),
});
export type MediaFile = z.infer<typeof mediaRecord>;

/** How URLs name a file: its random key (128 bits, hex), never its sequential id. */
export const fileKeySchema = z.string().regex(/^[0-9a-f]{32}$/, 'Невідомий ключ файлу.');

/** Where the SPA fetches a picture (with the bearer token) or the user's own fresh upload. */
export const mediaUrl = (key: string) => `/api/admin/media/${key}`;
