import { and, count, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { houseTypeInput, houseTypeRecord, type HouseType } from '../../../contract/houses.ts';
import { houses, houseTypes } from '../../db/schema.ts';
import { requirePermission } from '../../lib/auth.ts';
import { conflict, notFound, unprocessable, isForeignKeyViolation, isUniqueViolation } from '../../lib/errors.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { ordered } from '../../lib/order.ts';
import { plural } from '../../lib/words.ts';

type Row = typeof houseTypes.$inferSelect;

const SORTS = ['id', 'name', 'created_at'] as const;
const sortKeys = { id: houseTypes.id, name: ukrainianSortKey(houseTypes.name), created_at: houseTypes.createdAt } as const;

const typeListQuery = listQuery.extend({
  sort: z.enum(SORTS, { error: 'Сортування можливе за: id, name, created_at.' }).default('id'),
});

const params = z.object({ id: idSchema });
const tags = ['house-types'];
const one = z.object({ data: houseTypeRecord });
const NOT_FOUND = 'Тип будинку не знайдено.';
const NAME_TAKEN = { name: ['Тип будинку з такою назвою вже існує.'] };

const toRecord = (r: Row, housesCount: number): HouseType => ({
  id: r.id,
  name: r.name,
  houses_count: housesCount,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

const inUse = (n: number) =>
  conflict(
    `Тип використовують ${n} ${plural(n, ['будинок', 'будинки', 'будинків'])}, тому його не можна видалити. Спершу змініть тип цих будинків.`,
  );

/**
 * House types of the organization (Багатоквартирний, Таунхаус, …), guarded by the `houses`
 * permission area. They are shared by every complex, so staff scoping does not apply; a
 * type's `houses_count` counts all the organization's houses of that type.
 */
export const houseTypeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  async function housesCount(ids: number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: houses.houseTypeId, n: count() })
      .from(houses)
      .where(inArray(houses.houseTypeId, ids))
      .groupBy(houses.houseTypeId);
    return new Map(rows.map((r) => [r.id!, Number(r.n)]));
  }

  async function findOne(organizationId: number, id: number) {
    const [row] = await db
      .select()
      .from(houseTypes)
      .where(and(eq(houseTypes.organizationId, organizationId), eq(houseTypes.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async function record(row: Row) {
    return toRecord(row, (await housesCount([row.id])).get(row.id) ?? 0);
  }

  /** Unique names are checked first so that the answer is a field error, not a constraint failure. */
  async function assertNameFree(organizationId: number, name: string, exceptId?: number) {
    const [taken] = await db
      .select({ id: houseTypes.id })
      .from(houseTypes)
      .where(
        and(
          eq(houseTypes.organizationId, organizationId),
          sql`lower(${houseTypes.name}) = lower(${name})`,
          exceptId === undefined ? undefined : ne(houseTypes.id, exceptId),
        ),
      )
      .limit(1);
    if (taken) throw unprocessable(NAME_TAKEN);
  }

  app.get(
    '/house-types',
    {
      preHandler: requirePermission('houses', 'view'),
      schema: {
        tags,
        summary: 'Типи будинків',
        querystring: typeListQuery,
        response: { 200: z.object({ data: z.array(houseTypeRecord), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [eq(houseTypes.organizationId, request.user.organizationId)];
      if (q.search_query.trim()) conditions.push(ilike(houseTypes.name, likePattern(q.search_query.trim())));
      const where = and(...conditions);
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(houseTypes).where(where),
        db
          .select()
          .from(houseTypes)
          .where(where)
          .orderBy(...ordered([sortKeys[q.sort]], q.order), houseTypes.id)
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      const counts = await housesCount(rows.map((r) => r.id));
      return { data: rows.map((r) => toRecord(r, counts.get(r.id) ?? 0)), pagination: paginate(total, q.page, q.per_page) };
    },
  );

  app.get(
    '/house-types/:id',
    {
      preHandler: requirePermission('houses', 'view'),
      schema: { tags, summary: 'Тип будинку', params, response: { 200: one } },
    },
    async (request) => ({ data: await record(await findOne(request.user.organizationId, request.params.id)) }),
  );

  app.post(
    '/house-types',
    {
      preHandler: requirePermission('houses', 'create'),
      schema: { tags, summary: 'Додати тип будинку', body: houseTypeInput, response: { 200: one } },
    },
    async (request) => {
      const organizationId = request.user.organizationId;
      await assertNameFree(organizationId, request.body.name);
      try {
        const [row] = await db
          .insert(houseTypes)
          .values({ organizationId, name: request.body.name })
          .returning();
        return { data: toRecord(row, 0) };
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(NAME_TAKEN);
        throw err;
      }
    },
  );

  app.put(
    '/house-types/:id',
    {
      preHandler: requirePermission('houses', 'edit'),
      schema: { tags, summary: 'Змінити тип будинку', params, body: houseTypeInput, response: { 200: one } },
    },
    async (request) => {
      const organizationId = request.user.organizationId;
      await findOne(organizationId, request.params.id);
      await assertNameFree(organizationId, request.body.name, request.params.id);
      try {
        const [row] = await db
          .update(houseTypes)
          .set({ name: request.body.name, updatedAt: new Date() })
          .where(eq(houseTypes.id, request.params.id))
          .returning();
        return { data: await record(row) };
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(NAME_TAKEN);
        throw err;
      }
    },
  );

  app.delete(
    '/house-types/:id',
    {
      preHandler: requirePermission('houses', 'delete'),
      schema: {
        tags,
        summary: 'Видалити тип будинку',
        description: 'Тип, який має хоча б один будинок, видалити не можна (409).',
        params,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const id = request.params.id;
      await findOne(request.user.organizationId, id);
      const used = (await housesCount([id])).get(id) ?? 0;
      if (used > 0) throw inUse(used);
      try {
        await db.delete(houseTypes).where(eq(houseTypes.id, id));
      } catch (err) {
        // A house was given this type between the check and the delete.
        if (isForeignKeyViolation(err)) throw inUse((await housesCount([id])).get(id) ?? 1);
        throw err;
      }
      return { message: 'Тип будинку видалено.' };
    },
  );
};
