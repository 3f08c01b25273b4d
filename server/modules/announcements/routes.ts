import { and, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ANNOUNCEMENT_STATES, announcementInput, announcementRecord, type Announcement, type AnnouncementInput, type AnnouncementState } from '../../../contract/announcements.ts';
import { audienceFilters } from '../../../contract/audience.ts';
import { idSchema } from '../../../contract/common.ts';
import { announcementComplexes, announcementHouses, announcements } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { notFound } from '../../lib/errors.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { ordered } from '../../lib/order.ts';
import { assertWholeAudienceInScope, audienceFilter, audienceScope, authorNames, loadAudiences, resolveAudience, writeAudience, type AudienceTables } from '../community/audience.ts';

type Row = typeof announcements.$inferSelect;

const AUDIENCE: AudienceTables = {
  complexes: { table: announcementComplexes, parentId: announcementComplexes.announcementId, complexId: announcementComplexes.complexId, row: (announcementId, complexId) => ({ announcementId, complexId }) },
  houses: { table: announcementHouses, parentId: announcementHouses.announcementId, houseId: announcementHouses.houseId, row: (announcementId, houseId) => ({ announcementId, houseId }) },
};

const stateSql = sql<AnnouncementState>`case when ${announcements.validFrom} > now() then 'upcoming' when ${announcements.validUntil} < now() then 'expired' else 'active' end`;

export function announcementState(row: Pick<Row, 'validFrom' | 'validUntil'>, now = new Date()): AnnouncementState {
  if (row.validFrom > now) return 'upcoming';
  if (row.validUntil && row.validUntil < now) return 'expired';
  return 'active';
}

const SORTS = ['id', 'title', 'valid_from', 'valid_until', 'created_at'] as const;
const sortKeys = {
  id: announcements.id,
  title: ukrainianSortKey(announcements.title),
  valid_from: announcements.validFrom,
  valid_until: announcements.validUntil,
  created_at: announcements.createdAt,
} as const;

const announcementListQuery = listQuery.extend({
  sort: z.enum(SORTS, { error: 'Сортування можливе за: id, title, valid_from, valid_until, created_at.' }).default('valid_from'),
  order: z.enum(['asc', 'desc'], { error: 'Порядок сортування: asc або desc.' }).default('desc'),
  state: z.enum(ANNOUNCEMENT_STATES, { error: 'Стан: upcoming, active або expired.' }).optional(),
  ...audienceFilters,
});

const params = z.object({ id: idSchema });
const tags = ['announcements'];
const one = z.object({ data: announcementRecord });
const NOT_FOUND = 'Оголошення не знайдено.';

/** Announcements: JSON calls, "data plus pagination" list, audience checked like news. */
export const announcementRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const scope = (user: CurrentUser) => and(eq(announcements.organizationId, user.organizationId), audienceScope(db, user, AUDIENCE, announcements.id));

  async function toRecords(rows: Row[]): Promise<Announcement[]> {
    const [audiences, authors] = await Promise.all([loadAudiences(db, AUDIENCE, rows.map((r) => r.id)), authorNames(db, rows.map((r) => r.authorId))]);
    const now = new Date();
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      body: r.body,
      valid_from: r.validFrom.toISOString(),
      valid_until: r.validUntil?.toISOString() ?? null,
      state: announcementState(r, now),
      author: r.authorId === null ? null : (authors.get(r.authorId) ?? null),
      ...audiences.get(r.id)!,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
  }

  async function findOne(user: CurrentUser, id: number) {
    const [row] = await db
      .select()
      .from(announcements)
      .where(and(scope(user), eq(announcements.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async function oneRecord(id: number) {
    const [row] = await db.select().from(announcements).where(eq(announcements.id, id));
    return (await toRecords([row]))[0];
  }

  const values = (b: AnnouncementInput) => ({ title: b.title, body: b.body, validFrom: b.valid_from, validUntil: b.valid_until });

  app.get(
    '/announcements',
    {
      preHandler: requirePermission('announcements', 'view'),
      schema: {
        tags,
        summary: 'Оголошення',
        description: 'Фільтри: state (upcoming, active, expired — з періоду дії), complex_id і house_ids[] (вибір у шапці). search_query — у заголовку.',
        querystring: announcementListQuery,
        response: { 200: z.object({ data: z.array(announcementRecord), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [scope(request.user), audienceFilter(db, AUDIENCE, announcements.id, q.complex_id, q.house_ids)];
      if (q.state) conditions.push(sql`${stateSql} = ${q.state}`);
      const search = q.search_query.trim();
      if (search) conditions.push(ilike(announcements.title, likePattern(search)));
      const where = and(...conditions);
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(announcements).where(where),
        db
          .select()
          .from(announcements)
          .where(where)
          .orderBy(...ordered([sortKeys[q.sort]], q.order), q.order === 'desc' ? desc(announcements.id) : announcements.id)
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { data: await toRecords(rows), pagination: paginate(total, q.page, q.per_page) };
    },
  );

  app.get(
    '/announcements/:id',
    { preHandler: requirePermission('announcements', 'view'), schema: { tags, summary: 'Оголошення', params, response: { 200: one } } },
    async (request) => ({ data: (await toRecords([await findOne(request.user, request.params.id)]))[0] }),
  );

  app.post(
    '/announcements',
    { preHandler: requirePermission('announcements', 'create'), schema: { tags, summary: 'Додати оголошення', body: announcementInput, response: { 200: one } } },
    async (request) => {
      const audience = await resolveAudience(db, request.user, request.body);
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(announcements)
          .values({ ...values(request.body), organizationId: request.user.organizationId, authorId: request.user.id })
          .returning({ id: announcements.id });
        await writeAudience(tx, AUDIENCE, row.id, audience);
        return row.id;
      });
      return { data: await oneRecord(id) };
    },
  );

  app.put(
    '/announcements/:id',
    { preHandler: requirePermission('announcements', 'edit'), schema: { tags, summary: 'Змінити оголошення', params, body: announcementInput, response: { 200: one } } },
    async (request) => {
      const { id } = request.params;
      await findOne(request.user, id);
      await assertWholeAudienceInScope(db, request.user, AUDIENCE, id);
      const audience = await resolveAudience(db, request.user, request.body);
      await db.transaction(async (tx) => {
        await tx
          .update(announcements)
          .set({ ...values(request.body), updatedAt: new Date() })
          .where(eq(announcements.id, id));
        await writeAudience(tx, AUDIENCE, id, audience);
      });
      return { data: await oneRecord(id) };
    },
  );

  app.delete(
    '/announcements/:id',
    { preHandler: requirePermission('announcements', 'delete'), schema: { tags, summary: 'Видалити оголошення', params, response: { 200: z.object({ message: z.string() }) } } },
    async (request) => {
      const { id } = request.params;
      await findOne(request.user, id);
      await assertWholeAudienceInScope(db, request.user, AUDIENCE, id);
      await db.delete(announcements).where(eq(announcements.id, id));
      return { message: 'Оголошення видалено.' };
    },
  );
};
