import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import { outbox } from '../db/schema.ts';
import type { JobQueue } from './jobs.ts';

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
  /** Writes the message to the outbox; the sending itself is a background job. */
  send(message: Message): Promise<void>;
  /** The same for many messages at once (notices to every co-owner): two statements in all. */
  sendMany(messages: Message[]): Promise<void>;
}

/** The background job that sends one outbox message. */
export const SEND_MAIL_JOB = 'outbox.send';

interface SendMailJob {
  outboxId: number;
  replyTo?: string;
}

/**
 * Every message is written to the outbox table before the request answers. With SMTP
 * configured, e-mail is then sent by a background job in whichever process picks it up,
 * retried with backoff on failure (JOB_RETRIES); the outbox row keeps `sent_at` or the last
 * error. Without SMTP mail stays in the outbox for a local admin to read. SMS has no provider
 * yet, so it stays in the outbox. The body is never logged: it may hold a reset link or a code.
 */
export function createDelivery(opts: { db: Db; jobs: JobQueue; smtpUrl?: string; from: string; log: FastifyBaseLogger }): Delivery {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  const { db, jobs, log } = opts;

  if (transport) {
    jobs.define<SendMailJob>(
      SEND_MAIL_JOB,
      async ({ outboxId, replyTo }, job) => {
        const [row] = await db.select().from(outbox).where(eq(outbox.id, outboxId)).limit(1);
        // At least once: a message already sent (or deleted with its organization) is done.
        if (!row || row.sentAt) return;
        try {
          await transport.sendMail({ from: opts.from, to: row.recipient, replyTo, subject: row.subject, text: row.body });
        } catch (err) {
          const reason = String((err as Error).message ?? err).slice(0, 400);
          const error = job.lastAttempt ? `Не надіслано після ${job.attempt} спроб: ${reason}` : `Спроба ${job.attempt} невдала, буде повтор: ${reason}`;
          await db.update(outbox).set({ error }).where(eq(outbox.id, outboxId));
          throw err;
        }
        await db.update(outbox).set({ sentAt: new Date(), error: null }).where(eq(outbox.id, outboxId));
      },
      { timeoutSeconds: 120 },
    );
  }

  const sendMany = async (messages: Message[]) => {
    if (!messages.length) return;
    const insert = db
      .insert(outbox)
      .values(messages.map((m) => ({ organizationId: m.organizationId, channel: m.channel, recipient: m.to, subject: m.subject ?? '', body: m.body })))
      .returning({ id: outbox.id });
    const mailed = (m: Message) => m.channel === 'email' && transport !== undefined;
    let ids: number[];
    if (!messages.some(mailed)) {
      ids = (await insert).map((r) => r.id);
    } else {
      // The outbox rows and their delivery jobs are stored together, or neither is.
      const { sql, params } = insert.toSQL();
      ids = await jobs.transaction([SEND_MAIL_JOB], async (tx) => {
        const rowIds = (await tx.executeSql(sql, params)).rows.map((r) => Number(r.id));
        const mail = messages.flatMap((m, i) => (mailed(m) ? [{ outboxId: rowIds[i], ...(m.replyTo ? { replyTo: m.replyTo } : {}) }] : []));
        await jobs.enqueueMany<SendMailJob>(SEND_MAIL_JOB, mail, { tx });
        return rowIds;
      });
    }
    for (const [i, m] of messages.entries()) {
      if (mailed(m)) log.info({ outboxId: ids[i] }, 'mail queued for delivery');
      else log.info({ outboxId: ids[i], channel: m.channel, to: m.to, subject: m.subject }, 'message stored in outbox');
    }
  };

  return { send: (message) => sendMany([message]), sendMany };
}
