import { count, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normaliseRules } from '../../../contract/permissions.ts';
import { departureEntity, option, staffRoleEntity, type RoleInput } from '../../../contract/staff.ts';
import { staffDepartures, staffRoles, users } from '../../db/schema.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { forbidden, unprocessable } from '../../lib/errors.ts';
import { accessChanged } from '../../lib/live.ts';
import { plural } from '../../lib/words.ts';
import { departureOptions, describeRights, rightsBeyond, roleHolders } from './lookups.ts';

/** Departments: the generic CRUD of their declaration (contract/staff.ts); a department that holds roles cannot be deleted (409 with the count). */
const departureRoutes = crudRoutes(departureEntity, {
  table: staffDepartures,
  columns: { name: staffDepartures.name, created_at: staffDepartures.createdAt },
  unique: { field: 'name', message: 'Відділ з такою назвою вже існує.' },
  async toRecords({ db }, rows) {
    const ids = rows.map((r) => r.id);
    const counts = ids.length
      ? await db.select({ id: staffRoles.departureId, n: count() }).from(staffRoles).where(inArray(staffRoles.departureId, ids)).groupBy(staffRoles.departureId)
      : [];
    const rolesCount = new Map(counts.map((c) => [c.id, Number(c.n)]));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      roles_count: rolesCount.get(r.id) ?? 0,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
  },
  values: (b: { name: string }) => ({ name: b.name }),
  async inUse({ db }, id) {
    const n = (await db.select({ id: staffRoles.id }).from(staffRoles).where(eq(staffRoles.departureId, id))).length;
    if (n > 0) return `У відділі ${n} ${plural(n, ['роль', 'ролі', 'ролей'])}, тому його не можна видалити. Спершу перенесіть ролі до іншого відділу.`;
  },
});

/**
 * Staff roles: the generic CRUD of their declaration (contract/staff.ts) with the permission
 * matrix. A user who is not an admin can neither hand out rights they do not hold (422 on
 * `permissions`) nor touch a role that holds more than they do (403); a role held by staff
 * cannot be deleted (409 with the count); a change reaches its holders' open live streams.
 */
const roleRoutes = crudRoutes(staffRoleEntity, {
  table: staffRoles,
  columns: { name: staffRoles.name, departure_id: staffRoles.departureId, created_at: staffRoles.createdAt },
  unique: { field: 'name', message: 'Роль з такою назвою вже існує.' },
  async toRecords({ db }, rows) {
    const ids = rows.map((r) => r.id);
    const depIds = [...new Set(rows.map((r) => r.departureId).filter((id): id is number => id !== null))];
    const [counts, deps] = await Promise.all([
      ids.length ? db.select({ id: users.roleId, n: count() }).from(users).where(inArray(users.roleId, ids)).groupBy(users.roleId) : [],
      depIds.length ? db.select({ id: staffDepartures.id, name: staffDepartures.name }).from(staffDepartures).where(inArray(staffDepartures.id, depIds)) : [],
    ]);
    const staffCount = new Map(counts.map((c) => [c.id, Number(c.n)]));
    const depName = new Map(deps.map((d) => [d.id, d.name]));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      departure_id: r.departureId,
      departure: r.departureId === null ? null : (depName.get(r.departureId) ?? null),
      // jsonb keeps its own key order; the matrix and the home area follow AREAS.
      permissions: normaliseRules(r.permissions),
      staff_count: staffCount.get(r.id) ?? 0,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
  },
  values: (b: RoleInput) => ({ name: b.name, departureId: b.departure_id, permissions: b.permissions }),
  async check({ user }, input) {
    const beyond = rightsBeyond(user, input.permissions);
    if (beyond.length > 0) throw unprocessable({ permissions: [`Не можна надати права, яких немає у вас: ${describeRights(beyond)}.`] });
  },
  async guard({ db, user }, id) {
    const [row] = await db.select({ permissions: staffRoles.permissions }).from(staffRoles).where(eq(staffRoles.id, id)).limit(1);
    const beyond = row ? rightsBeyond(user, normaliseRules(row.permissions)) : [];
    if (beyond.length > 0) throw forbidden(`Ця роль має права, яких немає у вас (${describeRights(beyond)}), тому змінити її може лише адміністратор.`);
  },
  async inUse({ db }, id) {
    const n = await roleHolders(db, id);
    if (n > 0)
      return `Роль призначено ${n} ${plural(n, ['працівнику', 'працівникам', 'працівникам'])}, тому її не можна видалити. Спершу призначте їм іншу роль.`;
  },
  siblings: {
    schema: { form: z.object({ departures: z.array(option) }) },
    load: async ({ db, user }) => ({ form: { departures: await departureOptions(db, user.organizationId) } }),
  },
  // The role's holders may have lost rights: their open live streams check them again.
  async afterCommit(app, { db, user }, id, created) {
    if (created) return;
    const holders = await db.select({ id: users.id }).from(users).where(eq(users.roleId, id));
    await accessChanged(
      app.live,
      user.organizationId,
      holders.map((h) => h.id),
    );
  },
});

/** Staff departures (departments) and staff roles, both under the `staff_roles` permission area. */
export const staffRoleRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(departureRoutes);
  await app.register(roleRoutes);
};
