import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { advertisementCreate, advertisementPublish, advertisementRecord, advertisementUpdate, type Advertisement } from '../../../contract/advertisements.ts';
import { idSchema } from '../../../contract/common.ts';
import { mediaUrl } from '../../../contract/media.ts';
import type { Db } from '../../db/index.ts';
import { advertisements, houses } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { notFound, unprocessable } from '../../lib/errors.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { fileKeys, insertMedia, type FileReader } from '../../lib/media.ts';
import { multipartRoutes, readForm } from '../../lib/multipart.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { formatAddress } from '../houses/address.ts';
import { ordered } from '../../lib/order.ts';
import { houseScope, selectHouses } from '../houses/records.ts';

type Row = typeof advertisements.$inferSelect;

const SORTS = ['id', 'name', 'created_at', 'published'] as const;
const sortKeys = {
  id: advertisements.id,
  name: ukrainianSortKey(advertisements.name),
  created_at: advertisements.createdAt,
  published: advertisements.published,
} as const;

const adListQuery = listQuery.extend({
  sort: z.enum(SORTS, { error: 'Сортування можливе за: id, name, created_at, published.' }).default('created_at'),
  order: z.enum(['asc', 'desc'], { error: 'Порядок сортування: asc або desc.' }).default('desc'),
  published: z.enum(['0', '1'], { error: 'published: 0 або 1.' }).optional(),
  house_id: idSchema.optional(),
  complex_id: idSchema.optional(),
});

const params = z.object({ id: idSchema });
const tags = ['advertisements'];
const one = z.object({ data: advertisementRecord });
const NOT_FOUND = 'Оголошення мешканця не знайдено.';
const multipartDoc = { consumes: ['multipart/form-data'] };

/** Advertisements a user may see: the organization's, and for staff those of houses in their complexes. */
function advertisementScope(db: Pick<Db, 'select'>, user: CurrentUser): SQL {
  const org = eq(advertisements.organizationId, user.organizationId);
  if (user.complexIds === null) return org;
  return and(org, inArray(advertisements.houseId, db.select({ id: houses.id }).from(houses).where(houseScope(user))))!;
}

/** Pictures are served to whoever may read the advertisement. */
export const advertisementFiles: FileReader = {
  area: 'advertisements',
  holds: async (db, user, mediaId) =>
    (
      await db
        .select({ id: advertisements.id })
        .from(advertisements)
        .where(and(eq(advertisements.imageId, mediaId), advertisementScope(db, user)))
        .limit(1)
    ).length > 0,
};

/**
 * Residents' advertisements (/advertisement; docs/decisions.md, "Community content"): multipart
 * forms, the list in main_data (docs/architecture.md, "The contract").
 * Staff see and change the advertisements of houses in their complexes only.
 */
