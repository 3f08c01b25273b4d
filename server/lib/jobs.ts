import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/index.ts';

/**
 * Background jobs in the application's own database (pg-boss, in the `pgboss` schema it creates
 * and upgrades itself at start). A job is a row: any process may pick it up, each with
 * `SELECT … FOR UPDATE SKIP LOCKED`, so one job runs in one process at a time; it survives a
 * restart; a failed one is retried with backoff up to its retry limit, then marked failed with
 * its last error. Delivery is at least once (a process that dies mid-job leaves it to be
 * expired and retried), so handlers must be idempotent. Works the same on PGlite and PostgreSQL.
 */

export interface JobContext {
  id: string;
  /** 1 for the first run. */
  attempt: number;
  /** No retry follows when this run fails. */
  lastAttempt: boolean;
}

export type JobHandler<T> = (payload: T, job: JobContext) => Promise<void>;

export interface JobTypeOptions {
  /** Retries after the first failure (default: JOB_RETRIES). */
  retryLimit?: number;
  /** Seconds before the first retry; doubled for each further one (default: JOB_RETRY_DELAY_SECONDS). */
  retryDelaySeconds?: number;
  /** A run taking longer than this is considered lost and retried (default 5 minutes). */
  timeoutSeconds?: number;
  /**
   * Payload keys that hold secrets (a message's text): erased from the stored job as soon as it
   * is done (completed, or failed for good), and by the upkeep from any finished job that still
   * has them (one lost with its process, then expired).
   */
  secretKeys?: string[];
}

/** Runs SQL on one connection: the application's, or one transaction's. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface EnqueueOptions {
  /** Not before this moment (scheduled work). */
  runAt?: Date;
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** Store the job in this transaction (from `transaction`): it exists only if the transaction commits. */
  tx?: SqlExecutor;
}

