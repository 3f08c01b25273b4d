import { and, eq, exists, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { houses, members, realty, residents } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { staffComplexes } from '../../lib/scope.ts';

type Reader = Pick<Db, 'select'>;

/** Whether the member (of the outer query) is linked to a unit that matches `where`. */
export function hasUnitWhere(db: Reader, where: SQL, needsHouse = true): SQL {
  const base = db
    .select({ one: sql`1` })
    .from(residents)
    .innerJoin(realty, eq(realty.id, residents.realtyId));
  const query = needsHouse ? base.innerJoin(houses, eq(houses.id, realty.houseId)) : base;
  return exists(query.where(and(eq(residents.memberId, members.id), where)));
}

/**
 * Members a user may see: their organization's and, for staff, only those linked to a unit in
 * a house of the complexes assigned to them. A member without units is an admin's.
 */
export function memberScope(db: Reader, user: CurrentUser): SQL {
  const org = eq(members.organizationId, user.organizationId);
  if (user.complexIds === null) return org;
  if (user.complexIds.length === 0) return sql`false`;
  return and(org, hasUnitWhere(db, inArray(houses.complexId, staffComplexes(user.complexIds))))!;
}

/** Units a user may see (the same rule as the realty list). */
export function unitScope(db: Reader, user: CurrentUser): SQL {
  const org = eq(realty.organizationId, user.organizationId);
  if (user.complexIds === null) return org;
  if (user.complexIds.length === 0) return sql`false`;
  return and(
    org,
    inArray(
      realty.houseId,
      db
        .select({ id: houses.id })
        .from(houses)
        .where(and(eq(houses.organizationId, user.organizationId), inArray(houses.complexId, staffComplexes(user.complexIds)))),
    ),
  )!;
}
