import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { residentInput, residentRecord } from '../../../contract/members.ts';
import { searchForm } from '../../../contract/reference.ts';
import { members, realty, residents } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { notFound, unprocessable } from '../../lib/errors.ts';
import { likePattern, listTotal } from '../../lib/list.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { ordered } from '../../lib/order.ts';
import { requireLink, type Tx } from './links.ts';
import { residentOrder, residentScope, selectResidents, toResidentRecords } from './records.ts';
import { memberScope } from './scope.ts';

const params = z.object({ id: idSchema });
const tags = ['residents'];
const one = z.object({ data: residentRecord });
const NOT_FOUND = "Зв'язок мешканця з приміщенням не знайдено.";

/** per_page 10, page 1, empty search by default (docs/architecture.md, "Query parameters"); resident_id is the member's id. */
const residentListQuery = listQuery.extend({
  per_page: listQuery.shape.per_page.removeDefault().default(10),
  resident_id: idSchema.optional(),
  realty_id: idSchema.optional(),
  sort: z.enum(['number', 'id'], { error: 'Сортування можливе за: number, id.' }).default('number'),
});

export const residentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  async function findResident(user: CurrentUser, id: number) {
    const [row] = await selectResidents(db)
      .where(and(residentScope(db, user), eq(residents.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async function record(user: CurrentUser, id: number) {
    const [rec] = toResidentRecords([await findResident(user, id)]);
    if (!rec) throw notFound(NOT_FOUND);
    return rec;
  }

  app.get(
    '/residents',
    {
      preHandler: requirePermission('members', 'view'),
      schema: {
        tags,
        summary: "Зв'язки мешканців із приміщеннями",
        description:
          'resident_id — ідентифікатор мешканця (members.id): його приміщення; realty_id — мешканці приміщення; search_query — ПІБ ' +
          'мешканця або номер приміщення.',
        querystring: residentListQuery,
        response: { 200: z.object({ data: z.array(residentRecord), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      const q = request.query;
      const user = request.user;
      const conditions: (SQL | undefined)[] = [residentScope(db, user)];
      if (q.resident_id !== undefined) conditions.push(eq(residents.memberId, q.resident_id));
      if (q.realty_id !== undefined) conditions.push(eq(residents.realtyId, q.realty_id));
      const text = searchForm(q.search_query);
      if (text) conditions.push(or(sql`${members.search} like ${likePattern(text)}`, sql`lower(${realty.number}) = ${text}`));
      const where = and(...conditions);
      const orderBy = q.sort === 'id' ? ordered([residents.id], q.order) : ordered([...residentOrder], q.order);
      const [total, rows] = await Promise.all([
        listTotal(
          db,
          db
            .select({ one: sql`1` })
            .from(residents)
            .innerJoin(members, eq(members.id, residents.memberId))
            .innerJoin(realty, eq(realty.id, residents.realtyId))
            .where(where),
        ),
        selectResidents(db)
          .where(where)
          .orderBy(...orderBy)
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { data: toResidentRecords(rows), pagination: paginate(total, q.page, q.per_page) };
    },
  );

  app.post(
    '/residents',
    {
      preHandler: requirePermission('members', 'create'),
      schema: {
        tags,
        summary: "Пов'язати мешканця з приміщенням",
        description: "role_id — число або об'єкт опції { value, label }; ownership_share — «1/3», «0,5» або «50%» (для власника без частки — уся квартира).",
        body: residentInput,
        response: { 200: one },
      },
    },
    async (request) => {
      const user = request.user;
      const body = request.body;
      const [member] = await db
        .select({ id: members.id })
        .from(members)
        .where(and(memberScope(db, user), eq(members.id, body.member_id)))
        .limit(1);
      if (!member) throw unprocessable({ member_id: ['Мешканця не знайдено.'] });
      const id = await db.transaction(async (tx: Tx) => {
        const link = await requireLink(tx, user, { memberId: member.id, realtyId: body.realty_id, roleId: body.role_id, share: body.ownership_share });
        const [created] = await tx
          .insert(residents)
          .values({ ...link, organizationId: user.organizationId, memberId: member.id })
          .returning({ id: residents.id });
        return created.id;
      });
      return { data: await record(user, id) };
    },
  );

  app.get(
    '/residents/:id',
    {
      preHandler: requirePermission('members', 'view'),
      schema: { tags, summary: "Зв'язок мешканця з приміщенням", params, response: { 200: one } },
    },
    async (request) => ({ data: await record(request.user, request.params.id) }),
  );

  app.put(
    '/residents/:id',
    {
      preHandler: requirePermission('members', 'edit'),
      schema: {
        tags,
        summary: "Змінити зв'язок мешканця з приміщенням",
        description: 'Змінюються приміщення, роль і частка; мешканець лишається тим самим (member_id ігнорується).',
        params,
        body: residentInput.extend({ member_id: idSchema.optional() }),
        response: { 200: one },
      },
    },
    async (request) => {
      const user = request.user;
      const existing = await findResident(user, request.params.id);
      const body = request.body;
      await db.transaction(async (tx: Tx) => {
        const link = await requireLink(
          tx,
          user,
          { memberId: existing.memberId, realtyId: body.realty_id, roleId: body.role_id, share: body.ownership_share },
          existing.id,
        );
        await tx
          .update(residents)
          .set({ ...link, updatedAt: new Date() })
          .where(eq(residents.id, existing.id));
      });
      return { data: await record(user, existing.id) };
    },
  );

  app.delete(
    '/residents/:id',
    {
      preHandler: requirePermission('members', 'delete'),
      schema: { tags, summary: "Видалити зв'язок мешканця з приміщенням", params, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      const existing = await findResident(request.user, request.params.id);
      await db.delete(residents).where(eq(residents.id, existing.id));
      return { message: "Зв'язок з приміщенням видалено." };
    },
  );
};