export interface JobQueue {
  /** Registers the handler of a job type; jobs of unknown types wait until some process knows them. */
  define<T extends object>(type: string, handler: JobHandler<T>, options?: JobTypeOptions): void;
  /**
   * A job that runs once every `seconds` somewhere in the deployment. Each working process
   * offers it several times a period, but the queue keeps one job per period (pg-boss's time-slot
   * singleton), so however many processes there are it runs once a period, in one of them.
   */
  every(type: string, seconds: number, handler: JobHandler<Record<string, never>>, options?: JobTypeOptions): void;
  /** Stores a job; it runs in whichever process picks it up first. Returns its id. */
  enqueue<T extends object>(type: string, payload: T, options?: EnqueueOptions): Promise<string>;
  /** Stores many jobs of one type in one statement. */
  enqueueMany<T extends object>(type: string, payloads: T[], options?: { tx?: SqlExecutor }): Promise<void>;
  /**
   * Runs `fn` in one database transaction, so that rows it writes and the jobs it enqueues with
   * `{ tx }` are stored together or not at all. `types`: the job types it may enqueue.
   */
  transaction<T>(types: string[], fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Starts picking jobs up in this process (a poll per job type, plus upkeep). */
  work(): Promise<void>;
  /** Stops picking up, waits for running jobs (up to `timeoutMs`), and detaches from the database. */
  close(timeoutMs?: number): Promise<void>;
  readonly boss: PgBoss;
}

export interface JobQueueOptions {
  log: FastifyBaseLogger;
  /** Default retries of a failed job. */
  retries: number;
  /** Default seconds before the first retry (doubled for each further one). */
  retryDelaySeconds?: number;
  /** How often an idle process looks for jobs, in seconds (at least 0.5). */
  pollSeconds?: number;
  /** Jobs fetched at once per type. */
  batchSize?: number;
}

interface QueryResult {
  rows: Record<string, unknown>[];
}
interface SqlClient {
  query(text: string, values?: unknown[]): Promise<QueryResult | QueryResult[]>;
  /** PGlite: several statements without parameters. */
  exec?(text: string): Promise<QueryResult[]>;
  /** PGlite: a transaction on its one connection. */
  transaction?<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
  /** node-postgres pool: a connection of its own. */
  connect?(): Promise<SqlClient & { release(): void }>;
}

const lastRows = (result: QueryResult | QueryResult[]) => (Array.isArray(result) ? result[result.length - 1] : result)?.rows ?? [];

/** pg-boss runs its SQL through the application's own connection (the PGlite instance or the pool). */
function executor(client: SqlClient): SqlExecutor {
  return {
    async executeSql(text, values) {
      // Statements without parameters may be several (pg-boss's locked upkeep and migrations).
      const result = values?.length ? await client.query(text, values) : client.exec ? await client.exec(text) : await client.query(text);
      return { rows: lastRows(result) };
    },
  };
}

/** One transaction on the application's database, for PGlite and for a node-postgres pool. */
async function inTransaction<T>(client: SqlClient, fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  const on = (c: SqlClient): SqlExecutor => ({ executeSql: async (text, values) => ({ rows: lastRows(await c.query(text, values ?? [])) }) });
  if (client.transaction) return client.transaction((tx) => fn(on(tx)));
  const connection = await client.connect!();
  try {
    await connection.query('BEGIN');
    const result = await fn(on(connection));
    await connection.query('COMMIT');
    return result;
  } catch (err) {
    await connection.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    connection.release();
  }
}

export async function openJobQueue(database: Database, opts: JobQueueOptions): Promise<JobQueue> {
  const client = (database.db as unknown as { $client: SqlClient }).$client;
  const boss = new PgBoss({
    db: executor(client) as never,
    schema: 'pgboss',
    // Upkeep (expiring lost runs, archiving) runs from work(); a process that does not work stays passive.
    supervise: false,
    schedule: false,
    migrate: true,
    // Finished and failed jobs stay in pgboss.job for a week (for inspection), then move to the archive.
    archiveCompletedAfterSeconds: 7 * 24 * 3600,
  });
  boss.on('error', (err) => opts.log.error({ err }, 'job queue error'));
  await boss.start();

  const handlers = new Map<string, { handler: JobHandler<object>; options: JobTypeOptions }>();
  const created = new Map<string, Promise<void>>();
  const workerIds = new Map<string, string>();
  let upkeep: NodeJS.Timeout | undefined;
  /** Periodic job types and how often they run; offered from work(). */
  const periodic = new Map<string, number>();
  const offerTimers: NodeJS.Timeout[] = [];
  let closing = false;
  /** Job types enqueued in a transaction still open: their workers are woken after the commit. */
  const pendingWakes = new WeakMap<SqlExecutor, Set<string>>();

  /** This process takes a new job at once when it works on its type; others find it at their next poll. */
  const wake = (type: string, tx?: SqlExecutor) => {
    if (tx) {
      pendingWakes.get(tx)?.add(type);
      return;
    }
    const worker = workerIds.get(type);
    if (worker) boss.notifyWorker(worker);
  };

  const queueOptions = (type: string) => {
    const o = handlers.get(type)?.options ?? {};
    return {
      retryLimit: o.retryLimit ?? opts.retries,
      retryDelay: o.retryDelaySeconds ?? opts.retryDelaySeconds ?? 30,
      retryBackoff: true,
      expireInSeconds: o.timeoutSeconds ?? 300,
    };
  };
  const ensureQueue = (type: string) => {
    let p = created.get(type);
    if (!p) {
      p = (async () => {
        // Processes starting together may create the same queue at once; PostgreSQL then
        // refuses all but one (a deadlock or a duplicate), and the others find it made.
        for (let attempt = 1; ; attempt++) {
          if (await boss.getQueue(type)) return;
          try {
            await boss.createQueue(type, { name: type, ...queueOptions(type) });
            return;
          } catch (err) {
            if (attempt >= 5) throw err;
            await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
          }
        }
      })().catch((err) => {
        created.delete(type);
        throw err;
      });
      created.set(type, p);
    }
    return p;
  };

  /** Erases the secret keys of a job type from one job, or from every finished one (both tables). */
  const scrub = async (type: string, jobId?: string) => {
    const keys = handlers.get(type)?.options.secretKeys;
    if (!keys?.length) return;
    const run = executor(client);
    if (jobId) {
      await run.executeSql('UPDATE pgboss.job SET data = data - $2::text[] WHERE name = $1 AND id = $3', [type, keys, jobId]);
      return;
    }
    const finished = "state IN ('completed', 'failed', 'cancelled')";
    await run.executeSql(`UPDATE pgboss.job SET data = data - $2::text[] WHERE name = $1 AND ${finished} AND data ?| $2::text[]`, [type, keys]);
    await run.executeSql(`UPDATE pgboss.archive SET data = data - $2::text[] WHERE name = $1 AND data ?| $2::text[]`, [type, keys]);
  };
  const scrubFinished = async () => {
    for (const type of handlers.keys()) await scrub(type);
  };
  /** A failed erasure is retried by the upkeep; it must not fail (or repeat) the job itself. */
  const scrubJob = (type: string, jobId: string) =>
    scrub(type, jobId).catch((err: unknown) => opts.log.warn({ err, job: jobId, type }, 'could not erase the secret part of a finished job; the upkeep will'));

  const startWorker = async (type: string) => {
    const { handler } = handlers.get(type)!;
    await ensureQueue(type);
    const id = await boss.work<object>(
      type,
      { pollingIntervalSeconds: opts.pollSeconds ?? 2, batchSize: opts.batchSize ?? 10, includeMetadata: true },
      async (jobs) => {
        // One by one: a failure fails only its own job; the others of the batch complete.
        for (const job of jobs) {
          const context = { id: job.id, attempt: job.retryCount + 1, lastAttempt: job.retryCount >= job.retryLimit };
          try {
            await handler(job.data, context);
          } catch (err) {
            const message = err instanceof Error ? err.message : String(err);
            (context.lastAttempt ? opts.log.error : opts.log.warn).call(
              opts.log,
              { err, job: job.id, type, attempt: context.attempt },
              context.lastAttempt ? 'job failed' : 'job failed; will retry',
            );
            if (context.lastAttempt) await scrubJob(type, job.id);
            await boss.fail(type, job.id, { message: message.slice(0, 1000) });
            continue;
          }
          await scrubJob(type, job.id);
        }
      },
    );
    workerIds.set(type, id);
  };

  /** One job of a periodic type for the current period; a second offer in the same period stores nothing. */
  const offer = async (type: string, seconds: number) => {
    try {
      await ensureQueue(type);
      await boss.sendThrottled(type, {}, {}, seconds, type);
      wake(type);
    } catch (err) {
      if (!closing) opts.log.warn({ err, type }, 'periodic job not offered');
    }
  };
  const schedule = (type: string, seconds: number) => {
    void offer(type, seconds);
    const timer = setInterval(() => void offer(type, seconds), Math.max(1, seconds / 4) * 1000);
    timer.unref();
    offerTimers.push(timer);
  };

  return {
    boss,
    define(type, handler, options = {}) {
      handlers.set(type, { handler: handler as JobHandler<object>, options });
      if (workerIds.size && !closing) void startWorker(type);
    },
    every(type, seconds, handler, options = {}) {
      if (!(seconds >= 1)) throw new Error(`period of ${type} must be at least a second`);
      handlers.set(type, { handler: handler as JobHandler<object>, options });
      periodic.set(type, seconds);
      if (workerIds.size && !closing) void startWorker(type).then(() => schedule(type, seconds));
    },
    async enqueue(type, payload, options = {}) {
      if (options.tx && !created.has(type)) throw new Error(`job type ${type} was not named in transaction()`);
      if (!options.tx) await ensureQueue(type);
      const id = await boss.send(type, payload, {
        ...(options.tx ? { db: options.tx as PgBoss.Db } : {}),
        ...(options.runAt ? { startAfter: options.runAt } : {}),
        ...(options.retryLimit !== undefined ? { retryLimit: options.retryLimit } : {}),
        ...(options.retryDelaySeconds !== undefined ? { retryDelay: options.retryDelaySeconds } : {}),
      });
      if (!id) throw new Error(`job of type ${type} was not stored`);
      if (!options.runAt) wake(type, options.tx);
      return id;
    },
    async enqueueMany(type, payloads, options = {}) {
      if (!payloads.length) return;
      if (options.tx && !created.has(type)) throw new Error(`job type ${type} was not named in transaction()`);
      if (!options.tx) await ensureQueue(type);
      await boss.insert(
        payloads.map((data) => ({ name: type, data })),
        options.tx ? { db: options.tx as PgBoss.Db } : {},
      );
      wake(type, options.tx);
    },
    async transaction(types, fn) {
      // Queues first, outside: PGlite has one connection, held by the transaction.
      for (const type of types) await ensureQueue(type);
      const woken = new Set<string>();
      const result = await inTransaction(client, (tx) => {
        pendingWakes.set(tx, woken);
        return fn(tx);
      });
      for (const type of woken) wake(type);
      return result;
    },
    async work() {
      if (closing || workerIds.size) return;
      for (const type of handlers.keys()) await startWorker(type);
      for (const [type, seconds] of periodic) schedule(type, seconds);
      const maintain = () =>
        boss
          .maintain()
          .then(scrubFinished)
          .catch((err: unknown) => {
            if (!closing) opts.log.warn({ err }, 'job queue upkeep failed');
          });
      await scrubFinished().catch((err: unknown) => opts.log.warn({ err }, 'job queue upkeep failed'));
      upkeep = setInterval(maintain, 60_000);
      upkeep.unref();
    },
    async close(timeoutMs = 5000) {
      if (closing) return;
      closing = true;
      if (upkeep) clearInterval(upkeep);
      for (const timer of offerTimers) clearInterval(timer);
      await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
    },
  };
}
