import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { outbox } from '../../db/schema.ts';
import { forbidden } from '../../lib/errors.ts';
import { listPage } from '../../lib/list.ts';
import { listQuery, paginationSchema } from '../../lib/pagination.ts';

const message = z.object({
  id: z.number(),
  channel: z.enum(['email', 'sms']),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
});

/** Mail and SMS written by the delivery module, readable by admins when no SMTP is configured. */
export const outboxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/outbox',
    {
      schema: {
        tags: ['outbox'],
        summary: 'Вихідні листи та SMS (для адміністратора)',
        querystring: listQuery.pick({ page: true, per_page: true }),
        response: { 200: z.object({ data: z.array(message), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      if (!request.user.isAdmin) throw forbidden();
      const page = await listPage({
        db: app.db,
        table: outbox,
        where: eq(outbox.organizationId, request.user.organizationId),
        orderBy: [desc(outbox.id)],
        page: request.query.page,
        perPage: request.query.per_page,
        map: (r) => {
          const m = r as typeof outbox.$inferSelect;
          return {
            id: m.id,
            channel: m.channel,
            recipient: m.recipient,
            subject: m.subject,
            body: m.body,
            created_at: m.createdAt.toISOString(),
            sent_at: m.sentAt?.toISOString() ?? null,
            error: m.error,
          };
        },
      });
      return page;
    },
  );
};
