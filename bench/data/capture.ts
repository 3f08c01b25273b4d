/**
 * A PostgreSQL database for the app whose pool records the SQL it runs: the EXPLAIN test and the
 * API benchmark's "floor" server replay exactly what a route sent. Only the pool's own
 * `query` is wrapped (transactions check out a client and are not recorded).
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrationsFolder, poolWithPlanOnce, type Database, type Db } from '../../server/db/index.ts';
import * as schema from '../../server/db/schema.ts';

export interface CapturedQuery {
  text: string;
  values: unknown[];
  rowMode?: 'array';
  /**
   * How many of the recorded queries had finished when this one started: queries with the same
   * wave ran concurrently (e.g. a list's page and its count).
   */
  wave: number;
  /** Run on the plan-once pool: its plan is the generic one (`renderStatement`'s `planOnce` in server/db/index.ts). */
  planOnce?: boolean;
}

export interface CapturingDatabase extends Database {
  pool: pg.Pool;
  /** Runs `fn` and answers the queries sent through the pool meanwhile. */
  capture<T>(fn: () => Promise<T>): Promise<{ result: T; queries: CapturedQuery[] }>;
}

export async function openCapturingDatabase(url: string, options: { migrate?: boolean; max?: number } = {}): Promise<CapturingDatabase> {
  const [pool, planOncePool] = poolWithPlanOnce({ connectionString: url, max: options.max ?? 10 });
  let recording: CapturedQuery[] | null = null;
  let finished = 0;
  const record = (target: pg.Pool, planOnce: boolean) => {
    const original = target.query.bind(target) as (...args: unknown[]) => Promise<unknown>;
    (target as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
    const log = recording;
    if (log) {
      const [config, values] = args as [string | { text: string; rowMode?: 'array'; values?: unknown[] }, unknown[] | undefined];
      const text = typeof config === 'string' ? config : config.text;
      const rowMode = typeof config === 'string' ? undefined : config.rowMode;
      log.push({
        text,
        values: values ?? (typeof config === 'string' ? [] : (config.values ?? [])),
        rowMode,
        wave: finished,
        ...(planOnce ? { planOnce } : {}),
      });
      const done = () => {
        if (recording === log) finished += 1;
      };
      const pending = original(...args);
      return pending.then(
        (r) => (done(), r),
        (err: unknown) => {
          done();
          throw err;
        },
      );
    }
    return original(...args);
    };
  };
  record(pool, false);
  record(planOncePool, true);
  const db = drizzle(pool, { schema }) as unknown as Db;
  if (options.migrate ?? true) await migrate(db as never, { migrationsFolder });
  return {
    db,
    driver: 'postgres',
    url,
    pool,
    close: async () => void (await Promise.all([pool.end(), planOncePool.end()])),
    async capture(fn) {
      const queries: CapturedQuery[] = [];
      recording = queries;
      finished = 0;
      try {
        const result = await fn();
        return { result, queries };
      } finally {
        recording = null;
      }
    },
  };
}

/** Inlines a query's parameters ($1…) as literals, for EXPLAIN and for reading. */
export function inlineParams(text: string, values: unknown[]): string {
  const literal = (v: unknown): string => {
    if (v === null || v === undefined) return 'NULL';
    if (typeof v === 'number' || typeof v === 'bigint') return String(v);
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (v instanceof Date) return `'${v.toISOString()}'`;
    if (Array.isArray(v)) return `'{${v.map((x) => (x === null ? 'NULL' : `"${String(x).replace(/["\\]/g, (c) => `\\${c}`)}"`)).join(',')}}'`;
    if (typeof v === 'object') return `'${JSON.stringify(v).replace(/'/g, "''")}'`;
    return `'${String(v).replace(/'/g, "''")}'`;
  };
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(values[Number(n) - 1]));
}
