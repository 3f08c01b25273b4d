import type { ServerResponse } from 'node:http';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { canAccess } from '../../../contract/permissions.ts';
import type { LiveEvent } from '../../../contract/serviceRequests.ts';
import { liveTickets } from '../../db/schema.ts';
import { loadCurrentUserByTokenId, unauthenticated, type CurrentUser } from '../../lib/auth.ts';
import { newToken, hashToken } from '../../lib/secrets.ts';

const TICKET_SECONDS = 60;
/** A comment line now and then keeps proxies from closing an idle stream, and re-checks the session. */
const HEARTBEAT_MS = 25_000;

/** Whether a change concerns the user: their own notifications; requests of their complexes. */
export function visibleTo(user: CurrentUser, e: LiveEvent): boolean {
  if (e.organizationId !== user.organizationId) return false;
  if (e.type === 'notification') return e.userId === user.id;
  if (!canAccess(user.rules, 'service_requests', 'view')) return false;
  if (user.complexIds === null) return true;
  return e.complexId !== null && e.complexId !== undefined && user.complexIds.includes(e.complexId);
}

/**
 * POST /live/ticket (with the bearer token): a one-minute, single-use ticket for the stream.
 * The SPA's EventSource cannot send headers, and the bearer token itself is not put into a URL.
 */
export const liveTicketRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  app.post(
    '/live/ticket',
    {
      schema: {
        tags: ['live'],
        summary: 'Квиток для потоку живих оновлень',
        description: `Одноразовий, дійсний ${TICKET_SECONDS} с. Далі: GET /api/admin/live?ticket=… (text/event-stream).`,
        response: { 200: z.object({ ticket: z.string(), expires_in: z.number() }) },
      },
    },
    async (request) => {
      const { token, hash } = newToken();
      // Old tickets are swept as new ones are issued.
      await db.delete(liveTickets).where(lt(liveTickets.expiresAt, new Date(Date.now() - 3600_000)));
      await db.insert(liveTickets).values({ tokenId: request.user.tokenId, ticketHash: hash, expiresAt: new Date(Date.now() + TICKET_SECONDS * 1000) });
      return { ticket: token, expires_in: TICKET_SECONDS };
    },
  );
};

/**
 * GET /live?ticket=…: a server-sent events stream of changes the user may see — `request`
 * (created, updated, deleted), `chat` (a message written, edited or removed) and `notification`
 * — each with the request's id, so an open screen reads what changed. Ends when the session does.
 */
export const liveStreamRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, live } = app;
  const open = new Set<ServerResponse>();
  // Open streams would keep the server from closing: they end first.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });
  app.get(
    '/live',
    {
      schema: {
        tags: ['live'],
        summary: 'Потік живих оновлень (server-sent events)',
        security: [],
        querystring: z.object({ ticket: z.string().max(100).optional() }),
      },
    },
    async (request, reply) => {
      const ticket = request.query.ticket;
      if (!ticket) throw unauthenticated();
      const [used] = await db
        .update(liveTickets)
        .set({ usedAt: new Date() })
        .where(and(eq(liveTickets.ticketHash, hashToken(ticket)), isNull(liveTickets.usedAt), gt(liveTickets.expiresAt, new Date())))
        .returning({ tokenId: liveTickets.tokenId });
      if (!used) throw unauthenticated();
      const user = await loadCurrentUserByTokenId(db, used.tokenId);
      if (!user || user.mustChangePassword) throw unauthenticated();

      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        // Written past the app's hooks (the stream is hijacked), so the API's no-store is set here too.
        'Cache-Control': 'no-store, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
        'X-Content-Type-Options': 'nosniff',
      });
      res.write(`retry: 3000\n\nevent: ready\ndata: {}\n\n`);
      const unsubscribe = live.subscribe(user.organizationId, (e) => {
        if (!visibleTo(user, e)) return;
        const data = { request_id: e.requestId ?? null, action: e.action ?? null, chat_type: e.chatType ?? null };
        res.write(`event: ${e.type}\ndata: ${JSON.stringify(data)}\n\n`);
      });
      const heartbeat = setInterval(() => {
        void loadCurrentUserByTokenId(db, used.tokenId)
          .then((still) => {
            if (!still) res.end();
            else res.write(': ping\n\n');
          })
          .catch(() => res.write(': ping\n\n'));
      }, HEARTBEAT_MS);
      heartbeat.unref();
      open.add(res);
      const stop = () => {
        open.delete(res);
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.raw.on('close', stop);
      res.on('close', stop);
      res.on('error', stop);
    },
  );
};
