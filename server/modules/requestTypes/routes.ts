import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { requestTypeEntity, requestTypeForm, type RequestTypeInput } from '../../../contract/staff.ts';
import { serviceRequestTypeRoles, serviceRequestTypes, serviceRequestTypeStaff, staffRoles, users } from '../../db/schema.ts';
import { requirePermission } from '../../lib/auth.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { unprocessable } from '../../lib/errors.ts';
import { ukrainianSortKey } from '../../lib/list.ts';

/**
 * Service request types of the organization, guarded by the `service_request_types` area: the
 * generic CRUD of their declaration (contract/staff.ts), with the roles and default staff each
 * type links to, and `role_id` narrowing the list.
 */
const crud = crudRoutes(requestTypeEntity, {
  table: serviceRequestTypes,
  columns: { name: serviceRequestTypes.name, created_at: serviceRequestTypes.createdAt },
  unique: { field: 'name', message: 'Тип заявки з такою назвою вже існує.' },
  async toRecords({ db }, rows) {
    const ids = rows.map((r) => r.id);
    const [roleLinks, staffLinks] =
      ids.length === 0
        ? [[], []]
        : await Promise.all([
            db
              .select({ typeId: serviceRequestTypeRoles.typeId, id: staffRoles.id, name: staffRoles.name })
              .from(serviceRequestTypeRoles)
              .innerJoin(staffRoles, eq(staffRoles.id, serviceRequestTypeRoles.roleId))
              .where(inArray(serviceRequestTypeRoles.typeId, ids))
              .orderBy(ukrainianSortKey(staffRoles.name), staffRoles.id),
            db
              .select({ typeId: serviceRequestTypeStaff.typeId, id: users.id, name: users.name })
              .from(serviceRequestTypeStaff)
              .innerJoin(users, eq(users.id, serviceRequestTypeStaff.userId))
              .where(inArray(serviceRequestTypeStaff.typeId, ids))
              .orderBy(ukrainianSortKey(users.name), users.id),
          ]);
    return rows.map((r) => {
      const roles = roleLinks.filter((l) => l.typeId === r.id).map(({ id, name }) => ({ id, name }));
      const staff = staffLinks.filter((l) => l.typeId === r.id).map(({ id, name }) => ({ id, name }));
      return {
        id: r.id,
        name: r.name,
        description: r.description,
        deadline_hours: r.deadlineHours,
        role_ids: roles.map((x) => x.id),
        roles,
        staff_ids: staff.map((x) => x.id),
        staff,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      };
    });
  },
  values: (b: RequestTypeInput) => ({ name: b.name, description: b.description, deadlineHours: b.deadline_hours }),
  query: { role_id: idSchema.optional() },
  where: ({ db }, q) =>
    q.role_id === undefined
      ? undefined
      : inArray(
          serviceRequestTypes.id,
          db
            .select({ id: serviceRequestTypeRoles.typeId })
            .from(serviceRequestTypeRoles)
            .where(eq(serviceRequestTypeRoles.roleId, q.role_id as number)),
        ),
  /** Roles and staff of the organization, and each default staff member in one of the chosen roles (admins may handle any type). */
  async check({ db, user }, input) {
    const errors: Record<string, string[]> = {};
    const roleIds = [...new Set(input.role_ids)];
    const staffIds = [...new Set(input.staff_ids)];
    const roles =
      roleIds.length === 0
        ? []
        : await db
            .select({ id: staffRoles.id })
            .from(staffRoles)
            .where(and(eq(staffRoles.organizationId, user.organizationId), inArray(staffRoles.id, roleIds)));
    const missingRoles = roleIds.filter((id) => !roles.some((r) => r.id === id));
    if (missingRoles.length > 0) errors.role_ids = [`Роль не знайдено: ${missingRoles.join(', ')}.`];
    const staff =
      staffIds.length === 0
        ? []
        : await db
            .select({ id: users.id, name: users.name, roleId: users.roleId, isAdmin: users.isAdmin })
            .from(users)
            .where(and(eq(users.organizationId, user.organizationId), inArray(users.id, staffIds)));
    const missingStaff = staffIds.filter((id) => !staff.some((s) => s.id === id));
    if (missingStaff.length > 0) errors.staff_ids = [`Працівника не знайдено: ${missingStaff.join(', ')}.`];
    else if (roleIds.length > 0) {
      const outside = staff.filter((s) => !s.isAdmin && !(s.roleId !== null && roleIds.includes(s.roleId)));
      if (outside.length > 0) errors.staff_ids = [`Не мають жодної з обраних ролей: ${outside.map((s) => s.name).join(', ')}.`];
    }
    if (Object.keys(errors).length > 0) throw unprocessable(errors);
  },
  async afterWrite({ db }, typeId, input) {
    const roleIds = [...new Set(input.role_ids)];
    const staffIds = [...new Set(input.staff_ids)];
    await db.delete(serviceRequestTypeRoles).where(eq(serviceRequestTypeRoles.typeId, typeId));
    await db.delete(serviceRequestTypeStaff).where(eq(serviceRequestTypeStaff.typeId, typeId));
    if (roleIds.length > 0) await db.insert(serviceRequestTypeRoles).values(roleIds.map((roleId) => ({ typeId, roleId })));
    if (staffIds.length > 0) await db.insert(serviceRequestTypeStaff).values(staffIds.map((userId) => ({ typeId, userId })));
  },
});

/** The form's choices: the organization's staff (with their roles) and roles. */
const formRoute: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  app.get(
    '/service_request-types/form',
    {
      preValidation: requirePermission('service_request_types', 'view'),
      schema: {
        tags: ['service-request-types'],
        summary: 'Довідники форми типу заявки',
        description: 'Працівники (form.staff) і ролі (form.roles) організації.',
        response: { 200: z.object({ form: requestTypeForm }) },
      },
    },
    async (request) => {
      const organizationId = request.user.organizationId;
      const [staff, roles] = await Promise.all([
        db
          .select({ id: users.id, name: users.name, role_id: users.roleId })
          .from(users)
          .where(eq(users.organizationId, organizationId))
          .orderBy(ukrainianSortKey(users.name), users.id),
        db
          .select({ id: staffRoles.id, name: staffRoles.name })
          .from(staffRoles)
          .where(eq(staffRoles.organizationId, organizationId))
          .orderBy(ukrainianSortKey(staffRoles.name), staffRoles.id),
      ]);
      return { form: { staff, roles } };
    },
  );
};

export const requestTypeRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(crud);
  await app.register(formRoute);
};
