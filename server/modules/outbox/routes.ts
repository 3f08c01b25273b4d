import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MESSAGE_KINDS, outboxRecord } from '../../../contract/outbox.ts';
import { outbox } from '../../db/schema.ts';
import { forbidden } from '../../lib/errors.ts';
import { listPage } from '../../lib/list.ts';
import { listQuery, paginationSchema } from '../../lib/pagination.ts';

/**
 * Mail and SMS written by the delivery module, for admins: recipient, kind and delivery state.
 * The text (codes, links) only in the development outbox: no transport and not production.
 */
export const outboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const showContent = app.delivery.devOutbox;
  app.get(
    '/outbox',
    {
      schema: {
        tags: ['outbox'],
        summary: 'Вихідні листи та SMS: кому, що і стан доставки (для адміністратора)',
        description:
          'Текст повідомлень (коди, посилання) видно лише в режимі розробки — без SMTP_URL і SMS_GATEWAY_URL і не в production; інакше ' +
          'subject — назва виду повідомлення, а body — null.',
        querystring: listQuery.pick({ page: true, per_page: true }),
        response: { 200: z.object({ data: z.array(outboxRecord), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      if (!request.user.isAdmin) throw forbidden();
      return listPage({
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
            kind: m.kind,
            recipient: m.recipient,
            subject: showContent && m.subject ? m.subject : MESSAGE_KINDS[m.kind],
            body: showContent ? m.body : null,
            status: m.status,
            created_at: m.createdAt.toISOString(),
            sent_at: m.sentAt?.toISOString() ?? null,
            error: m.error,
          };
        },
      });
    },
  );
};
