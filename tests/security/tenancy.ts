import { sql } from 'drizzle-orm';
import type { TestApp } from '../api/helpers.ts';
import { rows } from './db.ts';

/**
 * What one organization can see in the database, as a fingerprint: for every table, the rows
 * that belong to it plus the rows that belong to no organization (shared reference data).
 *
 * A row's organization is found generically from the schema: its own `organization_id`, or —
 * for tables without one — the organization of the row a foreign key points at, followed as far
 * as it goes (interview answers → responses → interviews). So a new table is covered as soon as
 * it exists, and a write by one organization that changes a row another one can see shows up.
 */

interface ForeignKey {
  child: string;
  column: string;
  parent: string;
  parentColumn: string;
}

/**
 * Rows a request may legitimately add without belonging to anyone: failed sign-ins and rate-limit
 * hits, keyed by address or link (the public voting code endpoint is reached without an account).
 * And the log of writes that tells lists to count again (`list_changes`): no route reads it, and
 * a row of it at most makes another organization's list count once more.
 */
const UNOWNED_BOOKKEEPING = new Set(['auth_attempts', 'rate_limit_hits', 'list_changes']);
/** Large reference tables no route writes: compared by row count and highest id. */
const LARGE_REFERENCE: Record<string, string> = { settlements: "count(*)::text || ':' || max(id)::text" };

let cache: Promise<{ name: string; owner: string | null }[]> | undefined;

async function ownership(t: TestApp) {
  const tables = (
    await rows<{ name: string }>(
      t,
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )
  ).map((r) => r.name);
  const withOrg = new Set(
    (
      await rows<{ name: string }>(
        t,
        sql`select table_name as name from information_schema.columns where table_schema = 'public' and column_name = 'organization_id'`,
      )
    ).map((r) => r.name),
  );
  const keys = await rows<ForeignKey>(
    t,
    sql`select cl.relname as child, a.attname as "column", pl.relname as parent, pa.attname as "parentColumn"
        from pg_constraint c
        join pg_class cl on cl.oid = c.conrelid
        join pg_class pl on pl.oid = c.confrelid
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
        join pg_attribute pa on pa.attrelid = c.confrelid and pa.attnum = c.confkey[1]
        where c.contype = 'f' and array_length(c.conkey, 1) = 1 and c.connamespace = 'public'::regnamespace
        order by 1, 2`,
  );
  let aliases = 0;
  /** An SQL expression for the organization of the row `alias` of `table`, or null when it has none. */
  const owner = (table: string, alias: string, visiting: Set<string>): string | null => {
    if (table === 'organizations') return `${alias}."id"`;
    if (withOrg.has(table)) return `${alias}."organization_id"`;
    const parts: string[] = [];
    for (const fk of keys.filter((k) => k.child === table && k.parent !== table && !visiting.has(k.parent))) {
      const inner = `o${++aliases}`;
      const expr = owner(fk.parent, inner, new Set([...visiting, table]));
      if (expr) parts.push(`(select ${expr} from "${fk.parent}" ${inner} where ${inner}."${fk.parentColumn}" = ${alias}."${fk.column}")`);
    }
    return parts.length === 0 ? null : parts.length === 1 ? parts[0] : `coalesce(${parts.join(', ')})`;
  };
  return tables.filter((name) => !UNOWNED_BOOKKEEPING.has(name)).map((name) => ({ name, owner: owner(name, 'x', new Set()) }));
}

/** The tables whose rows no foreign key ties to an organization (all of them count as shared). */
export async function unownedTables(t: TestApp): Promise<string[]> {
  cache ??= ownership(t);
  return (await cache).filter((x) => x.owner === null).map((x) => x.name);
}

/** Per table, the row count and an order-independent md5 of the rows `organizationId` can see. */
export async function organizationFingerprint(t: TestApp, organizationId: number): Promise<Record<string, string>> {
  cache ??= ownership(t);
  const org = Number(organizationId);
  const parts = (await cache).map(({ name, owner }) => {
    if (LARGE_REFERENCE[name]) return `select '${name}' as name, ${LARGE_REFERENCE[name]} as fp from "${name}"`;
    const visible = owner === null ? 'true' : `(${owner}) is null or (${owner}) = ${org}`;
    return `select '${name}' as name,
      count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), '' order by md5(x::text))), '') as fp
      from "${name}" x where ${visible}`;
  });
  const out: Record<string, string> = {};
  for (const r of await rows<{ name: string; fp: string }>(t, sql.raw(parts.join(' union all ')))) out[r.name] = r.fp;
  return out;
}
