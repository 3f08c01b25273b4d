import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { normaliseRules } from '../../../contract/permissions.ts';
import { departureInput, departureRecord, option, roleInput, roleRecord, type RoleInput } from '../../../contract/staff.ts';
import { staffDepartures, staffRoles, users } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { conflict, forbidden, notFound, unprocessable, isForeignKeyViolation, isUniqueViolation } from '../../lib/errors.ts';
import { accessChanged } from '../../lib/live.ts';
import { plural } from '../../lib/words.ts';
import { departureList, departureOptions, describeRights, rightsBeyond, roleHolders, roleList } from './lookups.ts';

const params = z.object({ id: idSchema });
const departuresAnswer = z.object({ data: z.array(departureRecord), id: z.number().optional() });
const rolesAnswer = z.object({ data: z.array(roleRecord), form: z.object({ departures: z.array(option) }), id: z.number().optional() });

const DEPARTURE_NOT_FOUND = 'Відділ не знайдено.';
const DEPARTURE_TAKEN = { name: ['Відділ з такою назвою вже існує.'] };
const ROLE_NOT_FOUND = 'Роль не знайдено.';
const ROLE_TAKEN = { name: ['Роль з такою назвою вже існує.'] };

const departureInUse = (n: number) =>
  conflict(`У відділі ${n} ${plural(n, ['роль', 'ролі', 'ролей'])}, тому його не можна видалити. Спершу перенесіть ролі до іншого відділу.`);
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

  async function findDeparture(organizationId: number, id: number) {
    const [row] = await db
      .select()
      .from(staffDepartures)
      .where(and(eq(staffDepartures.organizationId, organizationId), eq(staffDepartures.id, id)))
      .limit(1);
    if (!row) throw notFound(DEPARTURE_NOT_FOUND);
    return row;
  }

  async function assertDepartureNameFree(organizationId: number, name: string, exceptId?: number) {
    const [taken] = await db
      .select({ id: staffDepartures.id })
      .from(staffDepartures)
      .where(
        and(
          eq(staffDepartures.organizationId, organizationId),
          sql`lower(${staffDepartures.name}) = lower(${name})`,
          exceptId === undefined ? undefined : ne(staffDepartures.id, exceptId),
        ),
      )
      .limit(1);
    if (taken) throw unprocessable(DEPARTURE_TAKEN);
  }

  const departures = async (organizationId: number, id?: number) => ({ data: await departureList(db, organizationId), id });

  app.get(
    '/staff_departure',
    {
      preValidation: requirePermission('staff_roles', 'view'),
      schema: { tags: ['staff'], summary: 'Відділи', response: { 200: departuresAnswer } },
    },
    async (request) => departures(request.user.organizationId),
  );

  app.post(
    '/staff_departure',
    {
      preValidation: requirePermission('staff_roles', 'create'),
      schema: { tags: ['staff'], summary: 'Додати відділ', body: departureInput, response: { 200: departuresAnswer } },
    },
    async (request) => {
      const organizationId = request.user.organizationId;
      await assertDepartureNameFree(organizationId, request.body.name);
      try {
        const [row] = await db.insert(staffDepartures).values({ organizationId, name: request.body.name }).returning({ id: staffDepartures.id });
        return departures(organizationId, row.id);
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(DEPARTURE_TAKEN);
        throw err;
      }
    },
  );

  app.put(
    '/staff_departure/:id',
    {
      preValidation: requirePermission('staff_roles', 'edit'),
      schema: { tags: ['staff'], summary: 'Перейменувати відділ', params, body: departureInput, response: { 200: departuresAnswer } },
    },
    async (request) => {
      const organizationId = request.user.organizationId;
      const { id } = request.params;
      await findDeparture(organizationId, id);
      await assertDepartureNameFree(organizationId, request.body.name, id);
      try {
        await db.update(staffDepartures).set({ name: request.body.name, updatedAt: new Date() }).where(eq(staffDepartures.id, id));
        return departures(organizationId, id);
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(DEPARTURE_TAKEN);
        throw err;
      }
    },
  );

  app.delete(
    '/staff_departure/:id',
    {
      preValidation: requirePermission('staff_roles', 'delete'),
      schema: {
        tags: ['staff'],
        summary: 'Видалити відділ',
        description: 'Відділ, у якому є ролі, видалити не можна (409).',
        params,
        response: { 200: departuresAnswer },
      },
    },
    async (request) => {
      const organizationId = request.user.organizationId;
      const { id } = request.params;
      await findDeparture(organizationId, id);
      const rolesIn = async () => (await db.select({ id: staffRoles.id }).from(staffRoles).where(eq(staffRoles.departureId, id))).length;
      const used = await rolesIn();
      if (used > 0) throw departureInUse(used);
      try {
        await db.delete(staffDepartures).where(eq(staffDepartures.id, id));
      } catch (err) {
        if (isForeignKeyViolation(err)) throw departureInUse(Math.max(1, await rolesIn()));
        throw err;
      }
      return departures(organizationId);
    },
  );

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
        await accessChanged(app.live, user.organizationId, holders.map((h) => h.id));
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
