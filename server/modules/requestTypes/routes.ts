import { and, asc, count, desc, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import {
  REQUEST_TYPE_SORTS,
  requestTypeForm,
  requestTypeInput,
  requestTypeRecord,
  type RequestType,
  type RequestTypeInput,
} from '../../../contract/staff.ts';
import type { Db } from '../../db/index.ts';
import { serviceRequestTypeRoles, serviceRequestTypes, serviceRequestTypeStaff, staffRoles, users } from '../../db/schema.ts';
import { requirePermission } from '../../lib/auth.ts';
import { notFound, unprocessable, isUniqueViolation } from '../../lib/errors.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';

type Row = typeof serviceRequestTypes.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const typeListQuery = listQuery.extend({
  sort: z.enum(REQUEST_TYPE_SORTS, { error: 'Сортування можливе за: id, name, created_at.' }).default('name'),
  role_id: idSchema.optional(),
});
const params = z.object({ id: idSchema });
const tags = ['service-request-types'];
const one = z.object({ data: requestTypeRecord });
const NOT_FOUND = 'Тип заявки не знайдено.';
const NAME_TAKEN = { name: ['Тип заявки з такою назвою вже існує.'] };
const sortKeys = { id: serviceRequestTypes.id, name: ukrainianSortKey(serviceRequestTypes.name), created_at: serviceRequestTypes.createdAt } as const;

/**
 * Service request types of the organization («Сантехніка», «Ліфт», …): the staff roles that
 * handle each and the staff members a new request of the type goes to by default. Guarded by the
 * `service_request_types` area; shared by every complex, like house types.
 */
export const requestTypeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  async function records(rows: Row[]): Promise<RequestType[]> {
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
  }

  async function findOne(organizationId: number, id: number) {
    const [row] = await db
      .select()
      .from(serviceRequestTypes)
      .where(and(eq(serviceRequestTypes.organizationId, organizationId), eq(serviceRequestTypes.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  /**
   * Name free, roles and staff of the organization, and each default staff member in one of the
   * chosen roles (when roles are chosen; admins may handle any type).
   */
  async function validate(organizationId: number, input: RequestTypeInput, exceptId?: number) {
    const errors: Record<string, string[]> = {};
    const [taken] = await db
      .select({ id: serviceRequestTypes.id })
      .from(serviceRequestTypes)
      .where(
        and(
          eq(serviceRequestTypes.organizationId, organizationId),
          sql`lower(${serviceRequestTypes.name}) = lower(${input.name})`,
          exceptId === undefined ? undefined : ne(serviceRequestTypes.id, exceptId),
        ),
      )
      .limit(1);
    if (taken) errors.name = NAME_TAKEN.name;
    const roleIds = [...new Set(input.role_ids)];
    const staffIds = [...new Set(input.staff_ids)];
    const roles =
      roleIds.length === 0
        ? []
        : await db
            .select({ id: staffRoles.id })
            .from(staffRoles)
            .where(and(eq(staffRoles.organizationId, organizationId), inArray(staffRoles.id, roleIds)));
    const missingRoles = roleIds.filter((id) => !roles.some((r) => r.id === id));
    if (missingRoles.length > 0) errors.role_ids = [`Роль не знайдено: ${missingRoles.join(', ')}.`];
    const staff =
      staffIds.length === 0
        ? []
        : await db
            .select({ id: users.id, name: users.name, roleId: users.roleId, isAdmin: users.isAdmin })
            .from(users)
            .where(and(eq(users.organizationId, organizationId), inArray(users.id, staffIds)));
    const missingStaff = staffIds.filter((id) => !staff.some((s) => s.id === id));
    if (missingStaff.length > 0) errors.staff_ids = [`Працівника не знайдено: ${missingStaff.join(', ')}.`];
    else if (roleIds.length > 0) {
      const outside = staff.filter((s) => !s.isAdmin && !(s.roleId !== null && roleIds.includes(s.roleId)));
      if (outside.length > 0) errors.staff_ids = [`Не мають жодної з обраних ролей: ${outside.map((s) => s.name).join(', ')}.`];
    }
    if (Object.keys(errors).length > 0) throw unprocessable(errors);
    return { roleIds, staffIds };
  }

  async function saveLinks(tx: Tx, typeId: number, roleIds: number[], staffIds: number[]) {
    await tx.delete(serviceRequestTypeRoles).where(eq(serviceRequestTypeRoles.typeId, typeId));
    await tx.delete(serviceRequestTypeStaff).where(eq(serviceRequestTypeStaff.typeId, typeId));
    if (roleIds.length > 0) await tx.insert(serviceRequestTypeRoles).values(roleIds.map((roleId) => ({ typeId, roleId })));
    if (staffIds.length > 0) await tx.insert(serviceRequestTypeStaff).values(staffIds.map((userId) => ({ typeId, userId })));
  }

  app.get(
    '/service-request-types',
    {
      preValidation: requirePermission('service_request_types', 'view'),
      schema: {
        tags,
        summary: 'Типи заявок',
        querystring: typeListQuery,
        response: { 200: z.object({ data: z.array(requestTypeRecord), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [eq(serviceRequestTypes.organizationId, request.user.organizationId)];
      if (q.search_query.trim()) conditions.push(ilike(serviceRequestTypes.name, likePattern(q.search_query.trim())));
      if (q.role_id) {
        conditions.push(
          inArray(
            serviceRequestTypes.id,
            db.select({ id: serviceRequestTypeRoles.typeId }).from(serviceRequestTypeRoles).where(eq(serviceRequestTypeRoles.roleId, q.role_id)),
          ),
        );
      }
      const where = and(...conditions);
      const key = sortKeys[q.sort];
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(serviceRequestTypes).where(where),
        db
          .select()
          .from(serviceRequestTypes)
          .where(where)
          .orderBy(q.order === 'desc' ? desc(key) : asc(key), asc(serviceRequestTypes.id))
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { data: await records(rows), pagination: paginate(total, q.page, q.per_page) };
    },
  );

  app.get(
    '/service_request-types/form',
    {
      preValidation: requirePermission('service_request_types', 'view'),
      schema: {
        tags,
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

  app.get(
    '/service-request-types/:id',
    {
      preValidation: requirePermission('service_request_types', 'view'),
      schema: { tags, summary: 'Тип заявки', params, response: { 200: one } },
    },
    async (request) => ({ data: (await records([await findOne(request.user.organizationId, request.params.id)]))[0] }),
  );

  app.post(
    '/service-request-types',
    {
      preValidation: requirePermission('service_request_types', 'create'),
      schema: { tags, summary: 'Додати тип заявки', body: requestTypeInput, response: { 200: one } },
    },
    async (request) => {
      const organizationId = request.user.organizationId;
      const input = request.body;
      const { roleIds, staffIds } = await validate(organizationId, input);
      try {
        const row = await db.transaction(async (tx) => {
          const [created] = await tx.insert(serviceRequestTypes).values({ organizationId, name: input.name, description: input.description, deadlineHours: input.deadline_hours }).returning();
          await saveLinks(tx, created.id, roleIds, staffIds);
          return created;
        });
        return { data: (await records([row]))[0] };
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(NAME_TAKEN);
        throw err;
      }
    },
  );

  app.put(
    '/service-request-types/:id',
    {
      preValidation: requirePermission('service_request_types', 'edit'),
      schema: { tags, summary: 'Змінити тип заявки', params, body: requestTypeInput, response: { 200: one } },
    },
    async (request) => {
      const organizationId = request.user.organizationId;
      const { id } = request.params;
      const input = request.body;
      await findOne(organizationId, id);
      const { roleIds, staffIds } = await validate(organizationId, input, id);
      try {
        const row = await db.transaction(async (tx) => {
          const [updated] = await tx
            .update(serviceRequestTypes)
            .set({ name: input.name, description: input.description, deadlineHours: input.deadline_hours, updatedAt: new Date() })
            .where(eq(serviceRequestTypes.id, id))
            .returning();
          await saveLinks(tx, id, roleIds, staffIds);
          return updated;
        });
        return { data: (await records([row]))[0] };
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(NAME_TAKEN);
        throw err;
      }
    },
  );

  app.delete(
    '/service-request-types/:id',
    {
      preValidation: requirePermission('service_request_types', 'delete'),
      schema: { tags, summary: 'Видалити тип заявки', params, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      await findOne(request.user.organizationId, request.params.id);
      await db.delete(serviceRequestTypes).where(eq(serviceRequestTypes.id, request.params.id));
      return { message: 'Тип заявки видалено.' };
    },
  );
};
