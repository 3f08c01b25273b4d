import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Extensions the migrations use (PostgreSQL ships them in contrib). */
export const pgliteExtensions = { pg_trgm };

/** One type for both drivers: the code above this layer never knows which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Rows of a raw SQL query, the same way on PGlite and on node-postgres. */
export async function queryRows<T = Record<string, unknown>>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Renders SQL for a statement sent by hand (`queryPrepared`). */
const dialect = new PgDialect();
/**
 * Statement texts named so far, per pool (a process serves one database; a test worker opens
 * many, each with its own budget): one prepared statement per text and connection.
 */
const namedByPool = new WeakMap<pg.Pool, Map<string, string>>();
/**
 * At most this many texts are named: the server keeps each one's plan per connection, and texts
 * differ by query shape and by the records' SQL of each organization and set of complexes.
 * Beyond it, statements are sent unnamed (parsed and planned every time), as `queryRows` sends them.
 */
export const NAMED_STATEMENTS_MAX = 200;

/**
 * Rows of a statement run often with other values (a hot list's page): on PostgreSQL a named
 * prepared statement, parsed and planned once per connection (the planner's generic plan after
 * five runs when it costs no more than a custom one); on PGlite, as `queryRows`.
 */
export async function queryPrepared<T = Record<string, unknown>>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  if (!(clientOf(db) instanceof pg.Pool)) return queryRows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  return runText<T>(db, text, params);
}

const clientOf = (db: Pick<Db, 'execute'>) => (db as unknown as { $client?: unknown }).$client;

/** Dates and times stay the text the server sent, as Drizzle reads them on PGlite (its columns parse them). */
const PGLITE_RAW = {
  rowMode: 'object' as const,
  parsers: Object.fromEntries([types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((t) => [t, (v: string) => v])),
};

/**
 * Beside each PostgreSQL pool, one whose connections keep a named statement's first plan for all
 * values (`plan_cache_mode = force_generic_plan`): for the statements rendered with `planOnce`
 * (docs/architecture.md, "Plans kept with the statement").
 */
const planOncePools = new WeakMap<pg.Pool, pg.Pool>();

/** A pool to run `pool`'s plan-once statements on (its connections set `plan_cache_mode = force_generic_plan`). */
const setPlanOncePool = (pool: pg.Pool, planOnce: pg.Pool): void => void planOncePools.set(pool, planOnce);

/**
 * The connection options of a plan-once pool (`setPlanOncePool`). Without parallel workers: a
 * kept plan is made for average values, and a parallel one chosen for them would start workers
 * on every call (4–5 ms each, for rows a single process reads in less). Without JIT: average
 * values can cost a plan above `jit_above_cost`, and compiling it took 70 ms on every call of a
 * phone search that reads one row (docs/benchmarks.md, "Phone numbers by their digit runs").
 */
const PLAN_ONCE_OPTIONS = '-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0 -c jit=off';

/**
 * A PostgreSQL pool and, beside it, its plan-once pool (`setPlanOncePool`), both with `config`.
 * A pool error (e.g. the server restarted) must not crash the process: queries report it.
 */
export function poolWithPlanOnce(config: pg.PoolConfig): [pool: pg.Pool, planOnce: pg.Pool] {
  const [pool, planOnce] = [{}, { options: PLAN_ONCE_OPTIONS }].map((extra) => {
    const p = new pg.Pool({ ...config, ...extra });
    p.on('error', () => {});
    return p;
  });
  setPlanOncePool(pool, planOnce);
  return [pool, planOnce];
}

/** Runs a rendered statement: named on PostgreSQL (while `NAMED_STATEMENTS_MAX` allows), as is on PGlite. */
async function runText<T>(db: Pick<Db, 'execute'>, text: string, params: unknown[], planOnce = false): Promise<T[]> {
  const client = clientOf(db);
  if (client instanceof pg.Pool) {
    let named = namedByPool.get(client);
    if (!named) namedByPool.set(client, (named = new Map()));
    let name = named.get(text);
    if (!name && named.size < NAMED_STATEMENTS_MAX) named.set(text, (name = `q${named.size}_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`));
    const pool = (name && planOnce && planOncePools.get(client)) || client;
    return (await pool.query({ name, text, values: params })).rows as T[];
  }
  return (await (client as PGlite).query<T>(text, params, PGLITE_RAW)).rows;
}

/**
 * A statement of a fixed shape whose text is rendered once per process: built with
 * `sql.placeholder(name)` where each call's values go, and run with them. A hot route that sends
 * the same statement every time pays neither for building the query nor for rendering it.
 */
export function fixedStatement<V extends Record<string, unknown>>(build: () => SQL) {
  let rendered: RenderedStatement | undefined;
  return <T = Record<string, unknown>>(db: Pick<Db, 'execute'>, values: V): Promise<T[]> => runRendered<T>(db, (rendered ??= renderStatement(build())), values);
}

/** A statement's text and parameters, `sql.placeholder(name)` left where each run's values go. */
export interface RenderedStatement {
  sql: string;
  params: unknown[];
  /** Planned once per connection for all values (`renderStatement`'s `planOnce`). */
  planOnce?: boolean;
}

/**
 * Renders a statement once, to be run many times with `runRendered`. `planOnce`: on PostgreSQL
 * the statement's first plan serves every later run on the connection, whatever its values
 * (docs/architecture.md, "Plans kept with the statement") — for a statement whose values do not
 * change which plan is best (no search pattern, no offset), where planning again on each call
 * would cost more than running it.
 */
export const renderStatement = (query: SQL, options: { planOnce?: boolean } = {}): RenderedStatement => ({
  ...dialect.sqlToQuery(query),
  ...(options.planOnce ? { planOnce: true } : {}),
});

/** Rows of a rendered statement, its placeholders filled with `values` (named on PostgreSQL, as `queryPrepared`). */
export function runRendered<T = Record<string, unknown>>(db: Pick<Db, 'execute'>, rendered: RenderedStatement, values: Record<string, unknown>): Promise<T[]> {
  return runText<T>(db, rendered.sql, fillPlaceholders(rendered.params, values), rendered.planOnce);
}

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** The PostgreSQL connection string (postgres driver only): the live updates listen on it. */
  url?: string;
  close(): Promise<void>;
}

