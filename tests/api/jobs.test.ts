import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { outbox } from '../../server/db/schema.ts';
import { SEND_MAIL_JOB } from '../../server/lib/delivery.ts';
import { openJobQueue, type JobContext, type JobQueue } from '../../server/lib/jobs.ts';
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

/** A fresh empty database (no application schema: the queue brings its own). */
async function freshDatabase(): Promise<{ open: () => Promise<Database> }> {
  if (PG_URL) {
    const name = `zhk_t_jobs_${crypto.randomBytes(4).toString('hex')}`;
    await withAdminClient(PG_URL, (c) => c.query(`CREATE DATABASE "${name}"`));
    dropUrls.push(name);
    return { open: () => openDatabase({ kind: 'postgres', url: databaseUrl(PG_URL, name) }, { migrate: false }) };
  }
  // PGlite on disk, so that a "restart" really closes and reopens the database.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-jobs-'));
  dirs.push(dir);
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
    for (const [name, q] of [['a', a], ['b', b]] as const) {
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
    const [{ n }] = await queues[0].boss.getDb().executeSql(`select count(*)::int as n from pgboss.job where name = 'test.tick'`, []).then((r) => r.rows as { n: number }[]);
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

/** A minimal SMTP server: refuses the first `failFirst` messages with 451, and any recipient with "bounce". */
function fakeSmtp(failFirst: number) {
  const received: string[] = [];
  let failures = failFirst;
  const server = net.createServer((socket) => {
    let data = false;
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          received.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          data = false;
          socket.write('250 OK\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
        else if (verb === 'MAIL') {
          if (failures > 0) {
            failures -= 1;
            socket.write('451 Try again later\r\n');
          } else socket.write('250 OK\r\n');
        } else if (verb === 'RCPT') socket.write(/bounce/i.test(line) ? '550 No such user\r\n' : '250 OK\r\n');
        else if (verb === 'DATA') {
          data = true;
          socket.write('354 Go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 Bye\r\n');
          return;
        } else socket.write('250 OK\r\n');
      }
    });
    socket.on('error', () => {});
  });
  return { server, received };
}

describe('mail delivery through jobs', () => {
  let t: TestApp;
  let smtp: ReturnType<typeof fakeSmtp>;
  let admin: string;

  beforeAll(async () => {
    smtp = fakeSmtp(1);
    await new Promise<void>((r) => smtp.server.listen(0, '127.0.0.1', r));
    const { port } = smtp.server.address() as net.AddressInfo;
    t = await setupApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`, JOB_RETRIES: '2', JOB_RETRY_DELAY_SECONDS: '0', JOB_POLL_SECONDS: '0.5' } });
    admin = await t.login(ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => smtp?.server.close(r));
  });

  const lastTo = async (to: string) => (await t.db.select().from(outbox).where(eq(outbox.recipient, to)).orderBy(desc(outbox.id)).limit(1))[0];

  it('writes the outbox row in the request and sends in a job, retrying after a refusal', async () => {
    // The request answers with the row in place, before any runner has looked at it.
    const res = await t.call('POST', `${API}/forgot_password`, { body: { email: ADMIN.email } });
    expect(res.statusCode, res.body).toBe(200);
    const row = await lastTo(ADMIN.email);
    expect(row).toMatchObject({ channel: 'email', sentAt: null });
    expect(row.body).toContain('https://zhk.test/');
    expect(smtp.received).toEqual([]);

    await t.app.jobs.work();
    // The first try is refused (451), the retry goes through.
    await until(async () => (await lastTo(ADMIN.email)).sentAt !== null);
    const sent = await lastTo(ADMIN.email);
    expect(sent.error).toBeNull();
    expect(smtp.received.length).toBe(1);
    expect(smtp.received[0]).toContain(`To: ${ADMIN.email}`);
    expect(admin).toBeTruthy();
  });

  it('gives up after the retries and keeps the last error in the outbox', async () => {
    const to = `bounce-${crypto.randomBytes(3).toString('hex')}@test.ua`;
    await t.app.delivery.send({ channel: 'email', to, subject: 'Тест', body: 'Текст', organizationId: t.organizationId });
    await until(async () => /^Не надіслано після 3 спроб/.test((await lastTo(to)).error ?? ''), 20_000);
    const row = await lastTo(to);
    expect(row.sentAt).toBeNull();
    expect(row.error).toMatch(/550/);
    const failed = await t.app.jobs.boss.fetch(SEND_MAIL_JOB);
    expect(failed).toEqual([]);
  });

  it('SMS stays in the outbox without a job', async () => {
    await t.app.delivery.send({ channel: 'sms', to: '+380501234567', body: 'Код 123456', organizationId: t.organizationId });
    const row = await lastTo('+380501234567');
    expect(row).toMatchObject({ channel: 'sms', sentAt: null, error: null });
  });
});
