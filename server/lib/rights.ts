import { and, eq, inArray } from 'drizzle-orm';
import { canAccess, FULL_RULES, normaliseRules, type Action, type Area, type Rules } from '../../contract/permissions.ts';
import type { Db } from '../db/index.ts';
import { staffRoles, userComplexes, users } from '../db/schema.ts';

/** What a user may do now, as their role and complexes say (not as a session loaded it). */
export interface UserRights {
  id: number;
  isAdmin: boolean;
  rules: Rules;
  /** null: an admin, who works in every complex. */
  complexIds: number[] | null;
}

/**
 * The current rights of users of an organization, read afresh: for anything that acts on a
 * user's behalf without their session (a chat link), so that it ends with their rights.
 * Users who no longer exist (or belong elsewhere) are simply missing from the map.
 */
export async function currentRights(db: Pick<Db, 'select'>, organizationId: number, ids: number[]): Promise<Map<number, UserRights>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, isAdmin: users.isAdmin, permissions: staffRoles.permissions })
    .from(users)
    .leftJoin(staffRoles, eq(staffRoles.id, users.roleId))
    .where(and(eq(users.organizationId, organizationId), inArray(users.id, wanted)));
  const staffIds = rows.filter((r) => !r.isAdmin).map((r) => r.id);
  const links = staffIds.length ? await db.select().from(userComplexes).where(inArray(userComplexes.userId, staffIds)) : [];
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        isAdmin: r.isAdmin,
        rules: r.isAdmin ? FULL_RULES : normaliseRules(r.permissions ?? {}),
        complexIds: r.isAdmin ? null : links.filter((l) => l.userId === r.id).map((l) => l.complexId),
      },
    ]),
  );
}

/** Whether `rights` allow `action` on `area` in complex `complexId` (null: a house without a complex, an admin's). */
export function mayIn(rights: UserRights | undefined, area: Area, action: Action, complexId: number | null): boolean {
  if (!rights || !canAccess(rights.rules, area, action)) return false;
  return rights.complexIds === null || (complexId !== null && rights.complexIds.includes(complexId));
}
