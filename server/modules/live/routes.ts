import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { canAccess } from '../../../contract/permissions.ts';
import type { LiveEvent } from '../../../contract/serviceRequests.ts';
import { liveTickets } from '../../db/schema.ts';
import type { BusEvent } from '../../lib/live.ts';
import { loadCurrentUserByTokenId, unauthenticated, type CurrentUser } from '../../lib/auth.ts';
import { newToken, hashToken } from '../../lib/secrets.ts';

const TICKET_SECONDS = 60;
/** A comment line now and then keeps proxies from closing an idle stream, and re-checks the session. */
const HEARTBEAT_MS = 25_000;
/** Changes held while the user's scope is being read again; a stream past this ends instead. */
const MAX_WAITING = 1000;

/** Whether a change concerns the user: their own notifications; requests of their complexes. */
export function visibleTo(user: CurrentUser, e: BusEvent): boolean {
  if (e.type === 'access') return false;
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

      // The headers set so far (the security headers of every answer) go with the stream's own.
      const headers = reply.getHeaders() as OutgoingHttpHeaders;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        // Written past the app's hooks (the stream is hijacked), so the API's no-store is set here too.
        'cache-control': 'no-store, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write(`retry: 3000\n\nevent: ready\ndata: {}\n\n`);

      /**
       * The user as this stream knows them. When their rights, complexes or sessions change
       * (an `access` event on the bus), or at every heartbeat, they are read again; until that
       * read is done, changes wait here and are then judged by the new scope. A session that
       * ended, or a read that fails after an access change, ends the stream (the SPA takes a new
       * ticket and opens it again with whatever the user may see now).
       */
      let current: CurrentUser = user;
      let ended = false;
      let checks = 0;
      let waiting: LiveEvent[] = [];
      const send = (e: LiveEvent) => {
        if (ended || !visibleTo(current, e)) return;
        const data = { request_id: e.requestId ?? null, action: e.action ?? null, chat_type: e.chatType ?? null };
        res.write(`event: ${e.type}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const end = () => {
        if (ended) return;
        stop();
        waiting = [];
        res.end();
      };
      let chain = Promise.resolve();
      const recheck = (onFailure: 'end' | 'keep') => {
        checks += 1;
        chain = chain
          .then(async () => {
            if (ended) return;
            let fresh: CurrentUser | undefined;
            try {
              fresh = await loadCurrentUserByTokenId(db, used.tokenId);
            } catch (err) {
              // The database is away: a heartbeat keeps the stream (it recovers by itself), an
              // access change cannot be checked, so the stream ends rather than guess.
              request.log.warn({ err }, 'live stream could not re-check its session');
              if (onFailure === 'end') end();
              else res.write(': ping\n\n');
              return;
            }
            if (!fresh || fresh.mustChangePassword) return end();
            current = fresh;
            if (onFailure === 'keep') res.write(': ping\n\n');
          })
          .finally(() => {
            checks -= 1;
            if (checks === 0 && !ended) {
              const held = waiting;
              waiting = [];
              for (const e of held) send(e);
            }
          });
      };
      const unsubscribe = live.subscribe(user.organizationId, (e: BusEvent) => {
        if (ended) return;
        if (e.type === 'access') {
          if (e.userIds === null || e.userIds.includes(current.id)) recheck('end');
          return;
        }
        if (checks === 0) return send(e);
        // A stream whose check hangs does not hoard changes for ever.
        if (waiting.length >= MAX_WAITING) return end();
        waiting.push(e);
      });
      const heartbeat = setInterval(() => recheck('keep'), HEARTBEAT_MS);
      heartbeat.unref();
      open.add(res);
      function stop() {
        ended = true;
        open.delete(res);
        clearInterval(heartbeat);
        unsubscribe();
      }
      request.raw.on('close', stop);
      res.on('close', stop);
      res.on('error', stop);
    },
  );
};
