import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../../server/db/index.ts';
import { outbox } from '../../server/db/schema.ts';
import { SEND_MAIL_JOB } from '../../server/lib/delivery.ts';
import { openJobQueue, type JobContext, type JobQueue } from '../../server/lib/jobs.ts';
import { fakeSmsGateway, fakeSmtp } from './fakeTransports.ts';
import { ADMIN, API, type TestApp, setupApp } from './helpers.ts';
import { databaseUrl, withAdminClient } from './pg.ts';

/**
 * The durable job queue: jobs are rows in the database, picked up by any runner, retried with
 * backoff, never run twice at once, and still there after a restart. On PGlite unless
 * DATABASE_URL is set, then on a PostgreSQL database of this file's own.
 */
const PG_URL = process.env.DATABASE_URL;
const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => silent, level: 'silent', silent() {} } as never;

const dirs: string[] = [];
const dropUrls: string[] = [];
const opened: { close(): Promise<void> }[] = [];

let emptyDir: Promise<string> | undefined;
/** A PGlite data folder as a first open leaves it (no schema of ours), then closed. */
function emptyDataDir(): Promise<string> {
  emptyDir ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-jobs-empty-'));
    dirs.push(dir);
    const database = await openDatabase({ kind: 'pglite', dataDir: dir }, { migrate: false });
    await database.close();
    return dir;
  })();
  return emptyDir;
}

/** A fresh empty database (no application schema: the queue brings its own). */
async function freshDatabase(): Promise<{ open: () => Promise<Database> }> {
  if (PG_URL) {
    const name = `zhk_t_jobs_${crypto.randomBytes(4).toString('hex')}`;
    await withAdminClient(PG_URL, (c) => c.query(`CREATE DATABASE "${name}"`));
    dropUrls.push(name);
    return { open: () => openDatabase({ kind: 'postgres', url: databaseUrl(PG_URL, name) }, { migrate: false }) };
  }
  // PGlite on disk, so that a "restart" really closes and reopens the database. Each one is a
  // copy of one empty data folder, created once for the file instead of once per database.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-jobs-'));
  dirs.push(dir);
  fs.cpSync(await emptyDataDir(), dir, { recursive: true });
  return { open: () => openDatabase({ kind: 'pglite', dataDir: dir }, { migrate: false }) };
}

async function queueOn(database: Database, retries = 0): Promise<JobQueue> {
  const q = await openJobQueue(database, { log: silent, retries, retryDelaySeconds: 0, pollSeconds: 0.5 });
  opened.push(q);
  return q;
}

