import { getTableColumns, is, sql, type Column, type SQL } from 'drizzle-orm';
import { PgTable, type PgColumn } from 'drizzle-orm/pg-core';

/** What a selection names: a column, or a whole table (its row nested under the key). */
type Selection = Record<string, PgColumn | PgTable>;

type ValueOf<C> = C extends Column ? (C['_']['notNull'] extends true ? C['_']['data'] : C['_']['data'] | null) : never;

/** A row of a selection, as `db.select(selection)` gives it. */
export type RowOf<S extends Selection> = { [K in keyof S]: S[K] extends PgTable ? S[K]['$inferSelect'] : ValueOf<S[K]> };

/** Rows of several tables read in one statement as JSON arrays, each turned back into the rows Drizzle would give. */
export interface JsonRows<T> {
  /** The rows as one JSON array (`[]` when there are none), to select beside others. */
  sql: SQL;
  /** The array as the driver gives it (parsed, or its text) → rows with each column's own type. */
  read(value: unknown): T[];
}

const columnsOf = (table: PgTable) => getTableColumns(table) as Record<string, PgColumn>;

/** A column as JSON keeps its value: numeric as text (its exact digits), everything else as is. */
const jsonValue = (c: PgColumn): SQL => (c.getSQLType().startsWith('numeric') ? sql`${c}::text` : sql`${c}`);

const objectOf = (columns: Record<string, PgColumn>): SQL =>
  sql`json_build_object(${sql.join(
    Object.entries(columns).map(([key, c]) => sql`${sql.raw(`'${key}'`)}, ${jsonValue(c)}`),
    sql`, `,
  )})`;

/** A column's JSON value as the driver would give it (null stays null). */
const readValue = (c: PgColumn, v: unknown) => (v === null || v === undefined ? null : c.mapFromDriverValue(v));

const readObject = (columns: Record<string, PgColumn>, o: Record<string, unknown>) => {
  const row: Record<string, unknown> = {};
  for (const key in columns) row[key] = readValue(columns[key], o[key]);
  return row;
};

/**
 * `select <selection> <from> order by <order>` as one JSON value, so that a statement can read the
 * rows of several tables at once (a meeting and everything it counts), and `read` turns the value
 * back into typed rows: dates as `Date`, numeric as its text, as the driver would give them.
 */
export function jsonRows<S extends Selection>(selection: S, from: SQL, order: SQL[] = []): JsonRows<RowOf<S>> {
  const parts = Object.entries(selection).map(([key, v]) => ({ key, table: is(v, PgTable) ? columnsOf(v) : undefined, column: v as PgColumn }));
  const fields = sql.join(
    parts.map((p) => sql`${sql.raw(`'${p.key}'`)}, ${p.table ? objectOf(p.table) : jsonValue(p.column)}`),
    sql`, `,
  );
  const orderBy = order.length ? sql` order by ${sql.join(order, sql`, `)}` : sql``;
  return {
    sql: sql`(select coalesce(json_agg(json_build_object(${fields})${orderBy}), '[]') ${from})`,
    read(value) {
      const list = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>[];
      return list.map((o) => {
        const row: Record<string, unknown> = {};
        for (const p of parts) {
          const v = o[p.key];
          row[p.key] = p.table ? readObject(p.table, v as Record<string, unknown>) : readValue(p.column, v);
        }
        return row as RowOf<S>;
      });
    },
  };
}
