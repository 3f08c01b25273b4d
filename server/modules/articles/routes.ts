import { and, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ARTICLE_BODY_MAX,
  ARTICLE_STATUSES,
  articleInput,
  articleRecord,
  type Article,
  type ArticleInput,
  type ArticleStatus,
} from '../../../contract/articles.ts';
import { audienceFilters } from '../../../contract/audience.ts';
import { idSchema } from '../../../contract/common.ts';
import { mediaUrl } from '../../../contract/media.ts';
import type { Db } from '../../db/index.ts';
import { articleComplexes, articleHouses, articles, users } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { expectedVersion, nextVersion, staleRecord, versionMatches } from '../../lib/concurrency.ts';
import { notFound, unprocessable } from '../../lib/errors.ts';
import { plainText, sanitizeRichText } from '../../lib/html.ts';
import { likePattern, listTotal, ukrainianSortKey } from '../../lib/list.ts';
import { assertAttachable, fileKeys, IMAGE_GONE, isImage, type FileReader } from '../../lib/media.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { ordered } from '../../lib/order.ts';
import {
  assertWholeAudienceInScope,
  audienceFilter,
  audienceScope,
  loadAudiences,
  resolveAudience,
  writeAudience,
  type AudienceTables,
} from '../community/audience.ts';

type Row = typeof articles.$inferSelect;

const AUDIENCE: AudienceTables = {
  complexes: {
    table: articleComplexes,
    parentId: articleComplexes.articleId,
    complexId: articleComplexes.complexId,
    row: (articleId, complexId) => ({ articleId, complexId }),
  },
  houses: { table: articleHouses, parentId: articleHouses.articleId, houseId: articleHouses.houseId, row: (articleId, houseId) => ({ articleId, houseId }) },
};

/** Derived at read time: a published article whose time has not come is scheduled. */
const statusSql = sql<ArticleStatus>`case when ${articles.status} = 'draft' then 'draft'
  when ${articles.publishAt} > now() then 'scheduled' else 'published' end`;

/** The same status as a condition an index can serve (statusSql itself compares with now()). */
const statusWhere: Record<ArticleStatus, SQL> = {
  draft: sql`${articles.status} = 'draft'`,
  scheduled: sql`${articles.status} = 'published' and ${articles.publishAt} > now()`,
  published: sql`${articles.status} = 'published' and (${articles.publishAt} is null or ${articles.publishAt} <= now())`,
};

export function articleStatus(row: Pick<Row, 'status' | 'publishAt'>, now = new Date()): ArticleStatus {
  if (row.status === 'draft') return 'draft';
  return row.publishAt && row.publishAt > now ? 'scheduled' : 'published';
}

const SORTS = ['id', 'title', 'publish_at', 'created_at', 'status'] as const;
const sortKeys = {
  id: [articles.id],
  title: [ukrainianSortKey(articles.title)],
  // Drafts without a planned time go last in either direction.
  publish_at: [articles.publishAt],
  created_at: [articles.createdAt],
  status: [statusSql],
} as const;

const articleListQuery = listQuery.extend({
  sort: z.enum(SORTS, { error: 'Сортування можливе за: id, title, publish_at, created_at, status.' }).default('publish_at'),
  order: z.enum(['asc', 'desc'], { error: 'Порядок сортування: asc або desc.' }).default('desc'),
  status: z.enum(ARTICLE_STATUSES, { error: 'Статус: draft, scheduled або published.' }).optional(),
  is_emergency: z.enum(['0', '1', 'true', 'false'], { error: 'is_emergency: 0 або 1.' }).optional(),
  ...audienceFilters,
});

const params = z.object({ id: idSchema });
const tags = ['articles'];
const one = z.object({ data: articleRecord });
const NOT_FOUND = 'Новину не знайдено.';

/** News a user may see: the organization's, and for staff those meant for one of their complexes. */
const articleScope = (db: Pick<Db, 'select'>, user: CurrentUser) =>
  and(eq(articles.organizationId, user.organizationId), audienceScope(db, user, AUDIENCE, articles.id));

/** Covers are served to whoever may read the news they illustrate. */
export const articleFiles: FileReader = {
  area: 'articles',
  holds: async (db, user, mediaId) =>
    (
      await db
        .select({ id: articles.id })
        .from(articles)
        .where(and(eq(articles.imageId, mediaId), articleScope(db, user)))
        .limit(1)
    ).length > 0,
};

