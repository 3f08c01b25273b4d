import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '../../../contract/common.ts';
import { organizations, supportMessages, users } from '../../db/schema.ts';
import { HttpError } from '../../lib/errors.ts';

const tags = ['support'];
const messageRecord = z.object({ id: z.number(), message: z.string(), created_at: z.string() });
const chatInput = z.object({ message: text('Повідомлення', { min: 2, max: 5000 }) });
/** At most this many messages to support per user per hour. */
const PER_HOUR = 10;

/**
 * POST /chat: the signed-in user writes to the service's support (SUPPORT_EMAIL). Each message
 * is kept, and sent by e-mail with the user's address to reply to; GET /chat lists them.
 */
export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/chat',
    { schema: { tags, summary: 'Мої звернення до підтримки', response: { 200: z.object({ data: z.array(messageRecord), support_email: z.string() }) } } },
    async (request) => {
      const rows = await db.select().from(supportMessages).where(eq(supportMessages.userId, request.user.id)).orderBy(desc(supportMessages.id)).limit(100);
      return { data: rows.map((r) => ({ id: r.id, message: r.body, created_at: r.createdAt.toISOString() })), support_email: app.config.supportEmail };
    },
  );

  app.post(
    '/chat',
    { schema: { tags, summary: 'Написати в підтримку', body: chatInput, response: { 200: z.object({ message: z.string(), data: messageRecord }) } } },
    async (request) => {
      const since = new Date(Date.now() - 3600_000);
      const recent = await db
        .select({ createdAt: supportMessages.createdAt })
        .from(supportMessages)
        .where(eq(supportMessages.userId, request.user.id))
        .orderBy(desc(supportMessages.id))
        .limit(PER_HOUR);
      if (recent.length >= PER_HOUR && recent[PER_HOUR - 1].createdAt > since) {
        throw new HttpError(429, 'Забагато повідомлень за годину. Спробуйте пізніше або напишіть на e-mail підтримки.', undefined, { 'Retry-After': '600' });
      }
      const [me] = await db
        .select({ name: users.name, email: users.email, organization: organizations.name })
        .from(users)
        .innerJoin(organizations, eq(organizations.id, users.organizationId))
        .where(eq(users.id, request.user.id));
      const [row] = await db
        .insert(supportMessages)
        .values({ organizationId: request.user.organizationId, userId: request.user.id, body: request.body.message })
        .returning();
      await app.delivery.send({
        channel: 'email',
        kind: 'support',
        to: app.config.supportEmail,
        replyTo: me.email,
        organizationId: request.user.organizationId,
        subject: `Звернення від ${me.name} (${me.organization})`,
        body: `${request.body.message}\n\n— ${me.name}, ${me.email}, ${me.organization}`,
      });
      return {
        message: 'Повідомлення надіслано. Підтримка відповість на ваш e-mail.',
        data: { id: row.id, message: row.body, created_at: row.createdAt.toISOString() },
      };
    },
  );
};
