import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { houses, settlements, streets } from '../db/schema.ts';

/**
 * Pieces for records built in SQL (a list's `recordsJson`, docs/architecture.md "Lists in one
 * statement"): the database writes the page's JSON, and the answer is sent as it wrote it.
 */

/** A timestamp as `Date.toISOString()` writes it (UTC, milliseconds, «Z»); null stays null. */
export const isoSql = (column: PgColumn | SQL): SQL => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The relation of a list's page in `recordsJson`: the page's ids (`id`) and their places (`ord`). */
export const LIST_PAGE = sql.raw('list_page');

/** The records of the page as a JSON array in the page's order (`record`: a json_build_object over `from`). */
export const pageArray = (record: SQL, from: SQL): SQL =>
  sql`(select coalesce(json_agg(${record} order by ${LIST_PAGE}.ord), '[]'::json) from ${LIST_PAGE} ${from})`;

/** The joins that give a row's house with its address parts (`addressSql` of houses/address.ts reads them). */
export const houseJoins = (houseId: PgColumn | SQL): SQL =>
  sql`join ${houses} on ${houses.id} = ${houseId}
    join ${settlements} on ${settlements.id} = ${houses.settlementId}
    join ${streets} on ${streets.id} = ${houses.streetId}`;

/**
 * `column = any($1::int[])` with the values as one parameter. `IN (…)` or `array[…]` of one
 * parameter each builds the array again for every row tested; one array parameter is built once.
 */
export const anyOf = (column: PgColumn | SQL, values: readonly number[]): SQL =>
  values.length === 0 ? sql`false` : sql`${column} = any(${sql.param(values)}::int[])`;

/** A list of values as an SQL array (`any(…)`): a JS array put in `sql` would be a row, not an array. */
export const sqlArray = (values: readonly (string | number)[], type: 'text' | 'int'): SQL =>
  values.length === 0
    ? sql.raw(`'{}'::${type}[]`)
    : sql`array[${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}]::${sql.raw(type)}[]`;
