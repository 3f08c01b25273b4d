import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/index.ts';

/**
 * The embedded database (PGlite) runs PostgreSQL in one process without the autovacuum worker:
 * nothing would ever remove dead row versions or refresh the planner's statistics, so lists
 * would slow down as rows are changed and deleted, and plans would be made for the data of the
 * first day. This job does the worker's part (docs/operations.md, "The embedded database"):
 * every table past autovacuum's default thresholds gets `VACUUM (ANALYZE)`, one table per
 * statement, so that other calls go between them. PostgreSQL servers keep their own autovacuum.
 */
export const VACUUM_JOB = 'maintenance.vacuum';
/** How often the job looks (seconds). */
export const VACUUM_EVERY_SECONDS = 600;

/** autovacuum's defaults: vacuum past 50 + 20 % dead rows, analyze past 50 + 10 % changed rows. */
const DUE = sql`n_dead_tup > 50 + 0.2 * n_live_tup or n_mod_since_analyze > 50 + 0.1 * n_live_tup or (last_analyze is null and n_live_tup > 0)`;

/** Vacuums and analyzes the tables that need it; answers their names. */
export async function vacuumDue(db: Db): Promise<string[]> {
  // Row counters reach the statistics views some time after the writes; this takes them in now.
  await queryRows(db, sql`select pg_stat_force_next_flush()`);
  const due = await queryRows<{ name: string }>(
    db,
    sql`select relname as name from pg_stat_user_tables where schemaname = 'public' and (${DUE}) order by n_dead_tup + n_mod_since_analyze desc`,
  );
  for (const { name } of due) await db.execute(sql`vacuum (analyze) ${sql.identifier(name)}`);
  return due.map((t) => t.name);
}
