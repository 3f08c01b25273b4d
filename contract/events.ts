import { z } from 'zod';
import { audienceInput, audienceRecord, dateTime } from './audience.ts';
import { idSchema, text } from './common.ts';

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
