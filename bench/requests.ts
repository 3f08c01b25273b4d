/**
 * Service requests at scale: generates (bench/data) 200,000 requests over 1,000 houses and prints p50/p99 of
 * GET /service_request pages with filters under concurrent load (autocannon), then the live
 * stream's fan-out: 500 SSE subscribers, chat messages posted one after another, and the delay
 * from each post to each subscriber receiving its event.
 *   npx tsx bench/requests.ts            (PGlite, in-process delivery)
 *   DATABASE_URL=postgres://… npx tsx bench/requests.ts
 *     (PostgreSQL: the subscribers listen on one app instance and the messages are posted through
 *     a second one, so every event travels by NOTIFY/LISTEN as between two API processes)
 * BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_REQUESTS, BENCH_SUBSCRIBERS, BENCH_MESSAGES tune it.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ANCHOR, generateData } from './data/generate.ts';
import { CONNECTIONS, printLoadTable, SECONDS, startSignedIn } from './lib.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200_000);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 500);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20);

type Rows<T> = { rows: T[] };

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-bench-requests-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: process.env.DATABASE_URL }), port: 0 };
  const source = config.databaseUrl
    ? ({ kind: 'postgres', url: config.databaseUrl } as const)
    : ({ kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') } as const);
  const database = await openDatabase(source);
  const { db } = database;
  // Generated data (bench/data): 1,000 houses with 10 units each, their owners, staff, and
  // BENCH_REQUESTS requests spread over them.
  const started = Date.now();
  await generateData(db, config, { complexes: 5, houses: 1000, unitsPerHouse: 10, members: 10_000, staff: 20, requests: REQUESTS, articles: 0 }, 1);
  const [{ n }] = ((await db.execute(sql`select count(*)::int as n from service_requests`)) as unknown as Rows<{ n: number }>).rows;
  const [{ complex }] = (
    (await db.execute(sql`select min(id)::int as complex from complexes where name like 'ЖК «Генерований %'`)) as unknown as Rows<{ complex: number }>
  ).rows;
  const houseIds = (
    (await db.execute(sql`select id from houses where complex_id = ${complex} order by id limit 5`)) as unknown as Rows<{ id: number }>
  ).rows.map((r) => r.id);
  const [{ engineer }] = (
    (await db.execute(sql`select min(id)::int as engineer from users where email like 'staff%@gen.demo.ua'`)) as unknown as Rows<{ engineer: number }>
  ).rows;
  console.log(`\nSeeded ${n} service requests in ${((Date.now() - started) / 1000).toFixed(1)} s (${database.driver})`);

  const { app, base, token } = await startSignedIn(config, database);
  const monthAgo = new Date(Date.parse(ANCHOR) - 30 * 86400_000).toISOString().slice(0, 10);
  const houses = houseIds.map((id) => `house_ids[]=${id}`).join('&');
  const scenarios: [string, (i: number) => string][] = [
    ['list, newest first (pages 1..200, 25 per page)', (i) => `/api/admin/service_request?page=${(i % 200) + 1}&per_page=25`],
    [
      'stage=executor & complex_id (header selection)',
      (i) => `/api/admin/service_request?stage=executor&complex_id=${complex}&page=${(i % 50) + 1}&per_page=25`,
    ],
    ['complex_id & house_ids[] (5 addresses)', (i) => `/api/admin/service_request?complex_id=${complex}&${houses}&page=${(i % 50) + 1}&per_page=25`],
    ['overdue=1, sort=deadline', (i) => `/api/admin/service_request?overdue=1&sort=deadline&page=${(i % 50) + 1}&per_page=25`],
    [
      'performer_id & created in the last 30 days (of the data)',
      (i) => `/api/admin/service_request?performer_id=${engineer}&created_from=${monthAgo}&page=${(i % 10) + 1}&per_page=25`,
    ],
    [
      'search_query (text words)',
      (i) => `/api/admin/service_request?search_query=${encodeURIComponent(['ліфт', 'змішувач', 'сміття', 'розетка'][i % 4])}&per_page=25`,
    ],
    ['search_query (a request number)', (i) => `/api/admin/service_request?search_query=${encodeURIComponent(`№${1000 + (i % 5000) * 37}`)}&per_page=25`],
    ['sort=stage, type_id', (i) => `/api/admin/service_request?sort=stage&type_id=${1 + (i % 5)}&page=${(i % 20) + 1}&per_page=25`],
  ];
  console.log(`${CONNECTIONS} connections × ${SECONDS} s each\n`);
  await printLoadTable(base, token, scenarios);

  // ── live fan-out ──
  // On PostgreSQL the messages go through a second app instance (own pool, own LISTEN connection).
  let postBase = base;
  let second: { close(): Promise<unknown> } | undefined;
  if (database.driver === 'postgres') {
    const otherDb = await openDatabase(source, { migrate: false });
    const other = await buildApp({ config, database: otherDb });
    await other.listen({ port: 0, host: '127.0.0.1' });
    const address = other.server.address();
    postBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    second = { close: async () => (await other.close(), await otherDb.close()) };
  }
  const auth = { Authorization: `Bearer ${token}` };
  const [{ requestId }] = (
    (await db.execute(sql`select id as "requestId" from service_requests order by id desc limit 1`)) as unknown as Rows<{ requestId: number }>
  ).rows;

  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const received: number[][] = Array.from({ length: MESSAGES }, () => []);
  const sentAt: number[] = [];
  const streams: http.ClientRequest[] = [];
  const openStart = Date.now();
  await Promise.all(
    Array.from({ length: SUBSCRIBERS }, async () => {
      const { ticket } = (await (await fetch(`${base}/api/admin/live/ticket`, { method: 'POST', headers: auth })).json()) as { ticket: string };
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${base}/api/admin/live?ticket=${ticket}`, { agent }, (res) => {
          res.setEncoding('utf8');
          let buffer = '';
          // Messages are posted one at a time, each after every subscriber got the previous one:
          // a subscriber's k-th chat event is the k-th message.
          let count = 0;
          res.on('data', (chunk: string) => {
            buffer += chunk;
            if (buffer.includes('event: ready')) resolve();
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) !== -1) {
              const frame = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              if (!frame.startsWith('event: chat') || count >= MESSAGES) continue;
              const k = count++;
              received[k].push(Date.now() - sentAt[k]);
            }
          });
        });
        req.on('error', reject);
        streams.push(req);
      });
    }),
  );
  console.log(`\n${SUBSCRIBERS} SSE subscribers connected in ${((Date.now() - openStart) / 1000).toFixed(1)} s`);

  for (let k = 0; k < MESSAGES; k++) {
    const form = new FormData();
    form.append('chat_type', 'staff_chat');
    form.append('message', `Повідомлення ${k + 1}`);
    sentAt[k] = Date.now();
    const res = await fetch(`${postBase}/api/admin/service_request/chat/${requestId}`, { method: 'POST', headers: auth, body: form });
    if (!res.ok) throw new Error(`post failed: ${res.status} ${await res.text()}`);
    const deadline = Date.now() + 5000;
    while (received[k].length < SUBSCRIBERS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  }
  const all = received.flat().sort((a, b) => a - b);
  const lastPerMessage = received.map((r) => Math.max(...r)).sort((a, b) => a - b);
  console.log(`\n| live fan-out (${database.driver === 'postgres' ? 'NOTIFY/LISTEN across two app instances' : 'in-process'}) | value |`);
  console.log('|---|---|');
  console.log(`| messages × subscribers | ${MESSAGES} × ${SUBSCRIBERS} |`);
  console.log(`| deliveries received | ${all.length} of ${MESSAGES * SUBSCRIBERS} |`);
  console.log(`| delivery latency p50 (post sent → event received) | ${percentile(all, 50)} ms |`);
  console.log(`| delivery latency p99 | ${percentile(all, 99)} ms |`);
  console.log(`| delivery latency max | ${all.at(-1) ?? 0} ms |`);
  console.log(`| last subscriber reached, p50 over messages | ${percentile(lastPerMessage, 50)} ms |`);

  for (const s of streams) s.destroy();
  agent.destroy();
  await second?.close();
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
