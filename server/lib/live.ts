import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent } from '../../contract/serviceRequests.ts';

type Listener = (event: LiveEvent) => void;

/**
 * Live updates for open screens: a change is published once and every process delivers it to
 * its own subscribers (the SSE streams of its clients), per organization.
 */
export interface LiveBus {
  publish(event: LiveEvent): Promise<void>;
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

  deliver(event: LiveEvent, log?: FastifyBaseLogger) {
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

/**
 * Several API processes against one PostgreSQL: a change is sent with NOTIFY, and each process
 * LISTENs on one dedicated connection and delivers what arrives (its own changes included) to
 * its subscribers. The connection is re-opened when it drops.
 */
export async function createPgLiveBus(url: string, log: FastifyBaseLogger): Promise<LiveBus> {
  const fanOut = new LocalFanOut();
  let closed = false;
  let listener: pg.Client | undefined;
  // NOTIFY goes through a small pool of its own, so publishing never waits for the app's queries.
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});

  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (msg) => {
      if (msg.channel !== LIVE_CHANNEL || !msg.payload) return;
      try {
        fanOut.deliver(JSON.parse(msg.payload) as LiveEvent, log);
      } catch (err) {
        log.warn({ err }, 'bad live notification');
      }
    });
    const reconnect = () => {
      if (closed || listener !== client) return;
      listener = undefined;
      setTimeout(() => void connect().catch((err) => log.error({ err }, 'live listener reconnect failed')), 1000).unref();
    };
    client.on('error', (err) => {
      log.warn({ err }, 'live listener connection error');
      reconnect();
    });
    client.on('end', reconnect);
    await client.connect();
    await client.query(`LISTEN ${LIVE_CHANNEL}`);
    listener = client;
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
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}
