import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import { outbox } from '../db/schema.ts';

export interface Message {
  channel: 'email' | 'sms';
  to: string;
  subject?: string;
  body: string;
  organizationId?: number;
  /** e-mail only: where replies go (e.g. the user who wrote to support) */
  replyTo?: string;
}

export interface Delivery {
  send(message: Message): Promise<void>;
}

/**
 * Every message is written to the outbox table; with SMTP configured e-mail is also sent,
 * otherwise it stays there for a local admin to read. SMS has no provider yet, so it stays
 * in the outbox. The body is never logged: it may hold a reset link or a code.
 */
export function createDelivery(opts: { db: Db; smtpUrl?: string; from: string; log: FastifyBaseLogger }): Delivery {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  return {
    async send(message) {
      const [row] = await opts.db
        .insert(outbox)
        .values({
          organizationId: message.organizationId,
          channel: message.channel,
          recipient: message.to,
          subject: message.subject ?? '',
          body: message.body,
        })
        .returning({ id: outbox.id });
      if (message.channel === 'email' && transport) {
        try {
          await transport.sendMail({ from: opts.from, to: message.to, replyTo: message.replyTo, subject: message.subject, text: message.body });
          await opts.db.update(outbox).set({ sentAt: new Date() }).where(eqId(row.id));
        } catch (err) {
          opts.log.warn({ err, outboxId: row.id }, 'mail delivery failed; kept in outbox');
          await opts.db
            .update(outbox)
            .set({ error: String((err as Error).message ?? err).slice(0, 500) })
            .where(eqId(row.id));
        }
      } else {
        opts.log.info({ outboxId: row.id, channel: message.channel, to: message.to, subject: message.subject }, 'message stored in outbox');
      }
    },
  };
}

const eqId = (id: number) => eq(outbox.id, id);