export const articleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  const scope = (user: CurrentUser) => articleScope(db, user);

  async function toRecords(rows: Row[]): Promise<Article[]> {
    const ids = rows.map((r) => r.id);
    const authorIds = [...new Set(rows.map((r) => r.authorId).filter((v): v is number => v !== null))];
    const [audiences, authors, keys] = await Promise.all([
      loadAudiences(db, AUDIENCE, ids),
      authorIds.length ? db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, authorIds)) : [],
      fileKeys(
        db,
        rows.map((r) => r.imageId),
      ),
    ]);
    const authorName = new Map(authors.map((a) => [a.id, a.name]));
    const now = new Date();
    return rows.map((r) => {
      const text = plainText(r.body);
      return {
        id: r.id,
        title: r.title,
        body: r.body,
        excerpt: text.length > 200 ? `${text.slice(0, 199)}…` : text,
        image_id: r.imageId,
        image_url: r.imageId !== null && keys.has(r.imageId) ? mediaUrl(keys.get(r.imageId)!) : null,
        status: articleStatus(r, now),
        publish_at: r.publishAt?.toISOString() ?? null,
        is_emergency: r.isEmergency,
        author: r.authorId === null ? null : (authorName.get(r.authorId) ?? null),
        ...audiences.get(r.id)!,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      };
    });
  }

  async function findOne(user: CurrentUser, id: number) {
    const [row] = await db
      .select()
      .from(articles)
      .where(and(scope(user), eq(articles.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async function oneRecord(id: number) {
    const [row] = await db.select().from(articles).where(eq(articles.id, id));
    return (await toRecords([row]))[0];
  }

  /**
   * Validates what the body refers to and cleans the HTML; nothing is written before this passes.
   * The cover is the article's own (`current`) or the user's fresh upload.
   */
  async function prepare(user: CurrentUser, body: ArticleInput, current?: Row) {
    const html = sanitizeRichText(body.body);
    if (!plainText(html)) throw unprocessable({ body: ['Напишіть текст новини.'] });
    if (html.length > ARTICLE_BODY_MAX) throw unprocessable({ body: [`Текст новини задовгий (не більше ${ARTICLE_BODY_MAX} символів розмітки).`] });
    await assertAttachable(db, user, [body.image_id], 'image_id', IMAGE_GONE, { kept: [current?.imageId ?? null], accept: isImage });
    const audience = await resolveAudience(db, user, body);
    // Publishing without a time means now; a draft keeps the planned time, if any.
    const publishAt = body.status === 'published' ? (body.publish_at ?? new Date()) : body.publish_at;
    return {
      values: { title: body.title, body: html, imageId: body.image_id, status: body.status, publishAt, isEmergency: body.is_emergency },
      audience,
    };
  }

  app.get(
    '/articles',
    {
      preHandler: requirePermission('articles', 'view'),
      schema: {
        tags,
        summary: 'Новини',
        description:
          'Фільтри: status (draft, scheduled, published — обчислюється з часу публікації), is_emergency, complex_id і house_ids[] (вибір ' +
          'у шапці: новини для всього комплексу або для обраних будинків). search_query — у заголовку.',
        querystring: articleListQuery,
        response: { 200: z.object({ main_data: paginationSchema.extend({ data: z.array(articleRecord) }) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [scope(request.user), audienceFilter(db, AUDIENCE, articles.id, q.complex_id, q.house_ids)];
      if (q.status) conditions.push(statusWhere[q.status]);
      if (q.is_emergency !== undefined) conditions.push(eq(articles.isEmergency, q.is_emergency === '1' || q.is_emergency === 'true'));
      const search = q.search_query.trim();
      if (search) conditions.push(ilike(articles.title, likePattern(search)));
      const where = and(...conditions);
      const keys = ordered([...sortKeys[q.sort]], q.order);
      const [total, rows] = await Promise.all([
        listTotal(
          db,
          db
            .select({ one: sql`1` })
            .from(articles)
            .where(where),
        ),
        db
          .select()
          .from(articles)
          .where(where)
          .orderBy(...keys, q.order === 'desc' ? desc(articles.id) : articles.id)
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { main_data: { data: await toRecords(rows), ...paginate(total, q.page, q.per_page) } };
    },
  );

  app.get(
    '/articles/:id',
    { preHandler: requirePermission('articles', 'view'), schema: { tags, summary: 'Новина', params, response: { 200: one } } },
    async (request) => ({ data: (await toRecords([await findOne(request.user, request.params.id)]))[0] }),
  );

  app.post(
    '/articles',
    {
      preHandler: requirePermission('articles', 'create'),
      schema: {
        tags,
        summary: 'Додати новину',
        description: 'JSON-форма. HTML тексту очищується: скрипти, обробники подій і javascript:-посилання відкидаються.',
        body: articleInput,
        response: { 200: one },
      },
    },
    async (request) => {
      const { values, audience } = await prepare(request.user, request.body);
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(articles)
          .values({ ...values, organizationId: request.user.organizationId, authorId: request.user.id })
          .returning({ id: articles.id });
        await writeAudience(tx, AUDIENCE, row.id, audience);
        return row.id;
      });
      return { data: await oneRecord(id) };
    },
  );

  app.post(
    '/articles/:id',
    {
      preHandler: requirePermission('articles', 'edit'),
      schema: {
        tags,
        summary: 'Змінити новину',
        description: 'Оновлення — JSON-форма методом POST (docs/architecture.md, "The contract").',
        params,
        body: articleInput,
        response: { 200: one },
      },
    },
    async (request) => {
      const { id } = request.params;
      const current = await findOne(request.user, id);
      await assertWholeAudienceInScope(db, request.user, AUDIENCE, id);
      const version = expectedVersion(request);
      const { values, audience } = await prepare(request.user, request.body, current);
      await db.transaction(async (tx) => {
        const changed = await tx
          .update(articles)
          .set({ ...values, updatedAt: nextVersion(articles.updatedAt) })
          .where(and(eq(articles.id, id), versionMatches(articles.updatedAt, version)))
          .returning({ id: articles.id });
        if (changed.length === 0) throw version ? staleRecord() : notFound('Новину не знайдено.');
        await writeAudience(tx, AUDIENCE, id, audience);
      });
      return { data: await oneRecord(id) };
    },
  );

  app.delete(
    '/articles/:id',
    {
      preHandler: requirePermission('articles', 'delete'),
      schema: { tags, summary: 'Видалити новину', params, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      const { id } = request.params;
      await findOne(request.user, id);
      await assertWholeAudienceInScope(db, request.user, AUDIENCE, id);
      await db.delete(articles).where(eq(articles.id, id));
      return { message: 'Новину видалено.' };
    },
  );
};
