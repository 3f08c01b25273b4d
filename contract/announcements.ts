import { z } from 'zod';
import { audienceInput, audienceRecord, dateTime } from './audience.ts';
import { text } from './common.ts';

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
  .refine((v) => v.valid_until === null || v.valid_until >= v.valid_from, { message: 'Дата завершення не може бути раніше за дату початку.', path: ['valid_until'] });
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
