import { Column, getTableName, is, isSQLWrapper, Name, Param, SQL, sql, StringChunk, Subquery, Table, View, type SQLWrapper } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../db/schema.ts';

/**
 * What a piece of SQL reads, named by the objects it is built of (docs/architecture.md, "Kept
 * totals"): the tables its query builders, tables, columns and subqueries stand for, and whether
 * it uses the clock. No text is parsed: a list's kept total follows exactly these tables.
 */

/**
 * The clock in SQL. A condition whose answer changes with time (an overdue request, a news item
 * not yet published) writes `${NOW}`, never `now()` in its text: what reads the condition then
 * knows its answer may change without a write (a count with it is never kept).
 */
export const NOW: SQL = sql`now()`;

export interface SqlReads {
  /** The schema tables read, by name, sorted. */
  tables: string[];
  /** Whether it uses the clock (`NOW`). */
  clock: boolean;
  /** The raw text written into it (template strings, `sql.raw`): tests check that it names no table and no clock. */
  raw: string[];
}

/** The name under which drizzle keeps a table's own name: an alias (`alias(users, 'performer')`) answers its alias to `getTableName`. */
const BASE_NAME = (Table as unknown as { Symbol: { BaseName: symbol } }).Symbol.BaseName;

/** The names of the tables of the schema. */
export const SCHEMA_TABLES: ReadonlySet<string> = new Set(
  (Object.values(schema) as unknown[]).flatMap((value) => (is(value, PgTable) ? [getTableName(value)] : [])),
);

/** What `parts` read (see `SqlReads`). */
export function readsOf(...parts: (SQLWrapper | undefined)[]): SqlReads {
  const tables = new Set<string>();
  const raw: string[] = [];
  let clock = false;
  const seen = new Set<unknown>();
  const walk = (chunk: unknown): void => {
    if (chunk === undefined || chunk === null || typeof chunk !== 'object' || seen.has(chunk)) return;
    seen.add(chunk);
    if (chunk === NOW) clock = true;
    else if (Array.isArray(chunk)) chunk.forEach(walk);
    else if (is(chunk, StringChunk)) raw.push(chunk.value.join(''));
    else if (is(chunk, Name)) {
      // An identifier written from a name (the alias of a merge): a table's name counts as that table.
      if (SCHEMA_TABLES.has(chunk.value)) tables.add(chunk.value);
    } else if (is(chunk, Param)) walk(chunk.value);
    else if (is(chunk, SQL)) chunk.queryChunks.forEach(walk);
    else if (is(chunk, SQL.Aliased)) walk(chunk.sql);
    else if (is(chunk, Table)) tables.add((chunk as unknown as Record<symbol, string>)[BASE_NAME]);
    else if (is(chunk, Column)) walk(chunk.table);
    else if (is(chunk, Subquery)) walk(chunk._.sql);
    else if (is(chunk, View)) throw new Error('readsOf: a view names no tables; read its tables instead');
    // A query builder (a select), which renders itself.
    else if (isSQLWrapper(chunk)) walk(chunk.getSQL());
  };
  parts.forEach(walk);
  return { tables: [...tables].sort(), clock, raw };
}
