import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audienceFilters } from '../../../contract/audience.ts';
import { idSchema } from '../../../contract/common.ts';
import { EVENT_STATES, eventInput, eventRecord, type CommunityEvent, type EventInput, type EventState } from '../../../contract/events.ts';
import { mediaUrl } from '../../../contract/media.ts';
import type { Db } from '../../db/index.ts';
import { eventComplexes, eventHouses, events } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { notFound } from '../../lib/errors.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { assertAttachable, fileKeys, IMAGE_GONE, isImage, type FileReader } from '../../lib/media.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { ordered } from '../../lib/order.ts';
import { assertWholeAudienceInScope, audienceFilter, audienceScope, authorNames, loadAudiences, resolveAudience, writeAudience, type AudienceTables } from '../community/audience.ts';

type Row = typeof events.$inferSelect;

const AUDIENCE: AudienceTables = {
  complexes: { table: eventComplexes, parentId: eventComplexes.eventId, complexId: eventComplexes.complexId, row: (eventId, complexId) => ({ eventId, complexId }) },
  houses: { table: eventHouses, parentId: eventHouses.eventId, houseId: eventHouses.houseId, row: (eventId, houseId) => ({ eventId, houseId }) },
};

/** An event without an end counts as lasting a day from its start. */
const endSql = sql`coalesce(${events.endsAt}, ${events.startsAt} + interval '1 day')`;
const stateSql = sql<EventState>`case when ${events.startsAt} > now() then 'upcoming' when ${endSql} < now() then 'past' else 'ongoing' end`;

export function eventState(row: Pick<Row, 'startsAt' | 'endsAt'>, now = new Date()): EventState {
  if (row.startsAt > now) return 'upcoming';
  const end = row.endsAt ?? new Date(row.startsAt.getTime() + 24 * 3600 * 1000);
  return end < now ? 'past' : 'ongoing';
}

const SORTS = ['id', 'title', 'starts_at', 'place', 'created_at'] as const;
const sortKeys = {
  id: events.id,
  title: ukrainianSortKey(events.title),
  starts_at: events.startsAt,
  place: ukrainianSortKey(events.place),
  created_at: events.createdAt,
} as const;

const eventListQuery = listQuery.extend({
  sort: z.enum(SORTS, { error: 'Сортування можливе за: id, title, starts_at, place, created_at.' }).default('starts_at'),
  order: z.enum(['asc', 'desc'], { error: 'Порядок сортування: asc або desc.' }).default('desc'),
  state: z.enum(EVENT_STATES, { error: 'Стан: upcoming, ongoing або past.' }).optional(),
  ...audienceFilters,
});

const params = z.object({ id: idSchema });
const tags = ['events'];
const one = z.object({ data: eventRecord });
const NOT_FOUND = 'Захід не знайдено.';

/** Events a user may see: the organization's, and for staff those meant for one of their complexes. */
const eventScope = (db: Pick<Db, 'select'>, user: CurrentUser) => and(eq(events.organizationId, user.organizationId), audienceScope(db, user, AUDIENCE, events.id));

/** Pictures are served to whoever may read the event they illustrate. */
export const eventFiles: FileReader = {
  area: 'events',
  holds: async (db, user, mediaId) => (await db.select({ id: events.id }).from(events).where(and(eq(events.imageId, mediaId), eventScope(db, user))).limit(1)).length > 0,
};

