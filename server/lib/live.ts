import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent } from '../../contract/serviceRequests.ts';

/**
 * Not for clients: the rights, complexes or sessions of some users changed (all of the
 * organization's when `userIds` is null), so their open streams check their session and scope
 * again before delivering anything more (server/modules/live).
 */
export interface AccessChange {
  type: 'access';
  organizationId: number;
  userIds: number[] | null;
}

/** What travels on the bus: the changes clients hear about, and access changes. */
export type BusEvent = LiveEvent | AccessChange;

type Listener = (event: BusEvent) => void;

/** Above this many users an access change is announced for the whole organization (NOTIFY payloads are small). */
const MAX_NAMED_USERS = 200;

/**
 * Tells open streams that these users' rights, complexes or sessions changed. Call it after the
 * change is committed; streams then read the user again and end when the session did.
 */
export function accessChanged(live: LiveBus, organizationId: number, userIds: number[] | null): Promise<void> {
  const ids = userIds === null || userIds.length > MAX_NAMED_USERS ? null : [...new Set(userIds)];
  if (ids?.length === 0) return Promise.resolve();
  return live.publish({ type: 'access', organizationId, userIds: ids });
}

/**
 * Live updates for open screens: a change is published once and every process delivers it to
 * its own subscribers (the SSE streams of its clients), per organization.
 */
export interface LiveBus {
  publish(event: BusEvent): Promise<void>;
  subscribe(organizationId: number, listener: Listener): () => void;
  subscriberCount(): number;
  close(): Promise<void>;
}

/** Subscribers of this process, grouped by organization so a change is offered only to its own. */
class LocalFanOut {
  private readonly byOrg = new Map<number, Set<Listener>>();
  private count = 0;

  subscribe(organizationId: number, listener: Listener) {
    let set = this.byOrg.get(organizationId);
    if (!set) this.byOrg.set(organizationId, (set = new Set()));
    set.add(listener);
    this.count += 1;
    return () => {
      if (set.delete(listener)) this.count -= 1;
      if (set.size === 0 && this.byOrg.get(organizationId) === set) this.byOrg.delete(organizationId);
    };
  }

  deliver(event: BusEvent, log?: FastifyBaseLogger) {
    const set = this.byOrg.get(event.organizationId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch (err) {
        log?.warn({ err }, 'live listener failed');
      }
    }
  }

  size() {
    return this.count;
  }
}

/** PGlite is one process: delivery stays in memory. */
export function createLocalLiveBus(log?: FastifyBaseLogger): LiveBus {
  const fanOut = new LocalFanOut();
  return {
    async publish(event) {
      // Delivered after the caller's work, never inside it: a slow stream must not hold a request.
      queueMicrotask(() => fanOut.deliver(event, log));
    },
    subscribe: (org, listener) => fanOut.subscribe(org, listener),
    subscriberCount: () => fanOut.size(),
    async close() {},
  };
}

export const LIVE_CHANNEL = 'zhk_live';
const MIN_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/**
 * Several API processes against one PostgreSQL: a change is sent with NOTIFY, and each process
 * LISTENs on one dedicated connection and delivers what arrives (its own changes included) to
 * its subscribers. When that connection drops (PostgreSQL restarted or unreachable) it is opened
 * again by itself, retrying with a growing pause (up to 10 s) for as long as it takes.
 */
export async function createPgLiveBus(url: string, log: FastifyBaseLogger): Promise<LiveBus> {
  const fanOut = new LocalFanOut();
  let closed = false;
  let listener: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelay = MIN_RETRY_MS;
  let lost = false;
  // NOTIFY goes through a small pool of its own, so publishing never waits for the app's queries.
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 2000 });
  pool.on('error', () => {});

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, retryDelay);
    retryTimer.unref();
    retryDelay = Math.min(retryDelay * 2, MAX_RETRY_MS);
  };

  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, keepAlive: true });
    let dropped = false;
    const drop = (err?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (listener === client) listener = undefined;
      if (!closed) {
        if (!lost) log.warn({ err }, 'live listener connection lost; reconnecting');
        lost = true;
      }
      client.end().catch(() => {});
      scheduleReconnect();
    };
    client.on('notification', (msg) => {
      if (msg.channel !== LIVE_CHANNEL || !msg.payload) return;
      try {
        fanOut.deliver(JSON.parse(msg.payload) as BusEvent, log);
      } catch (err) {
        log.warn({ err }, 'bad live notification');
      }
    });
    client.on('error', (err) => drop(err));
    client.on('end', () => drop());
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
    } catch (err) {
      drop(err);
      return;
    }
    if (dropped) return;
    if (closed) {
      await client.end().catch(() => {});
      return;
    }
    listener = client;
    retryDelay = MIN_RETRY_MS;
    if (lost) log.info('live listener reconnected');
    lost = false;
  };
  await connect();

  return {
    async publish(event) {
      try {
        await pool.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, JSON.stringify(event)]);
      } catch (err) {
        // A lost live update is not worth failing the change that caused it; screens re-read on reconnect.
        log.warn({ err }, 'live publish failed');
      }
    },
    subscribe: (org, l) => fanOut.subscribe(org, l),
    subscriberCount: () => fanOut.size(),
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}