async function until(check: () => boolean | Promise<boolean>, ms = 15_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterAll(async () => {
  for (const q of opened.reverse()) await q.close().catch(() => {});
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  if (PG_URL) for (const name of dropUrls) await withAdminClient(PG_URL, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
});

describe('job queue', () => {
  let database: Database;
  let queue: JobQueue;
  beforeAll(async () => {
    database = await (await freshDatabase()).open();
    opened.push(database);
    queue = await queueOn(database, 2);
  });

  it('picks up an enqueued job and completes it', async () => {
    const seen: { payload: unknown; job: JobContext }[] = [];
    queue.define<{ n: number }>('test.echo', async (payload, job) => {
      seen.push({ payload, job });
    });
    const id = await queue.enqueue('test.echo', { n: 42 });
    await queue.work();
    await until(() => seen.length === 1);
    expect(seen[0]).toMatchObject({ payload: { n: 42 }, job: { id, attempt: 1, lastAttempt: false } });
    await until(async () => (await queue.boss.getJobById('test.echo', id))?.state === 'completed');
  });

  it('retries a failing job with its attempts counted, then marks it failed with the last error', async () => {
    const attempts: JobContext[] = [];
    queue.define('test.flaky', async (_payload, job) => {
      attempts.push(job);
      throw new Error(`спроба ${job.attempt}`);
    });
    const id = await queue.enqueue('test.flaky', {});
    await until(async () => (await queue.boss.getJobById('test.flaky', id))?.state === 'failed', 20_000);
    expect(attempts.map((a) => [a.attempt, a.lastAttempt])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    const job = await queue.boss.getJobById('test.flaky', id);
    expect(job).toMatchObject({ retryCount: 2, output: { message: 'спроба 3' } });
  });

  it('a job that fails once and then succeeds is completed', async () => {
    let runs = 0;
    queue.define('test.once', async () => {
      runs += 1;
      if (runs === 1) throw new Error('тимчасово');
    });
    const id = await queue.enqueue('test.once', {});
    await until(async () => (await queue.boss.getJobById('test.once', id))?.state === 'completed');
    expect(runs).toBe(2);
  });

  it('stores jobs enqueued in a transaction only when it commits', async () => {
    const ran: string[] = [];
    queue.define<{ tag: string }>('test.tx', async ({ tag }) => {
      ran.push(tag);
    });
    await expect(
      queue.transaction(['test.tx'], async (tx) => {
        await queue.enqueue('test.tx', { tag: 'rolled back' }, { tx });
        await queue.enqueueMany('test.tx', [{ tag: 'rolled back too' }], { tx });
        throw new Error('відкат');
      }),
    ).rejects.toThrow('відкат');
    await queue.transaction(['test.tx'], async (tx) => {
      await tx.executeSql('SELECT 1');
      await queue.enqueueMany('test.tx', [{ tag: 'a' }, { tag: 'b' }], { tx });
    });
    await until(() => ran.length === 2);
    await new Promise((r) => setTimeout(r, 800));
    expect(ran.sort()).toEqual(['a', 'b']);
    await expect(queue.transaction([], (tx) => queue.enqueue('test.unnamed', {}, { tx }))).rejects.toThrow(/not named/);
  });

  it('holds a job until its run-at time', async () => {
    let ranAt = 0;
    queue.define('test.later', async () => {
      ranAt = Date.now();
    });
    const runAt = new Date(Date.now() + 2000);
    await queue.enqueue('test.later', {}, { runAt });
    await new Promise((r) => setTimeout(r, 1000));
    expect(ranAt).toBe(0);
    await until(() => ranAt > 0);
    expect(ranAt).toBeGreaterThanOrEqual(runAt.getTime() - 50);
  });
});

describe('runners', () => {
  it('two runners on one database never run the same job twice', async () => {
    const source = await freshDatabase();
    // PostgreSQL: two pools, as two processes would have; PGlite is one process, so one instance.
    const first = await source.open();
    opened.push(first);
    const second = PG_URL ? await source.open() : first;
    if (second !== first) opened.push(second);
    const a = await queueOn(first);
    const b = await queueOn(second);
    const runs = new Map<number, string[]>();
    for (const [name, q] of [
      ['a', a],
      ['b', b],
    ] as const) {
      q.define<{ i: number }>('test.count', async ({ i }) => {
        runs.set(i, [...(runs.get(i) ?? []), name]);
        await new Promise((r) => setTimeout(r, 5));
      });
    }
    const total = 60;
    await a.enqueueMany(
      'test.count',
      Array.from({ length: total }, (_, i) => ({ i })),
    );
    await Promise.all([a.work(), b.work()]);
    await until(() => runs.size === total, 30_000);
    // A little longer: a duplicate would show up now.
    await new Promise((r) => setTimeout(r, 1200));
    const twice = [...runs.entries()].filter(([, by]) => by.length > 1);
    expect(twice).toEqual([]);
    expect(runs.size).toBe(total);
    if (PG_URL) expect(new Set([...runs.values()].flat())).toEqual(new Set(['a', 'b']));
  });

  it('a periodic job runs once a period, however many runners offer it', async () => {
    const source = await freshDatabase();
    const first = await source.open();
    opened.push(first);
    const second = PG_URL ? await source.open() : first;
    if (second !== first) opened.push(second);
    const runs: number[] = [];
    const queues = [await queueOn(first), await queueOn(second), await queueOn(second)];
    // Each runner offers the job every second (a quarter of the period, at least a second).
    for (const q of queues) q.every('test.tick', 2, async () => void runs.push(Date.now()));
    const started = Date.now();
    await Promise.all(queues.map((q) => q.work()));
    await until(() => runs.length >= 2, 15_000);
    await new Promise((r) => setTimeout(r, 2500));
    const periods = Math.ceil((Date.now() - started) / 2000) + 1;
    // Three runners offering every second would run it about six times a period without the singleton.
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(periods);
    const [{ n }] = await queues[0].boss
      .getDb()
      .executeSql(`select count(*)::int as n from pgboss.job where name = 'test.tick'`, [])
      .then((r) => r.rows as { n: number }[]);
    expect(n).toBeLessThanOrEqual(periods);
  });

  it('a job survives a restart: stopped before it ran, picked up by the next runner', async () => {
    const source = await freshDatabase();
    let database = await source.open();
    const before = await queueOn(database);
    const ran: number[] = [];
    before.define<{ n: number }>('test.durable', async ({ n }) => {
      ran.push(n);
    });
    // Enqueued, never worked on: the runner and its database go away.
    const id = await before.enqueue('test.durable', { n: 7 });
    await before.close();
    await database.close();
    expect(ran).toEqual([]);

    database = await source.open();
    opened.push(database);
    const after = await queueOn(database);
    after.define<{ n: number }>('test.durable', async ({ n }) => {
      ran.push(n);
    });
    await after.work();
    await until(() => ran.length === 1);
    expect(ran).toEqual([7]);
    await until(async () => (await after.boss.getJobById('test.durable', id))?.state === 'completed');
  });
});

describe('mail and SMS delivery through jobs', () => {
  let t: TestApp;
  let smtp: ReturnType<typeof fakeSmtp>;
  let gateway: ReturnType<typeof fakeSmsGateway>;

  beforeAll(async () => {
    smtp = fakeSmtp(1);
    // +380500000000 is refused by the gateway every time.
    gateway = fakeSmsGateway((to) => (to === '+380500000000' ? 503 : 200));
    t = await setupApp({
      env: {
        SMTP_URL: await smtp.start(),
        SMS_GATEWAY_URL: await gateway.start(),
        SMS_GATEWAY_TOKEN: 'gateway-secret-token',
        JOB_RETRIES: '2',
        JOB_RETRY_DELAY_SECONDS: '0',
        JOB_POLL_SECONDS: '0.5',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
    await gateway?.stop();
  });

  const lastTo = async (to: string) => (await t.db.select().from(outbox).where(eq(outbox.recipient, to)).orderBy(desc(outbox.id)).limit(1))[0];
  /** The stored delivery job of an outbox row (pg-boss keeps finished jobs for a week). */
  const jobOf = async (outboxId: number) =>
    (
      await queryRows<{ state: string; data: Record<string, unknown> }>(
        t.db,
        sql`select state, data from pgboss.job where name = ${SEND_MAIL_JOB} and (data->>'outboxId')::int = ${outboxId}`,
      )
    )[0];

  it('writes the outbox row in the request and sends in a job, retrying after a refusal; the text lives only in the job until then', async () => {
    // The request answers with the row in place, before any runner has looked at it.
    const res = await t.call('POST', `${API}/forgot_password`, { body: { email: ADMIN.email } });
    expect(res.statusCode, res.body).toBe(200);
    const row = await lastTo(ADMIN.email);
    expect(row).toMatchObject({ channel: 'email', kind: 'password_reset', status: 'queued', sentAt: null, subject: '', body: null });
    const queued = await jobOf(row.id);
    expect(String(queued.data.body)).toContain('https://zhk.test/ResetPassword?token=');
    expect(smtp.received).toEqual([]);

    await t.app.jobs.work();
    // The first try is refused (451), the retry goes through.
    await until(async () => (await lastTo(ADMIN.email)).sentAt !== null);
    const sent = await lastTo(ADMIN.email);
    expect(sent).toMatchObject({ status: 'sent', error: null, body: null, subject: '' });
    expect(smtp.received.length).toBe(1);
    const [mail] = smtp.messages();
    expect(mail.headers).toContain(`To: ${ADMIN.email}`);
    expect(mail.text).toContain('https://zhk.test/ResetPassword?token=');
    // Done: the job keeps its row for inspection, without the text.
    await until(async () => (await jobOf(row.id)).state === 'completed');
    expect((await jobOf(row.id)).data).toEqual({ outboxId: row.id });
  });

  it('gives up after the retries and keeps the last error in the outbox, not the text', async () => {
    const to = `bounce-${crypto.randomBytes(3).toString('hex')}@test.ua`;
    await t.app.delivery.send({ channel: 'email', kind: 'message', to, subject: 'Тест', body: 'Текст 654321', organizationId: t.organizationId });
    await until(async () => /^Не надіслано після 3 спроб/.test((await lastTo(to)).error ?? ''), 20_000);
    const row = await lastTo(to);
    expect(row).toMatchObject({ status: 'failed', sentAt: null, body: null });
    expect(row.error).toMatch(/550/);
    const failed = await t.app.jobs.boss.fetch(SEND_MAIL_JOB);
    expect(failed).toEqual([]);
    await until(async () => (await jobOf(row.id)).state === 'failed');
    expect(JSON.stringify((await jobOf(row.id)).data)).not.toContain('654321');
  });

  it('sends SMS through the HTTP gateway: POST {to, text} with the bearer token', async () => {
    const to = '+380501234567';
    await t.app.delivery.send({ channel: 'sms', kind: 'message', to, body: 'Код 123456', organizationId: t.organizationId });
    expect(await lastTo(to)).toMatchObject({ channel: 'sms', status: 'queued', body: null });
    await until(async () => (await lastTo(to)).status === 'sent');
    const request = gateway.requests.find((r) => (r.body as { to?: string }).to === to)!;
    expect(request).toMatchObject({ method: 'POST', path: '/send', authorization: 'Bearer gateway-secret-token', body: { to, text: 'Код 123456' } });
    expect(request.contentType).toMatch(/^application\/json/);
  });

  it('an SMS the gateway refuses is retried, then failed with its status, never with the text', async () => {
    const to = '+380500000000';
    await t.app.delivery.send({ channel: 'sms', kind: 'message', to, body: 'Код 777888', organizationId: t.organizationId });
    await until(async () => (await lastTo(to)).status === 'failed', 20_000);
    const row = await lastTo(to);
    expect(row.error).toMatch(/^Не надіслано після 3 спроб: SMS-шлюз відповів кодом 503/);
    expect(row.error).not.toContain('777888');
    expect(gateway.requests.filter((r) => (r.body as { to?: string }).to === to)).toHaveLength(3);
  });
});
