import { Column, getTableName, is, isSQLWrapper, Name, Param, Placeholder, SQL, sql, StringChunk, Subquery, Table, View, type SQLWrapper } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../db/schema.ts';

/**
 * What a piece of SQL reads, named by the objects it is built of (docs/architecture.md, "Kept
 * totals"): the tables its query builders, tables, columns and subqueries stand for, and whether
 * it uses the clock. The tables are never found in the text; text that names a table or a clock
 * function only marks the SQL as one whose reads are not known (`opaque`).
 */

/**
 * The clock in SQL. A condition whose answer changes with time (an overdue request, a news item
 * not yet published) writes `${NOW}`, never `now()` in its text: what reads the condition then
 * knows its answer may change without a write (a count with it is never kept). Frozen, so that
 * no use can change it for the others.
 */
export const NOW: SQL = sql`now()`;
Object.freeze(NOW.queryChunks);
Object.freeze(NOW);

export interface SqlReads {
  /** The schema tables read, by name, sorted. */
  tables: string[];
  /** Whether it uses the clock (`NOW`). */
  clock: boolean;
  /**
   * Why its reads are not all known, or undefined: raw text (template strings, `sql.raw`) that
   * names a table or a clock function, a view, a placeholder or an object the walk does not know.
   * A count so is never kept; tests/api/plan-reads.test.ts fails on any list's.
   */
  opaque?: string;
}

/** The name under which drizzle keeps a table's own name: an alias (`alias(users, 'performer')`) answers its alias to `getTableName`. */
const BASE_NAME = (Table as unknown as { Symbol: { BaseName: symbol } }).Symbol.BaseName;

/** The names of the tables of the schema. */
export const SCHEMA_TABLES: ReadonlySet<string> = new Set(
  (Object.values(schema) as unknown[]).flatMap((value) => (is(value, PgTable) ? [getTableName(value)] : [])),
);

/** Words of raw SQL whose answer changes with time: the clock functions, the date words `'today'`…, `age(x)` (from today) and `random()`. */
const CLOCK_WORDS = new Set([
  'now',
  'current_date',
  'current_time',
  'current_timestamp',
  'localtime',
  'localtimestamp',
  'clock_timestamp',
  'statement_timestamp',
  'transaction_timestamp',
  'timeofday',
  'today',
  'tomorrow',
  'yesterday',
  'age',
  'random',
]);
const WORD = /[a-z_][a-z0-9_]*/gi;

/** What raw text says of its reads: undefined, or why they are not known. */
function rawOpaque(text: string): string | undefined {
  for (const [word] of text.matchAll(WORD)) {
    const lower = word.toLowerCase();
    if (SCHEMA_TABLES.has(lower)) return `the text names the table ${lower}`;
    if (CLOCK_WORDS.has(lower)) return `the text uses the clock (${lower})`;
  }
  return undefined;
}

/** What `parts` read (see `SqlReads`). */
export function readsOf(...parts: (SQLWrapper | undefined)[]): SqlReads {
  const tables = new Set<string>();
  let clock = false;
  let opaque: string | undefined;
  const seen = new Set<unknown>();
  const walk = (chunk: unknown): void => {
    if (chunk === undefined || chunk === null || typeof chunk !== 'object' || seen.has(chunk)) return;
    seen.add(chunk);
    if (chunk === NOW) clock = true;
    else if (Array.isArray(chunk)) chunk.forEach(walk);
    else if (is(chunk, StringChunk)) opaque ??= rawOpaque(chunk.value.join(''));
    else if (is(chunk, Name)) {
      // An identifier written from a name (the alias of a merge): a table's name counts as that table.
      if (SCHEMA_TABLES.has(chunk.value)) tables.add(chunk.value);
    } else if (is(chunk, Placeholder)) opaque ??= `a placeholder (${chunk.name}) whose value is not in the key`;
    else if (is(chunk, Param)) walk(chunk.value);
    else if (is(chunk, SQL)) chunk.queryChunks.forEach(walk);
    else if (is(chunk, SQL.Aliased)) walk(chunk.sql);
    else if (is(chunk, Table)) tables.add((chunk as unknown as Record<symbol, string>)[BASE_NAME]);
    else if (is(chunk, Column)) walk(chunk.table);
    else if (is(chunk, Subquery)) walk(chunk._.sql);
    else if (is(chunk, View)) opaque ??= 'a view, whose tables it does not name';
    // A query builder (a select), which renders itself.
    else if (isSQLWrapper(chunk)) walk(chunk.getSQL());
    // A parameter's value (a date, a list's items) reads nothing.
    else if (!(chunk instanceof Date) && !ArrayBuffer.isView(chunk)) opaque ??= `an object the walk does not know (${chunk.constructor?.name})`;
  };
  parts.forEach(walk);
  return { tables: [...tables].sort(), clock, ...(opaque ? { opaque } : {}) };
}
