import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { MessageKind } from '../../contract/outbox.ts';
import type { AppConfig } from '../config.ts';
import { plural } from './words.ts';
import type { Db } from '../db/index.ts';
import { outbox } from '../db/schema.ts';
import type { JobQueue } from './jobs.ts';

export type Channel = 'email' | 'sms';

export interface Message {
  channel: Channel;
  /** what the message is: all the outbox shows of it once a transport carries it */
  kind: MessageKind;
  to: string;
  subject?: string;
  body: string;
  organizationId?: number;
  /** e-mail only: where replies go (e.g. the user who wrote to support) */
  replyTo?: string;
}

/** One way out: SMTP for e-mail, an HTTP gateway for SMS. Throws when the message was not accepted. */
export interface Transport {
  send(message: { to: string; subject: string; text: string; replyTo?: string }): Promise<void>;
}
export type Transports = Partial<Record<Channel, Transport>>;

export interface Delivery {
  /** Writes the message to the outbox; the sending itself is a background job. */
  send(message: Message): Promise<void>;
  /** The same for many messages at once (notices to every co-owner): two statements in all. */
  sendMany(messages: Message[]): Promise<void>;
  /**
   * Whether messages of this channel reach anyone: it has a transport, or the development outbox
   * keeps them to be read. A channel that cannot is not offered (no SMS codes without a gateway).
   */
  canSend(channel: Channel): boolean;
  /** Messages are kept readable in the outbox (development only; see AppConfig.devOutbox). */
  readonly devOutbox: boolean;
  /**
   * Outside the development outbox: erases any subject and body still stored (rows written in a
   * development period or by an older version); those never sent are marked failed. Returns the count.
   */
  eraseStoredContent(): Promise<number>;
}

/** The background job that sends one outbox message (e-mail or SMS). */
export const SEND_MAIL_JOB = 'outbox.send';

interface SendJob {
  outboxId: number;
  /** The text travels in the job, not in the outbox row, and is erased from it once the job is done. */
  subject?: string;
  body?: string;
  replyTo?: string;
}
const SECRET_KEYS = ['subject', 'body', 'replyTo'];

const NO_TRANSPORT: Record<Channel, string> = {
  email: 'Не надіслано: поштовий сервер не налаштовано (SMTP_URL).',
  sms: 'Не надіслано: SMS-шлюз не налаштовано (SMS_GATEWAY_URL).',
};
const CONTENT_GONE = 'Не надіслано: вміст повідомлення не зберігається поза режимом розробки. Повторіть дію, щоб надіслати нове.';

/** The lines the server prints at start about where messages go (empty when all is configured). */
export function deliveryNotices(config: Pick<AppConfig, 'devOutbox' | 'smtpUrl' | 'smsGateway'>): string[] {
  if (config.devOutbox) {
    return [
      'УВАГА: режим розробки — листи й SMS нікуди не надсилаються, а лишаються у вихідних (GET /api/admin/outbox), ' +
        'де адміністратори бачать їхні коди й посилання. Для роботи задайте SMTP_URL (і SMS_GATEWAY_URL) та PUBLIC_URL або NODE_ENV=production.',
    ];
  }
  const lines: string[] = [];
  if (!config.smtpUrl) lines.push('УВАГА: SMTP_URL не задано — листи (запрошення, відновлення пароля, коди) не надсилаються.');
  if (!config.smsGateway) lines.push('SMS_GATEWAY_URL не задано: вхід і підтвердження за кодом з SMS не пропонуються.');
  return lines;
}

/**
 * Every message gets an outbox row before the request answers: recipient, kind and delivery
 * state. With a transport for its channel the row holds no subject or body: the text travels in
 * the delivery job, which the background worker of whichever process picks it up sends (retried
 * with backoff, JOB_RETRIES) and then erases from the job. Without one, the development outbox
 * keeps the text in the row to be read; in production such a message is recorded as failed. The
 * text is never logged: it may hold a reset link or a code.
 */
