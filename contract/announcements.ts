import { z } from 'zod';
import { audienceInput, audienceRecord, dateTime } from './audience.ts';
import { text } from './common.ts';
import { defineEntity } from './entity.ts';

export const ANNOUNCEMENT_STATES = ['upcoming', 'active', 'expired'] as const;
export type AnnouncementState = (typeof ANNOUNCEMENT_STATES)[number];

/** An announcement: plain text shown to residents from `valid_from` until `valid_until` (open-ended when empty). */
export const announcementInput = z
  .object({
    title: text('Заголовок', { min: 1, max: 200 }),
    body: text('Текст', { min: 1, max: 5000 }),
    valid_from: dateTime('Діє з'),
    valid_until: dateTime('Діє до').nullable().default(null),
    ...audienceInput,
  })
  .refine((v) => v.valid_until === null || v.valid_until >= v.valid_from, {
    message: 'Дата завершення не може бути раніше за дату початку.',
    path: ['valid_until'],
  });
export type AnnouncementInput = z.infer<typeof announcementInput>;

export const announcementRecord = z.object({
  id: z.number(),
  title: z.string(),
  body: z.string(),
  valid_from: z.string(),
  valid_until: z.string().nullable(),
  /** Derived from the validity period when read. */
  state: z.enum(ANNOUNCEMENT_STATES),
  author: z.string().nullable(),
  ...audienceRecord,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Announcement = z.infer<typeof announcementRecord>;

/** Announcements for residents (the legacy «Announcements»), addressed to complexes and houses. */
export const announcementEntity = defineEntity({
  name: 'announcements',
  path: '/announcements',
  area: 'announcements',
  list: 'data_pagination',
  input: announcementInput,
  record: announcementRecord,
  fields: {
    title: { type: 'text', label: 'Заголовок', required: true, max: 200, sortable: true },
    body: { type: 'multiline', label: 'Текст', required: true, max: 5000, list: false, export: true, wide: true },
    valid_from: { type: 'datetime', label: 'Діє з', required: true, sortable: true },
    valid_until: { type: 'datetime', label: 'Діє до', sortable: true, hint: true },
    state: {
      type: 'enum',
      label: 'Стан',
      options: ANNOUNCEMENT_STATES,
      optionLabels: { upcoming: 'Ще не діє', active: 'Діє', expired: 'Завершено' },
      input: false,
    },
    complexes: { type: 'text', label: 'Комплекси', optionText: 'name', input: false },
    houses: { type: 'text', label: 'Будинки', optionText: 'address', input: false, list: false, export: true },
    author: { type: 'text', label: 'Автор', input: false, list: false, export: true },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, sortable: true, export: true },
  },
  search: ['title'],
  filters: [{ source: 'state', type: 'enum' }],
  sort: { field: 'valid_from', order: 'desc' },
  scope: 'complex',
  form: 'page',
  messages: { notFound: 'Оголошення не знайдено.', deleted: 'Оголошення видалено.', inUse: 'Оголошення не можна видалити: на нього посилаються інші записи.' },
  exportName: 'Оголошення',
  sample: ({ complexId, unique }) => ({
    title: `Оголошення ${unique}`,
    body: 'Просимо забезпечити доступ до квартир.',
    valid_from: new Date(Date.now() - 24 * 3600 * 1000).toISOString(),
    valid_until: null,
    complex_ids: [complexId],
    house_ids: [],
  }),
});
