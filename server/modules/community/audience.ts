import { and, eq, exists, inArray, not, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { audienceFilters } from '../../../contract/audience.ts';
import type { Db } from '../../db/index.ts';
import { complexes, houses, settlements, streets, users } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import type { CrudImplementation } from '../../crud/types.ts';
import { forbidden, unprocessable } from '../../lib/errors.ts';
import { anyOf, houseJoins } from '../../lib/jsonSql.ts';
import { addressSql } from '../houses/address.ts';

type Reader = Pick<Db, 'select'>;
type Writer = Pick<Db, 'select' | 'insert' | 'delete'>;

/** The two link tables that say whom a piece of content is for. */
export interface AudienceTables {
  complexes: { table: PgTable; parentId: PgColumn; complexId: PgColumn; row: (parentId: number, complexId: number) => object };
  houses: { table: PgTable; parentId: PgColumn; houseId: PgColumn; row: (parentId: number, houseId: number) => object };
}

export interface Audience {
  complexIds: number[];
  houseIds: number[];
}

export interface AudienceRecord {
  complex_ids: number[];
  house_ids: number[];
  complexes: { id: number; name: string }[];
  houses: { id: number; address: string }[];
}

/**
 * Content a user may see: the organization's (checked by the caller) and, for staff, content
 * meant for at least one of their complexes.
 */
export function audienceScope(db: Reader, user: CurrentUser, t: AudienceTables, parentId: PgColumn): SQL | undefined {
  if (user.complexIds === null) return undefined;
  if (user.complexIds.length === 0) return sql`false`;
  return exists(
    db
      .select({ one: sql`1` })
      .from(t.complexes.table)
      .where(and(eq(t.complexes.parentId, parentId), inArray(t.complexes.complexId, user.complexIds))),
  );
}

/**
 * The header selection as a filter: content for complex `complexId` that is either for the whole
 * complex (no single houses of it chosen) or for one of `houseIds`.
 */
export function audienceFilter(db: Reader, t: AudienceTables, parentId: PgColumn, complexId?: number, houseIds?: number[]): SQL | undefined {
  if (complexId === undefined) {
    if (!houseIds?.length) return undefined;
    return exists(
      db
        .select({ one: sql`1` })
        .from(t.houses.table)
        .where(and(eq(t.houses.parentId, parentId), anyOf(t.houses.houseId, houseIds))),
    );
  }
  const forComplex = exists(
    db
      .select({ one: sql`1` })
      .from(t.complexes.table)
      .where(and(eq(t.complexes.parentId, parentId), eq(t.complexes.complexId, complexId))),
  );
  return and(forComplex, housesWithin(db, t, parentId, complexId, houseIds));
}

/** Of content for complex `complexId`: that for the whole complex (no single houses of it chosen) or for one of `houseIds`; none: all of it. */
function housesWithin(db: Reader, t: AudienceTables, parentId: PgColumn, complexId: number, houseIds?: number[]): SQL | undefined {
  if (!houseIds?.length) return undefined;
  const someHouseOfComplex = exists(
    db
      .select({ one: sql`1` })
      .from(t.houses.table)
      .innerJoin(houses, eq(houses.id, t.houses.houseId))
      .where(and(eq(t.houses.parentId, parentId), eq(houses.complexId, complexId))),
  );
  const chosenHouse = exists(
    db
      .select({ one: sql`1` })
      .from(t.houses.table)
      .where(and(eq(t.houses.parentId, parentId), anyOf(t.houses.houseId, houseIds))),
  );
  return or(not(someHouseOfComplex), chosenHouse);
}

/** Audiences of several content rows, with complex names and house addresses, in three queries. */
export async function loadAudiences(db: Reader, t: AudienceTables, ids: number[]): Promise<Map<number, AudienceRecord>> {
  const out = new Map<number, AudienceRecord>(ids.map((id) => [id, { complex_ids: [], house_ids: [], complexes: [], houses: [] }]));
  if (ids.length === 0) return out;
  const [complexRows, houseLinks] = await Promise.all([
    db
      .select({ parentId: t.complexes.parentId, id: complexes.id, name: complexes.name })
      .from(t.complexes.table)
      .innerJoin(complexes, eq(complexes.id, t.complexes.complexId))
      .where(inArray(t.complexes.parentId, ids))
      .orderBy(complexes.id),
    // Each house with its address, in the same statement.
    db
      .select({ parentId: t.houses.parentId, id: t.houses.houseId, address: addressSql })
      .from(t.houses.table)
      .innerJoin(houses, eq(houses.id, t.houses.houseId))
      .innerJoin(settlements, eq(settlements.id, houses.settlementId))
      .innerJoin(streets, eq(streets.id, houses.streetId))
      .where(inArray(t.houses.parentId, ids)),
  ]);
  const addressOf = new Map(houseLinks.map((h) => [h.id as number, h.address]));
  for (const r of complexRows) {
    const a = out.get(r.parentId as number)!;
    a.complex_ids.push(r.id);
    a.complexes.push({ id: r.id, name: r.name });
  }
  for (const h of houseLinks.sort((x, y) => (x.id as number) - (y.id as number))) {
    const a = out.get(h.parentId as number)!;
    a.house_ids.push(h.id as number);
    a.houses.push({ id: h.id as number, address: addressOf.get(h.id as number) ?? '' });
  }
  return out;
}

/**
 * The audience of each record of a list's page in SQL (a `recordsJson`), as `loadAudiences` gives
 * it: `joins` goes after the row's table, `fields` into its json_build_object.
 */
export function audienceJson(t: AudienceTables, parentId: PgColumn): { joins: SQL; fields: SQL } {
  return {
    joins: sql`left join lateral (
        select json_agg(${complexes.id} order by ${complexes.id}) as ids,
          json_agg(json_build_object('id', ${complexes.id}, 'name', ${complexes.name}) order by ${complexes.id}) as list
        from ${t.complexes.table} join ${complexes} on ${complexes.id} = ${t.complexes.complexId}
        where ${t.complexes.parentId} = ${parentId}) audience_complexes on true
      left join lateral (
        select json_agg(${houses.id} order by ${houses.id}) as ids,
          json_agg(json_build_object('id', ${houses.id}, 'address', ${addressSql}) order by ${houses.id}) as list
        from ${t.houses.table} ${houseJoins(t.houses.houseId)} where ${t.houses.parentId} = ${parentId}) audience_houses on true`,
    fields: sql`'complex_ids', coalesce(audience_complexes.ids, '[]'), 'house_ids', coalesce(audience_houses.ids, '[]'),
      'complexes', coalesce(audience_complexes.list, '[]'), 'houses', coalesce(audience_houses.list, '[]')`,
  };
}

const unique = (ids: number[]) => [...new Set(ids)];

/**
 * Checks an audience against the user's complexes: every complex must be the organization's and
 * one of the user's (422 on `complex_ids` otherwise, as for a missing one); every house must be
 * in scope and belong to a chosen complex (422 on `house_ids`). Houses alone bring their
 * complexes in. At least one complex is needed.
 */
export async function resolveAudience(db: Reader, user: CurrentUser, input: { complex_ids: number[]; house_ids: number[] }): Promise<Audience> {
  const complexIds = unique(input.complex_ids);
  const houseIds = unique(input.house_ids);
  const allowed = (id: number) => user.complexIds === null || user.complexIds.includes(id);
  if (complexIds.length) {
    const found = await db
      .select({ id: complexes.id })
      .from(complexes)
      .where(and(eq(complexes.organizationId, user.organizationId), inArray(complexes.id, complexIds)));
    const ok = new Set(found.map((c) => c.id).filter(allowed));
    const missing = complexIds.filter((id) => !ok.has(id));
    if (missing.length) throw unprocessable({ complex_ids: [`Комплекс не знайдено (№ ${missing.join(', ')}).`] });
  }
  if (houseIds.length) {
    const found = await db
      .select({ id: houses.id, complexId: houses.complexId })
      .from(houses)
      .where(and(eq(houses.organizationId, user.organizationId), inArray(houses.id, houseIds)));
    const complexOf = new Map(found.filter((h) => h.complexId !== null && allowed(h.complexId)).map((h) => [h.id, h.complexId!]));
    const missing = houseIds.filter((id) => !complexOf.has(id));
    if (missing.length) throw unprocessable({ house_ids: [`Будинок не знайдено (№ ${missing.join(', ')}).`] });
    if (complexIds.length) {
      const outside = houseIds.filter((id) => !complexIds.includes(complexOf.get(id)!));
      if (outside.length) throw unprocessable({ house_ids: ['Будинок не належить жодному з обраних комплексів.'] });
    } else {
      complexIds.push(...unique([...complexOf.values()]));
    }
  }
  if (complexIds.length === 0) throw unprocessable({ complex_ids: ['Оберіть щонайменше один комплекс.'] });
  return { complexIds, houseIds };
}

/** Replaces a row's audience (inside the caller's transaction). */
export async function writeAudience(tx: Writer, t: AudienceTables, id: number, audience: Audience) {
  await tx.delete(t.complexes.table).where(eq(t.complexes.parentId, id));
  await tx.delete(t.houses.table).where(eq(t.houses.parentId, id));
  if (audience.complexIds.length) await tx.insert(t.complexes.table).values(audience.complexIds.map((c) => t.complexes.row(id, c)) as never);
  if (audience.houseIds.length) await tx.insert(t.houses.table).values(audience.houseIds.map((h) => t.houses.row(id, h)) as never);
}

/**
 * Staff change content only when all of its complexes are theirs: content that also reaches
 * complexes they do not work in stays as it is (403), though they may read it.
 */
export async function assertWholeAudienceInScope(db: Reader, user: CurrentUser, t: AudienceTables, id: number) {
  if (user.complexIds === null) return;
  const rows = await db.select({ id: t.complexes.complexId }).from(t.complexes.table).where(eq(t.complexes.parentId, id));
  if (rows.some((r) => !user.complexIds!.includes(r.id as number))) {
    throw forbidden('Запис стосується також комплексів, до яких у вас немає доступу, тому змінити його не можна.');
  }
}

/** Names of content authors, in one query. */
export async function authorNames(db: Reader, ids: (number | null)[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids.filter((v): v is number => v !== null))];
  if (unique.length === 0) return new Map();
  const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, unique));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * A complex's content in the order of a column the complex links carry a copy of (`sorts`: sort
 * field → the copy; kept by triggers): crud's `byComplexLink`. The walk over the complex's links
 * stands for `complex_id`; the chosen houses still narrow it.
 */
