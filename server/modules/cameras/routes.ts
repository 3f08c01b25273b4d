import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cameraInput, cameraRecord, type Camera, type CameraInput } from '../../../contract/cameras.ts';
import { idSchema } from '../../../contract/common.ts';
import { cameras, houses } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { notFound, unprocessable } from '../../lib/errors.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { formatAddress } from '../houses/address.ts';
import { ordered } from '../houses/order.ts';
import { houseScope, selectHouses } from '../houses/records.ts';

type Row = typeof cameras.$inferSelect;

const cameraListQuery = listQuery.extend({
  sort: z.enum(['id', 'name', 'created_at'], { error: 'Сортування можливе за: id, name, created_at.' }).default('name'),
  house_id: idSchema.optional(),
  complex_id: idSchema.optional(),
});
const params = z.object({ id: idSchema });
const tags = ['cameras'];
const one = z.object({ data: cameraRecord });

/** Security cameras of houses (the legacy area's «Security-cameras»), scoped like houses. */
export const cameraRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const scope = (user: CurrentUser): SQL =>
    user.complexIds === null
      ? eq(cameras.organizationId, user.organizationId)
      : and(eq(cameras.organizationId, user.organizationId), inArray(cameras.houseId, db.select({ id: houses.id }).from(houses).where(houseScope(user))))!;

  async function toRecords(rows: Row[]): Promise<Camera[]> {
    const ids = [...new Set(rows.map((r) => r.houseId))];
    const houseRows = ids.length ? await selectHouses(db).where(inArray(houses.id, ids)) : [];
    const byId = new Map(houseRows.map((h) => [h.id, h]));
    return rows.map((r) => {
      const h = byId.get(r.houseId);
      return {
        id: r.id,
        house_id: r.houseId,
        address: h ? formatAddress(h) : '',
        complex_id: h?.complexId ?? null,
        name: r.name,
        place: r.place,
        stream_url: r.streamUrl,
        snapshot_url: r.snapshotUrl,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      };
    });
  }
  async function findOne(user: CurrentUser, id: number) {
    const [row] = await db.select().from(cameras).where(and(scope(user), eq(cameras.id, id))).limit(1);
    if (!row) throw notFound('Камеру не знайдено.');
    return row;
  }
  async function assertHouse(user: CurrentUser, houseId: number) {
    const [h] = await db.select({ id: houses.id }).from(houses).where(and(houseScope(user), eq(houses.id, houseId))).limit(1);
    if (!h) throw unprocessable({ house_id: ['Будинок не знайдено.'] });
  }
  const recordOf = async (id: number) => (await toRecords(await db.select().from(cameras).where(eq(cameras.id, id))))[0];
  const values = (b: CameraInput) => ({ houseId: b.house_id, name: b.name, place: b.place, streamUrl: b.stream_url, snapshotUrl: b.snapshot_url });

  app.get(
    '/cameras',
    {
      preHandler: requirePermission('cameras', 'view'),
      schema: { tags, summary: 'Камери спостереження', description: 'search_query — у назві або розташуванні; фільтри house_id, complex_id.', querystring: cameraListQuery, response: { 200: z.object({ data: z.array(cameraRecord), pagination: paginationSchema }) } },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [scope(request.user)];
      if (q.house_id !== undefined) conditions.push(eq(cameras.houseId, q.house_id));
      if (q.complex_id !== undefined) conditions.push(inArray(cameras.houseId, db.select({ id: houses.id }).from(houses).where(eq(houses.complexId, q.complex_id))));
      const search = q.search_query.trim();
      if (search) conditions.push(or(ilike(cameras.name, likePattern(search)), ilike(cameras.place, likePattern(search))));
      const where = and(...conditions);
      const key = { id: cameras.id, name: ukrainianSortKey(cameras.name), created_at: cameras.createdAt }[q.sort];
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(cameras).where(where),
        db.select().from(cameras).where(where).orderBy(...ordered([key], q.order), q.order === 'desc' ? desc(cameras.id) : cameras.id).limit(q.per_page).offset((q.page - 1) * q.per_page),
      ]);
      return { data: await toRecords(rows), pagination: paginate(total, q.page, q.per_page) };
    },
  );
  app.get('/cameras/:id', { preHandler: requirePermission('cameras', 'view'), schema: { tags, summary: 'Камера', params, response: { 200: one } } }, async (request) => ({
    data: (await toRecords([await findOne(request.user, request.params.id)]))[0],
  }));
  app.post('/cameras', { preHandler: requirePermission('cameras', 'create'), schema: { tags, summary: 'Додати камеру', body: cameraInput, response: { 200: one } } }, async (request) => {
    await assertHouse(request.user, request.body.house_id);
    const [row] = await db.insert(cameras).values({ ...values(request.body), organizationId: request.user.organizationId }).returning({ id: cameras.id });
    return { data: await recordOf(row.id) };
  });
  app.put('/cameras/:id', { preHandler: requirePermission('cameras', 'edit'), schema: { tags, summary: 'Змінити камеру', params, body: cameraInput, response: { 200: one } } }, async (request) => {
    await findOne(request.user, request.params.id);
    await assertHouse(request.user, request.body.house_id);
    await db.update(cameras).set({ ...values(request.body), updatedAt: new Date() }).where(eq(cameras.id, request.params.id));
    return { data: await recordOf(request.params.id) };
  });
  app.delete('/cameras/:id', { preHandler: requirePermission('cameras', 'delete'), schema: { tags, summary: 'Видалити камеру', params, response: { 200: z.object({ message: z.string() }) } } }, async (request) => {
    await findOne(request.user, request.params.id);
    await db.delete(cameras).where(eq(cameras.id, request.params.id));
    return { message: 'Камеру видалено.' };
  });
};
