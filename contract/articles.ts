import { z } from 'zod';
import { audienceInput, audienceRecord, dateTime } from './audience.ts';
import { idSchema, text } from './common.ts';

export const ARTICLE_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/** Rich-text limit: the stored HTML, after sanitising. */
export const ARTICLE_BODY_MAX = 100_000;

/**
 * A news article as the form sends it. `status` is draft or published; a published article
 * with `publish_at` in the future is scheduled and appears by itself at that time.
 */
export const articleInput = z.object({
  title: text('Заголовок', { min: 1, max: 200 }),
  body: z.string({ error: 'Поле «Текст» має бути текстом.' }).max(ARTICLE_BODY_MAX * 2, 'Текст новини задовгий.'),
  image_id: idSchema.nullable().default(null),
  status: z.enum(['draft', 'published'], { error: 'Статус: чернетка або опубліковано.' }).default('draft'),
  publish_at: dateTime('Час публікації').nullable().default(null),
  is_emergency: z.boolean({ error: 'Поле «Термінова» має бути так або ні.' }).default(false),
  ...audienceInput,
});
export type ArticleInput = z.infer<typeof articleInput>;

export const articleRecord = z.object({
  id: z.number(),
  title: z.string(),
  body: z.string(),
  /** The text without markup, shortened: for lists. */
  excerpt: z.string(),
  image_id: z.number().nullable(),
  image_url: z.string().nullable(),
  status: z.enum(ARTICLE_STATUSES),
  publish_at: z.string().nullable(),
  is_emergency: z.boolean(),
  author: z.string().nullable(),
  ...audienceRecord,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Article = z.infer<typeof articleRecord>;
