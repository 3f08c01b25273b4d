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

/** Where the SPA fetches an image (with the bearer token) or a document's file. */
export const mediaUrl = (id: number) => `/api/admin/media/${id}`;
