import { z } from 'zod';
import { text } from './common.ts';
import type { Area } from './permissions.ts';

/**
 * Lists whose views a user may save under a name, and the permission area whose view right the
 * list needs. A saved view is the list's address query (its filters and sort: `stage=new&sort=
 * deadline&order=ASC`), so any list that keeps its state in the address can offer them.
 */
export const SAVED_VIEW_LISTS = { requests: 'service_requests' } as const satisfies Record<string, Area>;
export type SavedViewList = keyof typeof SAVED_VIEW_LISTS;
const LIST_NAMES = Object.keys(SAVED_VIEW_LISTS) as [SavedViewList, ...SavedViewList[]];

/** How many views one user may keep for one list. */
export const SAVED_VIEWS_LIMIT = 50;
export const SAVED_VIEW_NAME_MAX = 60;
export const SAVED_VIEW_QUERY_MAX = 2000;

export const savedViewListSchema = z.enum(LIST_NAMES, { error: `Вкажіть список: ${LIST_NAMES.join(', ')}.` });

const name = text('Назва', { min: 1, max: SAVED_VIEW_NAME_MAX });
/** The address query without its «?» and without the page (a view opens on the first page). */
const query = z
  .string({ error: 'Поле «Фільтри» має бути текстом.' })
  .max(SAVED_VIEW_QUERY_MAX, `Поле «Фільтри» — не довше ${SAVED_VIEW_QUERY_MAX} символів.`)
  .refine((v) => !v.includes('\u0000'), 'Поле «Фільтри» містить недопустимі символи.')
  .transform((v) => {
    const params = new URLSearchParams(v.replace(/^\?/, ''));
    params.delete('page');
    return params.toString();
  });

export const savedViewInput = z.object({ list: savedViewListSchema, name, query });
export const savedViewUpdate = z
  .object({ name: name.optional(), query: query.optional() })
  .refine((b) => b.name !== undefined || b.query !== undefined, { message: 'Вкажіть нову назву або фільтри.', path: ['name'] });

export const savedViewRecord = z.object({
  id: z.number(),
  list: savedViewListSchema,
  name: z.string(),
  query: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SavedView = z.infer<typeof savedViewRecord>;
