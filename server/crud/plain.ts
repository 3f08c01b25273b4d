import { getTableName, is, sql, type SQL } from 'drizzle-orm';
import { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ZodObject } from 'zod';
import type { EntityDeclaration } from '../../contract/entity.ts';
import type { Db } from '../db/index.ts';
import * as schema from '../db/schema.ts';
import { houses } from '../db/schema.ts';
import { houseJoins, isoSql, LIST_PAGE, pageArray } from '../lib/jsonSql.ts';
import { crudRoutes } from './routes.ts';
import type { CrudContext, CrudTable } from './types.ts';

/** `stream_url` → `streamUrl`: a record field's column, as every table of the schema names them. */
const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

const TABLES = new Map((Object.values(schema) as unknown[]).flatMap((v) => (is(v, PgTable) ? [[getTableName(v), v] as const] : [])));

/** The Drizzle table of a declaration: `table`, or its name with `_` for `-`. */
export function declaredTable(e: EntityDeclaration): CrudTable {
  const name = e.table ?? e.name.replaceAll('-', '_');
  const table = TABLES.get(name);
  if (!table) throw new Error(`The entity «${e.name}» names the table «${name}», which the schema does not have.`);
  return table as CrudTable;
}

/**
 * A house's address as plain records carry it, given by the houses module (a record of a house
 * shows its address; the generic tier does not know how addresses are written).
 */
export interface HouseAddresses {
  /** The address in SQL, over the house joins (`houseJoins`). */
  sql: SQL;
  /** The addresses and complexes of these houses. */
  load(db: Db, ids: number[]): Promise<Map<number, { address: string; complexId: number | null }>>;
}

/**
 * The CRUD plugin of an entity that needs nothing beyond its declaration: record fields are the
 * table's columns by name (`stream_url` ↔ `streamUrl`), and a house's records also carry the
 * house's `address` and `complex_id` when the record schema has them (docs/adding-an-entity.md).
 */
export function plainCrudRoutes(e: EntityDeclaration, table: CrudTable, addresses: HouseAddresses): FastifyPluginAsyncZod {
  const column = (key: string) => {
    const c = (table as unknown as Record<string, unknown>)[camel(key)];
    return is(c, PgColumn) ? c : undefined;
  };
  const recordKeys = Object.keys((e.record as unknown as ZodObject).shape ?? {});
  const columns = Object.fromEntries([...Object.keys(e.fields), ...e.filters.map((f) => f.source)].flatMap((k) => (column(k) ? [[k, column(k)!]] : [])));
  const houseColumn = column('house_id');
  const inputKeys = Object.keys((e.input as unknown as ZodObject).shape ?? e.fields).filter((k) => column(k));
  type Row = Record<string, unknown>;
  /** Each record field and where it comes from, worked out once: its column's key, or the house's address or complex. */
  const fromRow = recordKeys.map((k) => [k, (k === 'address' || k === 'complex_id') && !column(k) ? `house.${k}` : camel(k)] as const);
  const withHouse = fromRow.some(([, key]) => key.startsWith('house.'));

  async function housesOf({ db }: CrudContext, rows: Row[]) {
    if (!houseColumn || !withHouse) return new Map<number, { address: string; complexId: number | null }>();
    return addresses.load(db, [...new Set(rows.map((r) => r.houseId as number))]);
  }

  /** The same records in SQL (docs/architecture.md, "Lists in one statement"): each record field from its column, the house's from the house. */
  const recordSql = sql.join(
    fromRow.flatMap(([k, key]) => {
      if (!/^[a-z][a-z0-9_]*$/.test(k)) throw new Error(`${e.name}: the record field «${k}» is not a plain name`);
      const name = sql.raw(`'${k}'`);
      if (key === 'house.address') return [sql`${name}, ${addresses.sql}`];
      if (key === 'house.complex_id') return [sql`${name}, ${houses.complexId}`];
      const c = column(k);
      if (!c) return [];
      if (c.columnType === 'PgTimestamp') return [sql`${name}, ${isoSql(c)}`];
      // Values the driver hands over as text (numeric, date) stay text, as `toRecords` answers them.
      if (c.columnType === 'PgNumeric' || c.columnType.startsWith('PgDate')) return [sql`${name}, ${c}::text`];
      return [sql`${name}, ${c}`];
    }),
    sql`, `,
  );
  const recordsJson = () =>
    pageArray(
      sql`json_build_object(${recordSql})`,
      sql`join ${table} on ${table.id} = ${LIST_PAGE}.id ${withHouse && houseColumn ? houseJoins(houseColumn) : sql``}`,
    );

  return crudRoutes(e, {
    table,
    columns,
    houseColumn,
    complexColumn: column('complex_id'),
    recordsJson: withHouse && !houseColumn ? undefined : recordsJson,
    async toRecords(ctx, rows) {
      const byHouse = await housesOf(ctx, rows as Row[]);
      return (rows as Row[]).map((row) => {
        const house = byHouse.get(row.houseId as number);
        return Object.fromEntries(
          fromRow.map(([k, key]) => {
            if (key === 'house.address') return [k, house?.address ?? ''];
            if (key === 'house.complex_id') return [k, house?.complexId ?? null];
            const v = row[key];
            return [k, v instanceof Date ? v.toISOString() : v];
          }),
        );
      });
    },
    values: (input) => Object.fromEntries(inputKeys.map((k) => [camel(k), (input as Row)[k]])),
  });
}
