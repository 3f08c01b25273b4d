import { z } from 'zod';

/**
 * What a message is, as the outbox shows it once its content is gone: a closed list, so that a
 * label never carries a code, a link or anyone's words. `message` marks rows written before
 * messages had a kind.
 */
export const MESSAGE_KINDS = {
  login_code: 'Код для входу',
  confirmation_code: 'Код підтвердження',
  password_reset: 'Посилання для відновлення пароля',
  staff_invitation: 'Запрошення до адмін-панелі',
  password_link: 'Посилання для зміни пароля від адміністратора',
  credentials_changed: 'Повідомлення про зміну даних для входу',
  voting_code: 'Код для голосування',
  voting_invitation: 'Запрошення на загальні збори',
  support: 'Звернення в підтримку',
  message: 'Повідомлення',
} as const;
export type MessageKind = keyof typeof MESSAGE_KINDS;
export const MESSAGE_KIND_KEYS = Object.keys(MESSAGE_KINDS) as [MessageKind, ...MessageKind[]];

/**
 * Delivery state of an outbox row: `queued` waits for the mail or SMS transport, `sent` went
 * out, `failed` did not (see `error`); `held` is the development outbox's: kept here to be
 * read, never sent.
 */
export const OUTBOX_STATUSES = ['held', 'queued', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export const outboxRecord = z.object({
  id: z.number(),
  channel: z.enum(['email', 'sms']),
  kind: z.enum(MESSAGE_KIND_KEYS),
  recipient: z.string(),
  /** the message's own subject in the development outbox; otherwise the kind's label */
  subject: z.string(),
  /** the text, only in the development outbox (no transport, not production); otherwise null */
  body: z.string().nullable(),
  status: z.enum(OUTBOX_STATUSES),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
});
export type OutboxRecord = z.infer<typeof outboxRecord>;
