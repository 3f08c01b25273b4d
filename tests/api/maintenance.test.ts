/**
 * The embedded database has no autovacuum worker; the vacuum job does its part
 * (server/lib/maintenance.ts): a table past autovacuum's thresholds of dead or changed rows is
 * vacuumed and analyzed, and one that is not is left alone. On PGlite only (a PostgreSQL server
 * runs its own autovacuum, which may get there first).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/index.ts';
import { vacuumDue } from '../../server/lib/maintenance.ts';
import { setupApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await setupApp();
});
afterAll(() => t?.close());

const stats = async (table: string) =>
  (
    await queryRows<{ dead: number; analyzed: string | null }>(
      t.db,
      sql`select n_dead_tup::int as dead, last_analyze::text as analyzed from pg_stat_user_tables where relname = ${table}`,
    )
  )[0];

describe('the vacuum job of the embedded database', () => {
  it('vacuums and analyzes a table with many dead rows, and then has nothing to do', async ({ skip }) => {
    if (t.driver !== 'pglite') skip();
    await vacuumDue(t.db);
    await t.db.execute(sql`create table maintenance_probe (id serial primary key, v int)`);
    await t.db.execute(sql`insert into maintenance_probe (v) select g from generate_series(1, 2000) g`);
    await t.db.execute(sql`delete from maintenance_probe where id <= 1500`);
    expect(await vacuumDue(t.db)).toContain('maintenance_probe');
    const after = await stats('maintenance_probe');
    expect(after.dead).toBe(0);
    expect(after.analyzed).not.toBeNull();
    expect(await vacuumDue(t.db)).not.toContain('maintenance_probe');
  });
});
