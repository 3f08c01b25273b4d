import { count, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/index.ts';
import { paginate, type Pagination } from './pagination.ts';

/**
 * Runs one page of a list query and its total, in the Laravel paginator's terms. The count and
 * the page are separate queries on purpose: a window count would make the database sort every
 * matching row for each page, while an ordered LIMIT can stop early on an index.
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
  const [[{ total }], rows] = await Promise.all([
    opts.db.select({ total: count() }).from(opts.table).where(opts.where),
    opts.db
      .select()
      .from(opts.table)
      .where(opts.where)
      .orderBy(...opts.orderBy)
      .limit(opts.perPage)
      .offset((opts.page - 1) * opts.perPage),
  ]);
  return { data: rows.map((r) => opts.map(r as Record<string, unknown>)), pagination: paginate(total, opts.page, opts.perPage) };
}

/** Escapes LIKE wildcards so that a search for "50%" finds "50%" literally. */
export function likePattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export { ukrainianSortKey } from './sortKey.ts';
