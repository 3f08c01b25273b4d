import { count, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/index.ts';
import { paginate, type Pagination } from './pagination.ts';

/**
 * Runs one page of a list query and its total, in the Laravel paginator's terms. The total
 * rides along as a window count, so a page costs one round trip; only a page past the end
 * needs a second query to learn the total.
 */
export async function listPage<T>(opts: {
  db: Db;
  table: PgTable;
  where: SQL | undefined;
  orderBy: (SQL | PgColumn)[];
  page: number;
  perPage: number;
  map: (row: Record<string, unknown>) => T;
}): Promise<{ data: T[]; pagination: Pagination }> {
  const rows = (await opts.db
    .select({ row: opts.table as never, total: sql<number>`count(*) over()`.mapWith(Number) })
    .from(opts.table)
    .where(opts.where)
    .orderBy(...opts.orderBy)
    .limit(opts.perPage)
    .offset((opts.page - 1) * opts.perPage)) as unknown as { row: Record<string, unknown>; total: number }[];
  let total = rows[0]?.total;
  if (total === undefined) {
    [{ total }] = await opts.db.select({ total: count() }).from(opts.table).where(opts.where);
  }
  return { data: rows.map((r) => opts.map(r.row)), pagination: paginate(total, opts.page, opts.perPage) };
}

/** Escapes LIKE wildcards so that a search for "50%" finds "50%" literally. */
export function likePattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const UK_ALPHABET = 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя';
// Each Ukrainian letter maps to a private-use character in alphabet order, so that a plain
// code-point comparison (the C collation, the same on PGlite and PostgreSQL) sorts as Ukrainian does.
const UK_ORDER = Array.from(UK_ALPHABET, (_, i) => String.fromCharCode(0xe000 + i)).join('');

/** Sort key for Ukrainian text: case-insensitive, Ґ after Г, Є after Е, І and Ї after И. */
export function ukrainianSortKey(column: PgColumn): SQL {
  return sql`translate(lower(${column}), ${UK_ALPHABET}, ${UK_ORDER})`;
}