/** Key of the advisory lock held while a process migrates and seeds (any constant bigint). */
const STARTUP_LOCK_KEY = 4_820_260_011;

export type DatabaseSource = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

/**
 * Connecting to PostgreSQL gives up after this long, so that while the server is unreachable
 * requests fail fast (503) instead of hanging. It bounds connecting only, not waiting for a free
 * pooled connection under load.
 */
export const PG_CONNECT_TIMEOUT_MS = 2000;

class FastFailClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super({ ...(typeof config === 'string' ? { connectionString: config } : config), connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS, keepAlive: true });
  }
}

/** Opens PGlite (a folder on disk, or memory) or a PostgreSQL pool, and applies migrations. */
export async function openDatabase(source: DatabaseSource, options: { migrate?: boolean } = {}): Promise<Database> {
  const runMigrations = options.migrate ?? true;
  if (source.kind === 'postgres') {
    const pools = poolWithPlanOnce({ connectionString: source.url, max: 10, Client: FastFailClient as unknown as new () => pg.ClientBase });
    const [pool] = pools;
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const database: Database = { db, driver: 'postgres', url: source.url, close: async () => void (await Promise.all(pools.map((p) => p.end()))) };
    if (runMigrations) await withStartupLock(database, () => migrateDatabase(database));
    return database;
  }
  if (source.dataDir) fs.mkdirSync(source.dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir: source.dataDir, loadDataDir: source.loadDataDir, extensions: pgliteExtensions });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const database: Database = { db, driver: 'pglite', close: () => client.close() };
  if (runMigrations) await migrateDatabase(database);
  return database;
}

/** Applies the migrations that have not run yet. */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.driver === 'postgres') await migratePg(database.db as never, { migrationsFolder });
  else await migratePglite(database.db as never, { migrationsFolder });
}

/**
 * Runs `fn` while no other process starting on the same database does (a PostgreSQL advisory
 * lock on a connection of its own; PGlite serves one process anyway), so that migrations, the
 * address reference and the seed of an empty database run once when several processes start.
 */
export async function withStartupLock<T>(database: Database, fn: () => Promise<T>): Promise<T> {
  if (database.driver !== 'postgres' || !database.url) return fn();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    return await fn();
  } finally {
    // Ending the session releases the lock, also when fn failed.
    await client.end().catch(() => {});
  }
}
