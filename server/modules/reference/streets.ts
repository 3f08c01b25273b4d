import { and, asc, eq, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { searchForm } from '../../../contract/reference.ts';
import type { Db } from '../../db/index.ts';
import { streets } from '../../db/schema.ts';

type Tx = Pick<Db, 'select' | 'insert'>;

/**
 * Streets are shared reference data plus each organization's own (docs/security.md, section 4):
 * an organization sees the reference streets — except those it renamed, whose stand-ins it sees
 * instead — and its own streets, never another organization's. Reference rows are read-only to
 * every organization.
 */
export function visibleStreets(organizationId: number): SQL {
  return or(
    eq(streets.organizationId, organizationId),
    and(
      isNull(streets.organizationId),
      sql`not exists (select 1 from ${streets} as "own" where "own"."organization_id" = ${organizationId} and "own"."replaces_street_id" = ${streets.id})`,
    ),
  )!;
}

/**
 * The street an organization means by `id`: one it sees, or — for a reference street it renamed —
 * its stand-in. Undefined for an unknown street and for another organization's.
 */
export async function streetFor(db: Pick<Db, 'select'>, organizationId: number, id: number) {
  const [row] = await db
    .select()
    .from(streets)
    .where(and(or(eq(streets.id, id), and(eq(streets.organizationId, organizationId), eq(streets.replacesStreetId, id))), visibleStreets(organizationId)))
    .limit(1);
  return row;
}

/**
 * The id of the street called `name` in a settlement, as the organization sees it: its own or a
 * reference street (compared case- and apostrophe-insensitively, its own first), or a new street
 * of the organization's.
 */
export async function ensureStreet(db: Tx, organizationId: number, settlementId: number, name: string, type: string | null = null): Promise<number> {
  const key = searchForm(name);
  const [existing] = await db
    .select({ id: streets.id })
    .from(streets)
    .where(and(eq(streets.settlementId, settlementId), eq(streets.searchName, key), visibleStreets(organizationId)))
    .orderBy(sql`${streets.organizationId} is null`, asc(streets.id))
    .limit(1);
  if (existing) return existing.id;
  const [created] = await db
    .insert(streets)
    .values({ settlementId, organizationId, name: name.trim().replace(/\s+/g, ' '), type, searchName: key, source: 'admin' })
    .returning({ id: streets.id });
  return created.id;
}

/**
 * A street the organization sees in the settlement that a street called `name` of `type` would
 * duplicate: same name (case- and apostrophe-insensitively) and the same type, where a street
 * without a type conflicts with any type. «вулиця Шевченка» and «провулок Шевченка» are two
 * streets. `exceptIds` are left out (the street being renamed, and what it stands in for).
 */
export async function sameStreet(
  db: Pick<Db, 'select'>,
  organizationId: number,
  settlementId: number,
  name: string,
  type: string | null,
  exceptIds: number[] = [],
) {
  const [row] = await db
    .select({ id: streets.id })
    .from(streets)
    .where(
      and(
        eq(streets.settlementId, settlementId),
        eq(streets.searchName, searchForm(name)),
        visibleStreets(organizationId),
        type === null ? undefined : or(isNull(streets.type), eq(streets.type, type)),
        ...exceptIds.map((id) => ne(streets.id, id)),
      ),
    )
    .limit(1);
  return row;
}
