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
}

export interface EnqueueOptions {
  /** Not before this moment (scheduled work). */
  runAt?: Date;
  retryLimit?: number;
  retryDelaySeconds?: number;
}

export interface JobQueue {
  /** Registers the handler of a job type; jobs of unknown types wait until some process knows them. */
  define<T extends object>(type: string, handler: JobHandler<T>, options?: JobTypeOptions): void;
  /** Stores a job; it runs in whichever process picks it up first. Returns its id. */
  enqueue<T extends object>(type: string, payload: T, options?: EnqueueOptions): Promise<string>;
  /** Stores many jobs of one type in one statement. */
  enqueueMany<T extends object>(type: string, payloads: T[]): Promise<void>;
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

type SqlClient = {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] } | { rows: unknown[] }[]>;
  exec?(text: string): Promise<{ rows: unknown[] }[]>;
};

/** pg-boss runs its SQL through the application's own connection (the PGlite instance or the pool). */
function executor(database: Database): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } {
  const client = (database.db as unknown as { $client: SqlClient }).$client;
  return {
    async executeSql(text, values) {
      // Statements without parameters may be several (pg-boss's locked upkeep and migrations).
      const result = values?.length ? await client.query(text, values) : client.exec ? await client.exec(text) : await client.query(text);
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      return { rows: last?.rows ?? [] };
    },
  };
}

export async function openJobQueue(database: Database, opts: JobQueueOptions): Promise<JobQueue> {
  const boss = new PgBoss({
    db: executor(database) as never,
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
  let closing = false;

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
        if (!(await boss.getQueue(type))) await boss.createQueue(type, { name: type, ...queueOptions(type) });
      })().catch((err) => {
        created.delete(type);
        throw err;
      });
      created.set(type, p);
    }
    return p;
  };

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
            (context.lastAttempt ? opts.log.error : opts.log.warn).call(opts.log, { err, job: job.id, type, attempt: context.attempt }, context.lastAttempt ? 'job failed' : 'job failed; will retry');
            await boss.fail(type, job.id, { message: message.slice(0, 1000) });
          }
        }
      },
    );
    workerIds.set(type, id);
  };

  return {
    boss,
    define(type, handler, options = {}) {
      handlers.set(type, { handler: handler as JobHandler<object>, options });
      if (workerIds.size && !closing) void startWorker(type);
    },
    async enqueue(type, payload, options = {}) {
      await ensureQueue(type);
      const id = await boss.send(type, payload, {
        ...(options.runAt ? { startAfter: options.runAt } : {}),
        ...(options.retryLimit !== undefined ? { retryLimit: options.retryLimit } : {}),
        ...(options.retryDelaySeconds !== undefined ? { retryDelay: options.retryDelaySeconds } : {}),
      });
      if (!id) throw new Error(`job of type ${type} was not stored`);
      // This process takes it at once when it works on this type; others find it at their next poll.
      const worker = workerIds.get(type);
      if (worker && !options.runAt) boss.notifyWorker(worker);
      return id;
    },
    async enqueueMany(type, payloads) {
      if (!payloads.length) return;
      await ensureQueue(type);
      await boss.insert(payloads.map((data) => ({ name: type, data })));
      const worker = workerIds.get(type);
      if (worker) boss.notifyWorker(worker);
    },
    async work() {
      if (closing || workerIds.size) return;
      for (const type of handlers.keys()) await startWorker(type);
      const maintain = () =>
        boss.maintain().catch((err: unknown) => {
          if (!closing) opts.log.warn({ err }, 'job queue upkeep failed');
        });
      upkeep = setInterval(maintain, 60_000);
      upkeep.unref();
    },
    async close(timeoutMs = 5000) {
      if (closing) return;
      closing = true;
      if (upkeep) clearInterval(upkeep);
      await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
    },
  };
}
