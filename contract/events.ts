import { z } from 'zod';
import { audienceInput, audienceRecord, dateTime } from './audience.ts';
import { idSchema, text } from './common.ts';
import { defineEntity } from './entity.ts';

export const EVENT_STATES = ['upcoming', 'ongoing', 'past'] as const;
export type EventState = (typeof EVENT_STATES)[number];

/** An event of the community poster: when (start, optional end), where, for whom, a picture. */
export const eventInput = z
  .object({
    title: text('Назва', { min: 1, max: 200 }),
    description: text('Опис', { max: 5000 }).default(''),
    place: text('Місце', { min: 1, max: 200 }),
    starts_at: dateTime('Початок'),
    ends_at: dateTime('Завершення').nullable().default(null),
    image_id: idSchema.nullable().default(null),
    ...audienceInput,
  })
  .refine((v) => v.ends_at === null || v.ends_at >= v.starts_at, { message: 'Завершення не може бути раніше за початок.', path: ['ends_at'] });
export type EventInput = z.infer<typeof eventInput>;

export const eventRecord = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  place: z.string(),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  image_id: z.number().nullable(),
  image_url: z.string().nullable(),
  state: z.enum(EVENT_STATES),
  author: z.string().nullable(),
  ...audienceRecord,
  created_at: z.string(),
  updated_at: z.string(),
});
export type CommunityEvent = z.infer<typeof eventRecord>;

/** The events poster (the legacy «Events»), addressed to complexes and houses; a picture each. */
export const eventEntity = defineEntity({
  name: 'events',
  path: '/events',
  area: 'events',
  list: 'data_pagination',
  input: eventInput,
  record: eventRecord,
  fields: {
    title: { type: 'text', label: 'Назва', required: true, max: 200, sortable: true },
    description: { type: 'multiline', label: 'Опис', max: 5000, list: false, export: true, wide: true },
    place: { type: 'text', label: 'Місце', required: true, max: 200, sortable: true },
    starts_at: { type: 'datetime', label: 'Початок', required: true, sortable: true },
    ends_at: { type: 'datetime', label: 'Завершення' },
    state: { type: 'enum', label: 'Стан', options: EVENT_STATES, optionLabels: { upcoming: 'Заплановано', ongoing: 'Триває', past: 'Минув' }, input: false },
    complexes: { type: 'text', label: 'Комплекси', optionText: 'name', input: false },
    houses: { type: 'text', label: 'Будинки', optionText: 'address', input: false, list: false, export: true },
    author: { type: 'text', label: 'Автор', input: false, list: false, export: true },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, sortable: true, export: true },
  },
  search: ['title', 'place'],
  filters: [{ source: 'state', type: 'enum' }],
  sort: { field: 'starts_at', order: 'desc' },
  scope: 'complex',
  form: 'page',
  messages: { notFound: 'Захід не знайдено.', deleted: 'Захід видалено.', inUse: 'Захід не можна видалити: на нього посилаються інші записи.' },
  exportName: 'Заходи',
  sample: ({ complexId, unique }) => ({
    title: `Свято двору ${unique}`,
    description: 'Аніматори, батут і морозиво.',
    place: 'Дитячий майданчик',
    starts_at: new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString(),
    ends_at: null,
    image_id: null,
    complex_ids: [complexId],
    house_ids: [],
  }),
});
