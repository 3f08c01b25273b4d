import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { canAccess } from '../../../contract/permissions.ts';
import { COMPLEX_SORTS, complexDetailRecord, complexInput, complexRecord, type ComplexCounts } from '../../../contract/complexes.ts';
import { complexes, contacts, contactSections, houses, realty, streets, userComplexes } from '../../db/schema.ts';
import { requirePermission } from '../../lib/auth.ts';
import { expectedVersion, nextVersion, staleRecord, versionMatches } from '../../lib/concurrency.ts';
import { conflict, notFound, unprocessable } from '../../lib/errors.ts';
import { accessChanged } from '../../lib/live.ts';
import { likePattern, listPage, ukrainianSortKey } from '../../lib/list.ts';
import { listQuery, paginationSchema } from '../../lib/pagination.ts';
import { complexScope } from '../../lib/scope.ts';
import { naturalKeys, ordered } from '../../lib/order.ts';
import { plural } from '../../lib/words.ts';
import { selectHouses, withCounts } from '../houses/records.ts';

type Row = typeof complexes.$inferSelect;

const toRecord = (r: Row) => ({
  id: r.id,
  name: r.name,
  city: r.city,
  address: r.address,
  description: r.description,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

const sortColumns = {
  id: complexes.id,
  name: ukrainianSortKey(complexes.name),
  city: ukrainianSortKey(complexes.city),
  created_at: complexes.createdAt,
} as const;

const complexListQuery = listQuery.extend({
  sort: z.enum(COMPLEX_SORTS, { error: 'Сортування можливе за: id, name, city, created_at.' }).default('id'),
  city: z.string().max(100).optional(),
});

const params = z.object({ id: idSchema });
const tags = ['complexes'];

/** Unique names are checked before writing so the answer is a field error, not a constraint failure. */
const NAME_TAKEN = { name: ['Комплекс з такою назвою вже існує.'] };
const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505' || (err as { cause?: { code?: string } })?.cause?.code === '23505';

export const complexRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const scoped = (request: { user: Parameters<typeof complexScope>[0] }) =>
    complexScope(request.user, { organizationId: complexes.organizationId, complexId: complexes.id });

  async function findOne(where: SQL, id: number) {
    const [row] = await db.select().from(complexes).where(and(where, eq(complexes.id, id))).limit(1);
    if (!row) throw notFound('Комплекс не знайдено.');
    return row;
  }

  app.get(
    '/complexes',
    {
      preHandler: requirePermission('complexes', 'view'),
      schema: {
        tags,
        summary: 'Список комплексів',
        querystring: complexListQuery,
        response: { 200: z.object({ main_data: paginationSchema.extend({ data: z.array(complexRecord) }) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [scoped(request)];
      if (q.search_query.trim()) {
        const p = likePattern(q.search_query.trim());
        conditions.push(or(ilike(complexes.name, p), ilike(complexes.city, p), ilike(complexes.address, p)));
      }
      if (q.city) conditions.push(eq(complexes.city, q.city));
      const column = sortColumns[q.sort];
      const page = await listPage({
        db,
        table: complexes,
        where: and(...conditions),
        orderBy: [q.order === 'desc' ? desc(column) : asc(column), asc(complexes.id)],
        page: q.page,
        perPage: q.per_page,
        map: (r) => toRecord(r as Row),
      });
      return { main_data: { data: page.data, ...page.pagination } };
    },
  );

  /** Houses and units of a complex: two grouped counts, whatever the size of the complex. */
  async function complexCounts(complexId: number): Promise<ComplexCounts> {
    const ofComplex = db.select({ id: houses.id }).from(houses).where(eq(houses.complexId, complexId));
    const [[{ n }], units] = await Promise.all([
      db.select({ n: count() }).from(houses).where(eq(houses.complexId, complexId)),
      db
        .select({ type: realty.type, n: count() })
        .from(realty)
        .where(inArray(realty.houseId, ofComplex))
        .groupBy(realty.type),
    ]);
    // residents: always 0 for now — residents come with a later feature (members), then they are counted here.
    const counts: ComplexCounts = { houses: Number(n), apartment: 0, parking: 0, storage: 0, commercial: 0, residents: 0 };
    for (const u of units) counts[u.type] = Number(u.n);
    return counts;
  }

  app.get(
    '/complexes/:id',
    {
      preHandler: requirePermission('complexes', 'view'),
      schema: {
        tags,
        summary: 'Комплекс',
        description: 'Разом із будинками комплексу (houses — якщо роль дозволяє бачити будинки) та лічильниками (counts).',
        params,
        response: { 200: z.object({ data: complexDetailRecord }) },
      },
    },
    async (request) => {
      const row = await findOne(scoped(request), request.params.id);
      const counts = await complexCounts(row.id);
      if (!canAccess(request.user.rules, 'houses', 'view')) return { data: { ...toRecord(row), counts } };
      // Every house of a complex the user sees is in their scope.
      const houseRows = await selectHouses(db)
        .where(eq(houses.complexId, row.id))
        .orderBy(...ordered([ukrainianSortKey(streets.name), ...naturalKeys(houses.number), ukrainianSortKey(houses.building)], 'asc'), houses.id);
      return { data: { ...toRecord(row), houses: await withCounts(db, houseRows), counts } };
    },
  );

  app.post(
    '/complexes',
    {
      preHandler: requirePermission('complexes', 'create'),
      schema: { tags, summary: 'Створити комплекс', body: complexInput, response: { 200: z.object({ main_data: complexRecord }) } },
    },
    async (request) => {
      const user = request.user;
      try {
        const row = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(complexes)
            .values({ ...request.body, organizationId: user.organizationId })
            .returning();
          // A staff user who creates a complex works in it.
          if (user.complexIds !== null) await tx.insert(userComplexes).values({ userId: user.id, complexId: created.id });
          return created;
        });
        // Their open live streams include the new complex from now on.
        if (user.complexIds !== null) await accessChanged(app.live, user.organizationId, [user.id]);
        return { main_data: toRecord(row) };
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(NAME_TAKEN);
        throw err;
      }
    },
  );

  app.put(
    '/complexes/:id',
    {
      preHandler: requirePermission('complexes', 'edit'),
      schema: { tags, summary: 'Змінити комплекс', params, body: complexInput, response: { 200: z.object({ data: complexRecord }) } },
    },
    async (request) => {
      await findOne(scoped(request), request.params.id);
      const version = expectedVersion(request);
      let row: Row | undefined;
      try {
        [row] = await db
          .update(complexes)
          .set({ ...request.body, updatedAt: nextVersion(complexes.updatedAt) })
          .where(and(eq(complexes.id, request.params.id), versionMatches(complexes.updatedAt, version)))
          .returning();
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(NAME_TAKEN);
        throw err;
      }
      if (!row) throw version ? staleRecord() : notFound('Комплекс не знайдено.');
      return { data: toRecord(row) };
    },
  );

  app.delete(
    '/complexes/:id',
    {
      preHandler: requirePermission('complexes', 'delete'),
      schema: { tags, summary: 'Видалити комплекс', params, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      await findOne(scoped(request), request.params.id);
      // Its contact sections go with it, but a section that still holds contacts is never deleted (as on DELETE /contacts_section).
      const [held] = await db
        .select({ n: count() })
        .from(contacts)
        .innerJoin(contactSections, eq(contactSections.id, contacts.sectionId))
        .where(eq(contactSections.complexId, request.params.id));
      if (held.n > 0) {
        throw conflict(`У комплексі ${held.n} ${plural(held.n, ['контакт', 'контакти', 'контактів'])}, тому його не можна видалити. Спершу перенесіть або видаліть їх.`);
      }
      await db.delete(complexes).where(eq(complexes.id, request.params.id));
      return { message: 'Комплекс видалено.' };
    },
  );
};
