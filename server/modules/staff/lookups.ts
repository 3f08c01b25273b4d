import { and, count, eq, inArray } from 'drizzle-orm';
import { AREA_LABELS, type Action, type Area, type Rules } from '../../../contract/permissions.ts';
import { excessRules } from '../../../contract/staff.ts';
import type { Db } from '../../db/index.ts';
import { complexes, staffDepartures, users } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { ukrainianSortKey } from '../../lib/sortKey.ts';

const ACTION_NAMES: Record<Action, string> = { view: 'перегляд', create: 'створення', edit: 'редагування', delete: 'видалення' };

/** «Комплекси — видалення, Працівники — створення»: rights named the way the matrix shows them. */
export function describeRights(rights: { area: Area; action: Action }[]): string {
  return rights.map((r) => `${AREA_LABELS[r.area]} — ${ACTION_NAMES[r.action]}`).join(', ');
}

/** The rights of `rules` that `user` does not hold (none for admins, who hold them all). */
export function rightsBeyond(user: CurrentUser, rules: Rules) {
  return user.isAdmin ? [] : excessRules(rules, user.rules);
}

export async function departureOptions(db: Db, organizationId: number) {
  return db
    .select({ id: staffDepartures.id, name: staffDepartures.name })
    .from(staffDepartures)
    .where(eq(staffDepartures.organizationId, organizationId))
    .orderBy(ukrainianSortKey(staffDepartures.name), staffDepartures.id);
}

/** How many staff members hold a role. */
export async function roleHolders(db: Pick<Db, 'select'>, roleId: number): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(users).where(eq(users.roleId, roleId));
  return Number(n);
}

/** The ids among `ids` that are complexes of the organization and inside the user's scope. */
export async function complexesInScope(db: Db, user: CurrentUser, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const wanted = user.complexIds === null ? ids : ids.filter((id) => user.complexIds!.includes(id));
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ id: complexes.id })
    .from(complexes)
    .where(and(eq(complexes.organizationId, user.organizationId), inArray(complexes.id, wanted)));
  return new Set(rows.map((r) => r.id));
}