export function audienceByComplexLink(
  t: AudienceTables,
  parentId: PgColumn,
  sorts: Record<string, PgColumn>,
): NonNullable<CrudImplementation<never, never, unknown>['byComplexLink']> {
  return {
    table: t.complexes.table,
    rowId: t.complexes.parentId,
    complexId: t.complexes.complexId,
    sorts,
    params: ['complex_id', 'house_ids'],
    where: ({ db }, q) => housesWithin(db, t, parentId, q.complex_id as number, q.house_ids as number[] | undefined),
  };
}

/**
 * The audience of a declared entity (crudRoutes): staff see rows meant for one of their
 * complexes, `complex_id` and `house_ids[]` narrow the list, a body's `complex_ids`/`house_ids`
 * are checked and written in the record's transaction, and staff change only rows all of whose
 * complexes are theirs. Spread into the implementation; records take `loadAudiences`.
 */
export function audienceHooks<Input extends { complex_ids: number[]; house_ids: number[] }>(
  t: AudienceTables,
  parentId: PgColumn,
): Required<Pick<CrudImplementation<never, Input, unknown>, 'scope' | 'query' | 'where' | 'check' | 'afterWrite' | 'guard'>> {
  return {
    scope: ({ db, user }) => audienceScope(db, user, t, parentId) ?? sql`true`,
    query: audienceFilters,
    where: ({ db }, q) => audienceFilter(db, t, parentId, q.complex_id as number | undefined, q.house_ids as number[] | undefined),
    check: async ({ db, user }, input) => void (await resolveAudience(db, user, input)),
    afterWrite: async ({ db, user }, id, input) => writeAudience(db, t, id, await resolveAudience(db, user, input)),
    guard: ({ db, user }, id) => assertWholeAudienceInScope(db, user, t, id),
  };
}
