import { sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../../server/db/index.ts';
import type { TestApp } from '../api/helpers.ts';

/** Rows of a raw query, the same way on PGlite and on node-postgres. */
export function rows<T = Record<string, unknown>>(t: TestApp, query: SQL): Promise<T[]> {
  return queryRows<T>(t.db, query);
}

/**
 * Bookkeeping a refused request may legitimately write: failed sign-ins (throttling), wrong
 * one-time code attempts and single-use tickets. Everything else must stay as it was. Also left
 * out: the log of writes that tells lists to count again (`list_changes`, server/lib/keptTotals.ts),
 * which only mirrors writes to other tables (each of those shows in its own table) and which a
 * list read may compact.
 */
export const BOOKKEEPING_TABLES = new Set(['auth_attempts', 'verification_codes', 'voting_codes', 'live_tickets', 'list_changes']);

/** Large read-mostly reference tables: compared by row count, highest id and last change only. */
const LARGE_TABLES: Record<string, string> = {
  settlements: 'count(*)::text || max(id)::text',
  streets: "count(*)::text || ':' || max(id)::text || ':' || coalesce(max(updated_at)::text, '')",
};

let tableList: string[] | undefined;

async function tables(t: TestApp): Promise<string[]> {
  tableList ??= (
    await rows<{ name: string }>(
      t,
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )
  )
    .map((r) => r.name)
    .filter((name) => !BOOKKEEPING_TABLES.has(name));
  return tableList;
}

/**
 * A fingerprint of everything the API can change: per table the row count and an
 * order-independent md5 of its rows (large reference tables: count, max(id), max(updated_at)).
 */
export async function fingerprint(t: TestApp): Promise<Record<string, string>> {
  const parts = (await tables(t)).map((name) => {
    const id = sql.identifier(name);
    return LARGE_TABLES[name]
      ? sql`select ${name} as name, ${sql.raw(LARGE_TABLES[name])} as fp from ${id}`
      : sql`select ${name} as name, count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), '' order by md5(x::text))), '') as fp from ${id} x`;
  });
  const out: Record<string, string> = {};
  for (const r of await rows<{ name: string; fp: string }>(t, sql.join(parts, sql` union all `))) out[r.name] = r.fp;
  return out;
}

/** The tables whose fingerprint differs. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
}

/**
 * A cheaper fingerprint for many calls in a row: per table the row count and the sum of the
 * rows' `xmin` (every committed insert, update or delete changes one of them; a rolled-back
 * transaction changes neither).
 */
export async function quickFingerprint(t: TestApp): Promise<Record<string, string>> {
  const parts = (await tables(t)).map((name) => {
    const id = sql.identifier(name);
    return LARGE_TABLES[name]
      ? sql`select ${name} as name, ${sql.raw(LARGE_TABLES[name])} as fp from ${id}`
      : sql`select ${name} as name, count(*)::text || ':' || coalesce(sum(xmin::text::bigint), 0)::text as fp from ${id}`;
  });
  const out: Record<string, string> = {};
  for (const r of await rows<{ name: string; fp: string }>(t, sql.join(parts, sql` union all `))) out[r.name] = r.fp;
  return out;
}
