import { and, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { normaliseRules } from '../../../contract/permissions.ts';
import { departureEntity, option, roleInput, roleRecord, type RoleInput } from '../../../contract/staff.ts';
import { staffDepartures, staffRoles, users } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { crudRoutes } from '../../lib/crud.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import { accessChanged } from '../../lib/live.ts';
import { isUniqueViolation } from '../../lib/errors.ts';
import { plural } from '../../lib/words.ts';
import { departureOptions, describeRights, rightsBeyond, roleHolders, roleList } from './lookups.ts';

const params = z.object({ id: idSchema });
const rolesAnswer = z.object({ data: z.array(roleRecord), form: z.object({ departures: z.array(option) }), id: z.number().optional() });

const DEPARTURE_NOT_FOUND = 'Відділ не знайдено.';
const ROLE_NOT_FOUND = 'Роль не знайдено.';
const ROLE_TAKEN = { name: ['Роль з такою назвою вже існує.'] };

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
const roleInUse = (n: number) =>
  conflict(`Роль призначено ${n} ${plural(n, ['працівнику', 'працівникам', 'працівникам'])}, тому її не можна видалити. Спершу призначте їм іншу роль.`);

/**
 * Staff departures (departments) and staff roles with their permission matrix, both under the
 * `staff_roles` permission area. Every call answers with the whole new list in `data` (the SPA
 * replaces its list with it); creating or changing one also names its `id`. A user who is not an
 * admin can neither hand out rights they do not hold nor touch a role that holds more than they do.
 */
export const staffRoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  await app.register(departureRoutes);

  // ── roles ──

  const roles = async (organizationId: number, id?: number) => ({
    data: await roleList(db, organizationId),
    form: { departures: await departureOptions(db, organizationId) },
    id,
  });

  async function findRole(user: CurrentUser, id: number) {
    const [row] = await db
      .select()
      .from(staffRoles)
      .where(and(eq(staffRoles.organizationId, user.organizationId), eq(staffRoles.id, id)))
      .limit(1);
    if (!row) throw notFound(ROLE_NOT_FOUND);
    const beyond = rightsBeyond(user, normaliseRules(row.permissions));
    if (beyond.length > 0) throw forbidden(`Ця роль має права, яких немає у вас (${describeRights(beyond)}), тому змінити її може лише адміністратор.`);
    return row;
  }

  /** Field errors first (department, name, rights), so that the form shows all of them at once. */
  async function validateRole(user: CurrentUser, input: RoleInput, exceptId?: number) {
    const errors: Record<string, string[]> = {};
    if (input.departure_id !== null) {
      const [dep] = await db
        .select({ id: staffDepartures.id })
        .from(staffDepartures)
        .where(and(eq(staffDepartures.organizationId, user.organizationId), eq(staffDepartures.id, input.departure_id)))
        .limit(1);
      if (!dep) errors.departure_id = [DEPARTURE_NOT_FOUND];
    }
    const [taken] = await db
      .select({ id: staffRoles.id })
      .from(staffRoles)
      .where(
        and(
          eq(staffRoles.organizationId, user.organizationId),
          sql`lower(${staffRoles.name}) = lower(${input.name})`,
          exceptId === undefined ? undefined : ne(staffRoles.id, exceptId),
        ),
      )
      .limit(1);
    if (taken) errors.name = ROLE_TAKEN.name;
    const beyond = rightsBeyond(user, input.permissions);
    if (beyond.length > 0) errors.permissions = [`Не можна надати права, яких немає у вас: ${describeRights(beyond)}.`];
    if (Object.keys(errors).length > 0) throw unprocessable(errors);
  }

  app.get(
    '/staff_role',
    {
      preValidation: requirePermission('staff_roles', 'view'),
      schema: { tags: ['staff'], summary: 'Ролі працівників', description: 'Разом із відділами для форми (form.departures).', response: { 200: rolesAnswer } },
    },
    async (request) => roles(request.user.organizationId),
  );

  app.post(
    '/staff_role',
    {
      preValidation: requirePermission('staff_roles', 'create'),
      schema: { tags: ['staff'], summary: 'Додати роль', body: roleInput, response: { 200: rolesAnswer } },
    },
    async (request) => {
      const user = request.user;
      const input = request.body;
      await validateRole(user, input);
      try {
        const [row] = await db
          .insert(staffRoles)
          .values({ organizationId: user.organizationId, name: input.name, departureId: input.departure_id, permissions: input.permissions })
          .returning({ id: staffRoles.id });
        return roles(user.organizationId, row.id);
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(ROLE_TAKEN);
        throw err;
      }
    },
  );

  app.put(
    '/staff_role/:id',
    {
      preValidation: requirePermission('staff_roles', 'edit'),
      schema: { tags: ['staff'], summary: 'Змінити роль', params, body: roleInput, response: { 200: rolesAnswer } },
    },
    async (request) => {
      const user = request.user;
      const input = request.body;
      const { id } = request.params;
      await findRole(user, id);
      await validateRole(user, input, id);
      try {
        await db
          .update(staffRoles)
          .set({ name: input.name, departureId: input.departure_id, permissions: input.permissions, updatedAt: new Date() })
          .where(eq(staffRoles.id, id));
        // The role's holders may have lost rights: their open live streams check them again.
        const holders = await db.select({ id: users.id }).from(users).where(eq(users.roleId, id));
        await accessChanged(
          app.live,
          user.organizationId,
          holders.map((h) => h.id),
        );
        return roles(user.organizationId, id);
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(ROLE_TAKEN);
        throw err;
      }
    },
  );

  app.delete(
    '/staff_role/:id',
    {
      preValidation: requirePermission('staff_roles', 'delete'),
      schema: {
        tags: ['staff'],
        summary: 'Видалити роль',
        description: 'Роль, призначену хоча б одному працівнику, видалити не можна (409).',
        params,
        response: { 200: rolesAnswer },
      },
    },
    async (request) => {
      const user = request.user;
      const { id } = request.params;
      await findRole(user, id);
      const used = await roleHolders(db, id);
      if (used > 0) throw roleInUse(used);
      // A staff member given this role meanwhile keeps it: the delete is refused, not cascaded.
      const removed = await db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from ${staffRoles} where ${staffRoles.id} = ${id} for update`);
        if ((await roleHolders(tx, id)) > 0) return false;
        await tx.delete(staffRoles).where(eq(staffRoles.id, id));
        return true;
      });
      if (!removed) throw roleInUse(Math.max(1, await roleHolders(db, id)));
      return roles(user.organizationId);
    },
  );
};
