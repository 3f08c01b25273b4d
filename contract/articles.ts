import { z } from 'zod';
import { audienceInput, audienceRecord, dateTime } from './audience.ts';
import { idSchema, text } from './common.ts';
import { defineEntity } from './entity.ts';

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

/** The news list's bulk change: publish the selected news (at their planned time, or now) or take them back to drafts. */
export const articleBulkInput = z.object({ status: z.enum(['draft', 'published'], { error: 'Статус: чернетка або опубліковано.' }) });

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

/**
 * Community news («Новини»): rich text with a cover, addressed to complexes and houses, a draft
 * until published (or scheduled for a time). The CRUD part of its declaration; publishing rules
 * and the cleaning of the HTML are the server's (server/modules/articles).
 */
export const articleEntity = defineEntity({
  name: 'articles',
  path: '/articles',
  area: 'articles',
  list: 'main_data',
  updateMethod: 'POST',
  input: articleInput,
  bulkInput: articleBulkInput,
  record: articleRecord,
  fields: {
    title: { type: 'text', label: 'Заголовок', required: true, max: 200, sortable: true },
    body: { type: 'richtext', label: 'Текст', required: true, max: ARTICLE_BODY_MAX, list: false, export: false },
    excerpt: { type: 'multiline', label: 'Текст', input: false, list: false, export: true, wide: true },
    status: {
      type: 'enum',
      label: 'Статус',
      options: ARTICLE_STATUSES,
      optionLabels: { draft: 'Чернетка', scheduled: 'Заплановано', published: 'Опубліковано' },
      input: false,
      sortable: true,
    },
    publish_at: { type: 'datetime', label: 'Час публікації', sortable: true },
    is_emergency: { type: 'boolean', label: 'Термінова новина' },
    complexes: { type: 'text', label: 'Комплекси', optionText: 'name', input: false },
    houses: { type: 'text', label: 'Будинки', optionText: 'address', input: false, list: false, export: true },
    author: { type: 'text', label: 'Автор', input: false, list: false, export: true },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, sortable: true, export: true },
  },
  search: ['title'],
  filters: [{ source: 'status', type: 'enum' }],
  sort: { field: 'publish_at', order: 'desc' },
  scope: 'complex',
  form: 'page',
  messages: { notFound: 'Новину не знайдено.', deleted: 'Новину видалено.', inUse: 'Новину не можна видалити: на неї посилаються інші записи.' },
  exportName: 'Новини',
  sample: ({ complexId, unique }) => ({
    title: `Новина ${unique}`,
    body: '<p>Завтра з 10:00 до 14:00 не буде води.</p>',
    image_id: null,
    status: 'published' as const,
    publish_at: null,
    is_emergency: false,
    complex_ids: [complexId],
    house_ids: [],
  }),
});
