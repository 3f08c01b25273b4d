import { and, count, eq, inArray, isNotNull } from 'drizzle-orm';
import { AREA_LABELS, normaliseRules, type Action, type Area, type Rules } from '../../../contract/permissions.ts';
import { excessRules } from '../../../contract/staff.ts';
import type { Db } from '../../db/index.ts';
import { complexes, staffDepartures, staffRoles, users } from '../../db/schema.ts';
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

/** Departments of the organization in Ukrainian name order, with how many roles each holds. */
export async function departureList(db: Db, organizationId: number) {
  const [rows, counts] = await Promise.all([
    db
      .select()
      .from(staffDepartures)
      .where(eq(staffDepartures.organizationId, organizationId))
      .orderBy(ukrainianSortKey(staffDepartures.name), staffDepartures.id),
    db.select({ id: staffRoles.departureId, n: count() }).from(staffRoles).where(eq(staffRoles.organizationId, organizationId)).groupBy(staffRoles.departureId),
  ]);
  const rolesCount = new Map(counts.map((c) => [c.id, Number(c.n)]));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    roles_count: rolesCount.get(r.id) ?? 0,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

export async function departureOptions(db: Db, organizationId: number) {
  return db
    .select({ id: staffDepartures.id, name: staffDepartures.name })
    .from(staffDepartures)
    .where(eq(staffDepartures.organizationId, organizationId))
    .orderBy(ukrainianSortKey(staffDepartures.name), staffDepartures.id);
}

/** Roles of the organization, with their department and how many staff members hold each. */
export async function roleList(db: Db, organizationId: number) {
  const [rows, counts] = await Promise.all([
    db
      .select({ role: staffRoles, departure: staffDepartures.name })
      .from(staffRoles)
      .leftJoin(staffDepartures, eq(staffDepartures.id, staffRoles.departureId))
      .where(eq(staffRoles.organizationId, organizationId))
      .orderBy(ukrainianSortKey(staffRoles.name), staffRoles.id),
    db
      .select({ id: users.roleId, n: count() })
      .from(users)
      .where(and(eq(users.organizationId, organizationId), isNotNull(users.roleId)))
      .groupBy(users.roleId),
  ]);
  const staffCount = new Map(counts.map((c) => [c.id, Number(c.n)]));
  return rows.map(({ role, departure }) => ({
    id: role.id,
    name: role.name,
    departure_id: role.departureId,
    departure,
    // jsonb keeps its own key order; the matrix and the home area follow AREAS.
    permissions: normaliseRules(role.permissions),
    staff_count: staffCount.get(role.id) ?? 0,
    created_at: role.createdAt.toISOString(),
    updated_at: role.updatedAt.toISOString(),
  }));
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