/** The events poster: JSON calls, "data plus pagination" list, audience checked like news. */
export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const scope = (user: CurrentUser) => eventScope(db, user);

  async function toRecords(rows: Row[]): Promise<CommunityEvent[]> {
    const [audiences, authors, keys] = await Promise.all([
      loadAudiences(db, AUDIENCE, rows.map((r) => r.id)),
      authorNames(db, rows.map((r) => r.authorId)),
      fileKeys(db, rows.map((r) => r.imageId)),
    ]);
    const now = new Date();
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      description: r.description,
      place: r.place,
      starts_at: r.startsAt.toISOString(),
      ends_at: r.endsAt?.toISOString() ?? null,
      image_id: r.imageId,
      image_url: r.imageId !== null && keys.has(r.imageId) ? mediaUrl(keys.get(r.imageId)!) : null,
      state: eventState(r, now),
      author: r.authorId === null ? null : (authors.get(r.authorId) ?? null),
      ...audiences.get(r.id)!,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
  }

  async function findOne(user: CurrentUser, id: number) {
    const [row] = await db
      .select()
      .from(events)
      .where(and(scope(user), eq(events.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async function oneRecord(id: number) {
    const [row] = await db.select().from(events).where(eq(events.id, id));
    return (await toRecords([row]))[0];
  }

  /** The picture is the event's own (`current`) or the user's fresh upload. */
  async function prepare(user: CurrentUser, b: EventInput, current?: Row) {
    await assertAttachable(db, user, [b.image_id], 'image_id', IMAGE_GONE, { kept: [current?.imageId ?? null], accept: isImage });
    const audience = await resolveAudience(db, user, b);
    return { values: { title: b.title, description: b.description, place: b.place, startsAt: b.starts_at, endsAt: b.ends_at, imageId: b.image_id }, audience };
  }

  app.get(
    '/events',
    {
      preHandler: requirePermission('events', 'view'),
      schema: {
        tags,
        summary: 'Афіша заходів',
        description: 'Фільтри: state (upcoming, ongoing, past), complex_id і house_ids[] (вибір у шапці). search_query — у назві або місці.',
        querystring: eventListQuery,
        response: { 200: z.object({ data: z.array(eventRecord), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [scope(request.user), audienceFilter(db, AUDIENCE, events.id, q.complex_id, q.house_ids)];
      if (q.state) conditions.push(sql`${stateSql} = ${q.state}`);
      const search = q.search_query.trim();
      if (search) conditions.push(or(ilike(events.title, likePattern(search)), ilike(events.place, likePattern(search))));
      const where = and(...conditions);
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(events).where(where),
        db
          .select()
          .from(events)
          .where(where)
          .orderBy(...ordered([sortKeys[q.sort]], q.order), q.order === 'desc' ? desc(events.id) : events.id)
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { data: await toRecords(rows), pagination: paginate(total, q.page, q.per_page) };
    },
  );

  app.get(
    '/events/:id',
    { preHandler: requirePermission('events', 'view'), schema: { tags, summary: 'Захід', params, response: { 200: one } } },
    async (request) => ({ data: (await toRecords([await findOne(request.user, request.params.id)]))[0] }),
  );

  app.post(
    '/events',
    { preHandler: requirePermission('events', 'create'), schema: { tags, summary: 'Додати захід', body: eventInput, response: { 200: one } } },
    async (request) => {
      const { values, audience } = await prepare(request.user, request.body);
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(events)
          .values({ ...values, organizationId: request.user.organizationId, authorId: request.user.id })
          .returning({ id: events.id });
        await writeAudience(tx, AUDIENCE, row.id, audience);
        return row.id;
      });
      return { data: await oneRecord(id) };
    },
  );

  app.put(
    '/events/:id',
    { preHandler: requirePermission('events', 'edit'), schema: { tags, summary: 'Змінити захід', params, body: eventInput, response: { 200: one } } },
    async (request) => {
      const { id } = request.params;
      const current = await findOne(request.user, id);
      await assertWholeAudienceInScope(db, request.user, AUDIENCE, id);
      const { values, audience } = await prepare(request.user, request.body, current);
      await db.transaction(async (tx) => {
        await tx
          .update(events)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(events.id, id));
        await writeAudience(tx, AUDIENCE, id, audience);
      });
      return { data: await oneRecord(id) };
    },
  );

  app.delete(
    '/events/:id',
    { preHandler: requirePermission('events', 'delete'), schema: { tags, summary: 'Видалити захід', params, response: { 200: z.object({ message: z.string() }) } } },
    async (request) => {
      const { id } = request.params;
      await findOne(request.user, id);
      await assertWholeAudienceInScope(db, request.user, AUDIENCE, id);
      await db.delete(events).where(eq(events.id, id));
      return { message: 'Захід видалено.' };
    },
  );
};
