import { and, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ARTICLE_BODY_MAX, articleEntity, type ArticleInput, type ArticleStatus } from '../../../contract/articles.ts';
import { mediaUrl } from '../../../contract/media.ts';
import type { Db } from '../../db/index.ts';
import { articleComplexes, articleHouses, articles, media, users } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { nextVersion } from '../../lib/concurrency.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { isoSql, LIST_PAGE, pageArray } from '../../lib/jsonSql.ts';
import { unprocessable } from '../../lib/errors.ts';
import { plainText, sanitizeRichText } from '../../lib/html.ts';
import { assertAttachable, fileKeys, IMAGE_GONE, isImage, type FileReader } from '../../lib/media.ts';
import { NOW } from '../../lib/sqlReads.ts';
import { audienceByComplexLink, audienceHooks, audienceJson, audienceScope, authorNames, loadAudiences, type AudienceTables } from '../community/audience.ts';

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
  when ${articles.publishAt} > ${NOW} then 'scheduled' else 'published' end`;

/** The same status as a condition an index can serve (statusSql itself compares with the clock). */
const statusWhere: Record<ArticleStatus, SQL> = {
  draft: sql`${articles.status} = 'draft'`,
  scheduled: sql`${articles.status} = 'published' and ${articles.publishAt} > ${NOW}`,
  published: sql`${articles.status} = 'published' and (${articles.publishAt} is null or ${articles.publishAt} <= ${NOW})`,
};

export function articleStatus(row: Pick<Row, 'status' | 'publishAt'>, now = new Date()): ArticleStatus {
  if (row.status === 'draft') return 'draft';
  return row.publishAt && row.publishAt > now ? 'scheduled' : 'published';
}

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

/** The text as stored: HTML without scripts, event handlers or javascript: links. */
function cleanBody(body: string): string {
  const html = sanitizeRichText(body);
  if (!plainText(html)) throw unprocessable({ body: ['Напишіть текст новини.'] });
  if (html.length > ARTICLE_BODY_MAX) throw unprocessable({ body: [`Текст новини задовгий (не більше ${ARTICLE_BODY_MAX} символів розмітки).`] });
  return html;
}

const audience = audienceHooks<ArticleInput>(AUDIENCE, articles.id);

/**
 * News: the generic CRUD of their declaration (contract/articles.ts) for the audience of
 * complexes and houses they name, updated by `POST /articles/{id}`. What news add: the HTML is
 * cleaned, the cover must be an image of the user's (or the article's own), and publishing
 * without a time means now. `status` (draft, scheduled, published) is derived from the time.
 */
export const articleRoutes = crudRoutes(articleEntity, {
  table: articles,
  columns: { title: articles.title, publish_at: articles.publishAt, created_at: articles.createdAt, status: statusSql },
  ...audience,
  query: { ...audience.query, is_emergency: z.enum(['0', '1', 'true', 'false'], { error: 'is_emergency: 0 або 1.' }).optional() },
  where: (ctx, q) =>
    and(audience.where(ctx, q), q.is_emergency === undefined ? undefined : eq(articles.isEmergency, q.is_emergency === '1' || q.is_emergency === 'true')),
  filterWhere: { status: (_ctx, value) => statusWhere[value as ArticleStatus] },
  // A complex's news by publish time: its links in that order (article_complexes.publish_at, migration 0027).
  byComplexLink: audienceByComplexLink(AUDIENCE, articles.id, { publish_at: articleComplexes.publishAt }),
  async check(ctx, input, id) {
    cleanBody(input.body);
    const [current] = id === undefined ? [] : await ctx.db.select({ imageId: articles.imageId }).from(articles).where(eq(articles.id, id));
    await assertAttachable(ctx.db, ctx.user, [input.image_id], 'image_id', IMAGE_GONE, { kept: [current?.imageId ?? null], accept: isImage });
    await audience.check(ctx, input);
  },
  values: (b: ArticleInput, { user }, created) => ({
    title: b.title,
    body: cleanBody(b.body),
    imageId: b.image_id,
    status: b.status,
    // Publishing without a time means now; a draft keeps the planned time, if any.
    publishAt: b.status === 'published' ? (b.publish_at ?? new Date()) : b.publish_at,
    isEmergency: b.is_emergency,
    ...(created ? { authorId: user.id } : {}),
  }),
  /** Publish or take back to drafts, as the form does: publishing keeps a planned time, or means now; a draft keeps its time. */
  async bulk(_app, { db }, row, data) {
    const publish = data.status === 'published';
    await db
      .update(articles)
      .set({
        status: publish ? 'published' : 'draft',
        ...(publish ? { publishAt: row.publishAt ?? new Date() } : {}),
        updatedAt: nextVersion(articles.updatedAt),
      })
      .where(eq(articles.id, row.id));
  },
  recordsJson: () => {
    const audience = audienceJson(AUDIENCE, articles.id);
    return pageArray(
      sql`json_build_object('id', ${articles.id}, 'title', ${articles.title}, 'body', ${articles.body}, 'excerpt', ${articles.excerpt},
        'image_id', ${articles.imageId}, 'image_url', ${mediaUrl('')} || ${media.key}, 'status', ${statusSql},
        'publish_at', ${isoSql(articles.publishAt)}, 'is_emergency', ${articles.isEmergency}, 'author', ${users.name}, ${audience.fields},
        'created_at', ${isoSql(articles.createdAt)}, 'updated_at', ${isoSql(articles.updatedAt)})`,
      sql`join ${articles} on ${articles.id} = ${LIST_PAGE}.id
        left join ${media} on ${media.id} = ${articles.imageId}
        left join ${users} on ${users.id} = ${articles.authorId}
        ${audience.joins}`,
    );
  },
  async toRecords({ db }, rows) {
    const ids = rows.map((r) => r.id);
    const [audiences, authors, keys] = await Promise.all([
      loadAudiences(db, AUDIENCE, ids),
      authorNames(
        db,
        rows.map((r) => r.authorId),
      ),
      fileKeys(
        db,
        rows.map((r) => r.imageId),
      ),
    ]);
    const now = new Date();
    return rows.map((r) => {
      return {
        id: r.id,
        title: r.title,
        body: r.body,
        excerpt: r.excerpt,
        image_id: r.imageId,
        image_url: r.imageId !== null && keys.has(r.imageId) ? mediaUrl(keys.get(r.imageId)!) : null,
        status: articleStatus(r, now),
        publish_at: r.publishAt?.toISOString() ?? null,
        is_emergency: r.isEmergency,
        author: r.authorId === null ? null : (authors.get(r.authorId) ?? null),
        ...audiences.get(r.id)!,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      };
    });
  },
});
