/** Outgoing e-mail and SMS (the outbox) and the conversation with the service's support. */
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { MESSAGE_KIND_KEYS, OUTBOX_STATUSES } from '../../../contract/outbox.ts';
import { organizations, users } from './organizations-users.ts';

/**
 * Every e-mail and SMS the product sends, with its delivery state. Subject and body are kept
 * only in the development outbox (no transport, not production); a message that goes through
 * a transport carries its text in the delivery job alone, which is erased once it is done.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    kind: text('kind', { enum: MESSAGE_KIND_KEYS }).notNull().default('message'),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull().default(''),
    body: text('body'),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('queued'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt)],
);

/** The signed-in user's conversation with the service's support (POST /chat); sent through the delivery module. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('support_messages_user_idx').on(t.userId, t.createdAt)],
);