export const advertisementRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const scope = (user: CurrentUser): SQL => advertisementScope(db, user);

  async function toRecords(rows: Row[]): Promise<Advertisement[]> {
    const houseIds = [...new Set(rows.map((r) => r.houseId))];
    const [houseRows, keys] = await Promise.all([
      houseIds.length ? selectHouses(db).where(inArray(houses.id, houseIds)) : [],
      fileKeys(
        db,
        rows.map((r) => r.imageId),
      ),
    ]);
    const byId = new Map(houseRows.map((h) => [h.id, h]));
    return rows.map((r) => {
      const house = byId.get(r.houseId);
      return {
        id: r.id,
        name: r.name,
        desc: r.description,
        house_id: r.houseId,
        address: house ? formatAddress(house) : '',
        complex_id: house?.complexId ?? null,
        image_id: r.imageId,
        image: r.imageId !== null && keys.has(r.imageId) ? mediaUrl(keys.get(r.imageId)!) : null,
        published: r.published ? 1 : 0,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      };
    });
  }

  async function findOne(user: CurrentUser, id: number) {
    const [row] = await db
      .select()
      .from(advertisements)
      .where(and(scope(user), eq(advertisements.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async function assertHouse(user: CurrentUser, houseId: number) {
    const [house] = await db
      .select({ id: houses.id })
      .from(houses)
      .where(and(houseScope(user), eq(houses.id, houseId)))
      .limit(1);
    if (!house) throw unprocessable({ house_id: ['Будинок не знайдено.'] });
  }

  const recordOf = async (id: number) => (await toRecords(await db.select().from(advertisements).where(eq(advertisements.id, id))))[0];

  app.get(
    '/advertisement',
    {
      preHandler: requirePermission('advertisements', 'view'),
      schema: {
        tags,
        summary: 'Оголошення мешканців',
        description: 'search_query — у назві або описі; фільтри published (0/1), house_id, complex_id.',
        querystring: adListQuery,
        response: { 200: z.object({ main_data: paginationSchema.extend({ data: z.array(advertisementRecord) }) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const user = request.user;
      const conditions: (SQL | undefined)[] = [scope(user)];
      if (q.published !== undefined) conditions.push(eq(advertisements.published, q.published === '1'));
      if (q.house_id !== undefined) conditions.push(eq(advertisements.houseId, q.house_id));
      if (q.complex_id !== undefined)
        conditions.push(inArray(advertisements.houseId, db.select({ id: houses.id }).from(houses).where(eq(houses.complexId, q.complex_id))));
      const search = q.search_query.trim();
      if (search) conditions.push(or(ilike(advertisements.name, likePattern(search)), ilike(advertisements.description, likePattern(search))));
      const where = and(...conditions);
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(advertisements).where(where),
        db
          .select()
          .from(advertisements)
          .where(where)
          .orderBy(...ordered([sortKeys[q.sort]], q.order), q.order === 'desc' ? desc(advertisements.id) : advertisements.id)
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { main_data: { data: await toRecords(rows), ...paginate(total, q.page, q.per_page) } };
    },
  );

  app.get(
    '/advertisement/:id',
    { preHandler: requirePermission('advertisements', 'view'), schema: { tags, summary: 'Оголошення мешканця', params, response: { 200: one } } },
    async (request) => ({ data: (await toRecords([await findOne(request.user, request.params.id)]))[0] }),
  );

  app.delete(
    '/advertisement/:id',
    {
      preHandler: requirePermission('advertisements', 'delete'),
      schema: { tags, summary: 'Видалити оголошення мешканця', params, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      await findOne(request.user, request.params.id);
      await db.delete(advertisements).where(eq(advertisements.id, request.params.id));
      return { message: 'Оголошення видалено.' };
    },
  );

  await multipartRoutes(app, (mp) => {
    mp.post(
      '/advertisement',
      {
        preHandler: requirePermission('advertisements', 'create'),
        schema: {
          tags,
          summary: 'Додати оголошення мешканця',
          description: 'multipart/form-data: name, desc, house_id, image (файл, необов’язково), published (0/1).',
          ...multipartDoc,
          response: { 200: one },
        },
      },
      async (request) => {
        const user = request.user;
        const { body, file, discard } = await readForm(request, advertisementCreate, { storage: app.storage, fileField: 'image', kind: 'image' });
        try {
          await assertHouse(user, body.house_id);
        } catch (err) {
          await discard();
          throw err;
        }
        const image = file ? await insertMedia(db, app.storage, user, 'image', file) : undefined;
        const [row] = await db
          .insert(advertisements)
          .values({
            organizationId: user.organizationId,
            houseId: body.house_id,
            name: body.name,
            description: body.desc,
            imageId: image?.id ?? null,
            published: body.published ?? false,
            authorId: user.id,
          })
          .returning({ id: advertisements.id });
        return { data: await recordOf(row.id) };
      },
    );

    mp.put(
      '/advertisement/:id',
      {
        preHandler: requirePermission('advertisements', 'edit'),
        schema: {
          tags,
          summary: 'Змінити оголошення мешканця',
          description: 'multipart/form-data: name, desc, image (необов’язково — новий файл), remove_image=1 — прибрати зображення.',
          params,
          ...multipartDoc,
          response: { 200: one },
        },
      },
      async (request) => {
        const user = request.user;
        const { id } = request.params;
        await findOne(user, id);
        const { body, file, discard } = await readForm(request, advertisementUpdate, { storage: app.storage, fileField: 'image', kind: 'image' });
        try {
          if (body.house_id !== undefined) await assertHouse(user, body.house_id);
        } catch (err) {
          await discard();
          throw err;
        }
        const image = file ? await insertMedia(db, app.storage, user, 'image', file) : undefined;
        await db
          .update(advertisements)
          .set({
            name: body.name,
            description: body.desc,
            ...(body.house_id !== undefined ? { houseId: body.house_id } : {}),
            ...(image ? { imageId: image.id } : body.remove_image ? { imageId: null } : {}),
            updatedAt: new Date(),
          })
          .where(eq(advertisements.id, id));
        return { data: await recordOf(id) };
      },
    );

    mp.post(
      '/advertisement/:id',
      {
        preHandler: requirePermission('advertisements', 'edit'),
        schema: {
          tags,
          summary: 'Опублікувати або приховати оголошення',
          description: 'multipart/form-data: published (0 або 1).',
          params,
          ...multipartDoc,
          response: { 200: one },
        },
      },
      async (request) => {
        const { id } = request.params;
        await findOne(request.user, id);
        const { body } = await readForm(request, advertisementPublish, { storage: app.storage });
        await db.update(advertisements).set({ published: body.published, updatedAt: new Date() }).where(eq(advertisements.id, id));
        return { data: await recordOf(id) };
      },
    );
  });
};
