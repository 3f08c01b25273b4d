import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { queryPrepared, queryRows, type Db } from '../db/index.ts';
import { paginate, type ListTotal, type Pagination } from './pagination.ts';

/** Up to this many matching rows a list's total is exact; above it, the planner's estimate. */
export const EXACT_TOTAL_LIMIT = 10_000;

/**
 * The total of a list, fast at any size: a count that stops after EXACT_TOTAL_LIMIT + 1 matching
 * rows (`rows` is the list's query without order or limit, e.g. `db.select({ one: sql`1` })
 * .from(t).where(w)`); when it stops there, the planner's row estimate of the same query (from
 * the table statistics, no rows read), never less than the limit + 1.
 */
export async function listTotal(db: Db, rows: SQLWrapper): Promise<ListTotal> {
  const [capped] = await queryRows<{ n: number }>(db, sql`select ${cappedCount(rows)} as n`);
  return totalOf(db, rows, Number(capped.n));
}

/**
 * Row counts a list's LIMIT is written with in the statement's text: the page sizes the screens
 * offer, a few pages of them, and the capped count's. Any other count stays a parameter, so that
 * no request can make more than these few texts of one statement.
 */
const LIMITS_IN_TEXT = new Set([1, 5, 10, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500, EXACT_TOTAL_LIMIT + 1]);

/**
 * A LIMIT the planner can read (docs/architecture.md, "Plans kept with the statement"). A
 * parameter there makes PostgreSQL's generic plan of a prepared statement assume a tenth of the
 * rows, so it costs more than a plan for the values at hand and the statement is planned again
 * on every call (1–1.7 ms of a list's 2 ms at the large scale). Written in the text, the generic
 * plan costs the same and is kept after five calls. Takes the place of a number in Drizzle's
 * `.limit()` (which writes any SQL it is given as is) and in `sql` templates.
 */
export const plannedLimit = (rows: number): number =>
  Number.isSafeInteger(rows) && LIMITS_IN_TEXT.has(rows) ? fixedLimit(rows) : (sql`${rows}` as unknown as number);

const LIMITS_ASCENDING = [...LIMITS_IN_TEXT].sort((a, b) => a - b);

/**
 * `plannedLimit` of the smallest LIMIT written into the text that is at least `rows`: for a bound
 * that may read a few rows more than asked (a branch of a merge that is read only as far as it is
 * needed), so that its plan knows the bound whatever the page.
 */
export const plannedLimitAtLeast = (rows: number): number => plannedLimit(LIMITS_ASCENDING.find((limit) => limit >= rows) ?? rows);

/** A constant row count written into the text (`plannedLimit`'s way), e.g. a cap of the code's own, never a client's value. */
export const fixedLimit = (rows: number): number => {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`not a row count: ${rows}`);
  return sql.raw(String(rows)) as unknown as number;
};

/** A page's LIMIT (`plannedLimit`) and, past page 1, its OFFSET (a parameter), for statements written as SQL. */
export const pageWindow = (page: number, perPage: number): SQL => sql`limit ${plannedLimit(perPage)}${page > 1 ? sql` offset ${(page - 1) * perPage}` : sql``}`;

/** The capped count of `rows` as an expression, to be selected beside other things in one statement. */
export const cappedCount = (rows: SQLWrapper): SQL => sql`(select count(*)::int from (${rows} limit ${plannedLimit(EXACT_TOTAL_LIMIT + 1)}) as capped)`;

/** The total from a capped count of `rows`: exact up to the limit, the planner's estimate above it (one more statement). */
export async function totalOf(db: Db, rows: SQLWrapper, exact: number): Promise<ListTotal> {
  if (exact <= EXACT_TOTAL_LIMIT) return { total: exact, estimated: false };
  // Named like the list's own statement: parsed once per connection (the same lists ask again and again).
  const [plan] = await queryPrepared<{ 'QUERY PLAN': unknown }>(db, sql`explain (format json) ${rows}`);
  const json = plan['QUERY PLAN'];
  const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as [{ Plan: { 'Plan Rows': number } }];
  return { total: Math.max(EXACT_TOTAL_LIMIT + 1, Math.round(parsed[0].Plan['Plan Rows'])), estimated: true };
}

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
  const [total, rows] = await Promise.all([
    listTotal(
      opts.db,
      opts.db
        .select({ one: sql`1` })
        .from(opts.table)
        .where(opts.where),
    ),
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

/**
 * A plain substring test of an indexed search column's rows: half the cost per row of a LIKE
 * (200,000 rows: 76 against 154 ms), the same matches, but no trigram index serves it. For a
 * search among rows that are walked anyway (a complex's, some houses').
 */
export const contains = (column: PgColumn | SQL, text: string): SQL => sql`strpos(${column}, ${text}) > 0`;

export { ukrainianSortKey } from './sortKey.ts';
