import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { notificationRecord } from '../../../contract/serviceRequests.ts';
import { notifications } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { paginate, paginationSchema, listQuery } from '../../lib/pagination.ts';

const tags = ['notifications'];
const toRecord = (r: typeof notifications.$inferSelect) => ({
  id: r.id,
  kind: r.kind,
  request_id: r.requestId,
  text: r.text,
  read: r.readAt !== null,
  created_at: r.createdAt.toISOString(),
});

/**
 * The header's notifications: each user reads and marks only their own, so no permission area
 * guards them (like GET /user); what they point to is still checked when it is opened.
 */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, live } = app;

  const unreadCount = async (userId: number) => {
    const [{ n }] = await db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
    return Number(n);
  };

  app.get(
    '/notifications',
    {
      schema: {
        tags,
        summary: 'Мої сповіщення',
        description: 'Новіші першими; unread=1 — лише непрочитані. unread_count — скільки непрочитаних усього.',
        querystring: listQuery.pick({ page: true, per_page: true }).extend({ unread: z.enum(['0', '1'], { error: 'unread: 1 або 0.' }).optional() }),
        response: { 200: z.object({ data: z.array(notificationRecord), pagination: paginationSchema, unread_count: z.number() }) },
      },
    },
    async (request) => {
      const q = request.query;
      const where = and(eq(notifications.userId, request.user.id), q.unread === '1' ? isNull(notifications.readAt) : undefined);
      const [[{ total }], rows, unread] = await Promise.all([
        db.select({ total: count() }).from(notifications).where(where),
        db
          .select()
          .from(notifications)
          .where(where)
          .orderBy(desc(notifications.createdAt), desc(notifications.id))
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
        unreadCount(request.user.id),
      ]);
      return { data: rows.map(toRecord), pagination: paginate(total, q.page, q.per_page), unread_count: unread };
    },
  );

  app.get(
    '/notifications/unread_count',
    { schema: { tags, summary: 'Кількість непрочитаних сповіщень', response: { 200: z.object({ unread_count: z.number() }) } } },
    async (request) => ({ unread_count: await unreadCount(request.user.id) }),
  );

  const changed = (organizationId: number, userId: number) => live.publish({ type: 'notification', organizationId, userId });

  app.post(
    '/notifications/:id/read',
    {
      schema: {
        tags,
        summary: 'Позначити сповіщення прочитаним',
        params: z.object({ id: idSchema }),
        response: { 200: z.object({ data: notificationRecord, unread_count: z.number() }) },
      },
    },
    async (request) => {
      const [row] = await db
        .update(notifications)
        .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
        .where(and(eq(notifications.id, request.params.id), eq(notifications.userId, request.user.id)))
        .returning();
      if (!row) throw notFound('Сповіщення не знайдено.');
      await changed(request.user.organizationId, request.user.id);
      return { data: toRecord(row), unread_count: await unreadCount(request.user.id) };
    },
  );

  app.post(
    '/notifications/read_all',
    { schema: { tags, summary: 'Позначити всі сповіщення прочитаними', response: { 200: z.object({ unread_count: z.number() }) } } },
    async (request) => {
      await db
        .update(notifications)
        .set({ readAt: sql`now()` })
        .where(and(eq(notifications.userId, request.user.id), isNull(notifications.readAt)));
      await changed(request.user.organizationId, request.user.id);
      return { unread_count: 0 };
    },
  );
};