export function createDelivery(opts: { db: Db; jobs: JobQueue; transports: Transports; devOutbox: boolean; log: FastifyBaseLogger }): Delivery {
  const { db, jobs, log, transports, devOutbox } = opts;

  if (transports.email || transports.sms) {
    jobs.define<SendJob>(
      SEND_MAIL_JOB,
      async (payload, job) => {
        const [row] = await db
          .select({ id: outbox.id, channel: outbox.channel, recipient: outbox.recipient, status: outbox.status })
          .from(outbox)
          .where(eq(outbox.id, payload.outboxId))
          .limit(1);
        // At least once: a message already sent, failed for good, or deleted with its organization is done.
        if (!row || row.status !== 'queued') return;
        const transport = transports[row.channel];
        const fail = async (error: string, final: boolean) => {
          await db
            .update(outbox)
            .set({ error, ...(final ? { status: 'failed' as const } : {}) })
            .where(eq(outbox.id, row.id));
        };
        if (payload.body === undefined) return fail(CONTENT_GONE, true);
        try {
          if (!transport) throw new Error(NO_TRANSPORT[row.channel]);
          await transport.send({ to: row.recipient, subject: payload.subject ?? '', text: payload.body, replyTo: payload.replyTo });
        } catch (err) {
          const reason = String((err as Error).message ?? err).slice(0, 400);
          await fail(
            job.lastAttempt
              ? `Не надіслано після ${job.attempt} ${plural(job.attempt, ['спроби', 'спроб', 'спроб'])}: ${reason}`
              : `Спроба ${job.attempt} невдала, буде повтор: ${reason}`,
            job.lastAttempt,
          );
          throw err;
        }
        await db.update(outbox).set({ status: 'sent', sentAt: new Date(), error: null }).where(eq(outbox.id, row.id));
      },
      { timeoutSeconds: 120, secretKeys: SECRET_KEYS },
    );
  }

  const row = (m: Message) => {
    const base = { organizationId: m.organizationId, channel: m.channel, kind: m.kind, recipient: m.to };
    if (transports[m.channel]) return { ...base, subject: '', body: null, status: 'queued' as const };
    if (devOutbox) return { ...base, subject: m.subject ?? '', body: m.body, status: 'held' as const };
    return { ...base, subject: '', body: null, status: 'failed' as const, error: NO_TRANSPORT[m.channel] };
  };

  const sendMany = async (messages: Message[]) => {
    if (!messages.length) return;
    const rows = messages.map(row);
    const insert = db.insert(outbox).values(rows).returning({ id: outbox.id });
    let ids: number[];
    if (!rows.some((r) => r.status === 'queued')) {
      ids = (await insert).map((r) => r.id);
    } else {
      // The outbox rows and their delivery jobs are stored together, or neither is.
      const { sql, params } = insert.toSQL();
      ids = await jobs.transaction([SEND_MAIL_JOB], async (tx) => {
        const rowIds = (await tx.executeSql(sql, params)).rows.map((r) => Number(r.id));
        const payloads = messages.flatMap((m, i): SendJob[] =>
          rows[i].status === 'queued' ? [{ outboxId: rowIds[i], subject: m.subject ?? '', body: m.body, ...(m.replyTo ? { replyTo: m.replyTo } : {}) }] : [],
        );
        await jobs.enqueueMany<SendJob>(SEND_MAIL_JOB, payloads, { tx });
        return rowIds;
      });
    }
    for (const [i, m] of messages.entries()) {
      const fields = { outboxId: ids[i], channel: m.channel, kind: m.kind };
      if (rows[i].status === 'queued') log.info(fields, 'message queued for delivery');
      else if (rows[i].status === 'held') log.info(fields, 'message kept in the development outbox');
      else log.warn(fields, `message not sent: no ${m.channel} transport is configured`);
    }
  };

  return {
    send: (message) => sendMany([message]),
    sendMany,
    canSend: (channel) => Boolean(transports[channel]) || devOutbox,
    devOutbox,
    async eraseStoredContent() {
      if (devOutbox) return 0;
      const erased = await db
        .update(outbox)
        .set({ subject: '', body: null })
        .where(and(isNotNull(outbox.body), eq(outbox.status, 'sent')))
        .returning({ id: outbox.id });
      const unsent = await db
        .update(outbox)
        .set({ subject: '', body: null, status: 'failed', error: CONTENT_GONE })
        .where(isNotNull(outbox.body))
        .returning({ id: outbox.id });
      const n = erased.length + unsent.length;
      if (n) log.warn({ rows: n }, 'outbox: erased message content left from a development period');
      return n;
    },
  };
}
