/**
 * Members on a large organization: generates BENCH_MEMBERS (default 1,000,000) members linked to
 * the 200,000 units of the large scale (bench/data), then prints p50/p99 of the members list (filtered, searched,
 * sorted) under concurrent load, of its page and count queries on their own, and the memory of
 * a full CSV export (it must stay flat, whatever the row count).
 * `npx tsx bench/members.ts`; DATABASE_URL selects PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import { generateData } from './data/generate.ts';
import { SCALES } from './data/scales.ts';
import { CONNECTIONS, printLoadTable, SECONDS, startSignedIn } from './lib.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase, queryRows } from '../server/db/index.ts';
import { members } from '../server/db/schema.ts';
import { ukrainianSortKey } from '../server/lib/sortKey.ts';
import type { CurrentUser } from '../server/lib/auth.ts';
import { membersWhere } from '../server/modules/members/filters.ts';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 1_000_000);

/** Runs `task` from CONNECTIONS workers for SECONDS and answers its latency percentiles in ms. */
async function underLoad(task: () => Promise<unknown>) {
  const latencies: number[] = [];
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const started = performance.now();
        await task();
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(0);
  return { n: latencies.length, p50: at(50), p99: at(99) };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-bench-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: process.env.DATABASE_URL }), port: 0 };
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') },
  );
  const { db } = database;
  // The large scale's houses and units (bench/data), with BENCH_MEMBERS members; no requests or news.
  let started = Date.now();
  const { organizationId: org } = await generateData(db, config, { ...SCALES.large, members: MEMBERS, requests: 0, articles: 0 }, 1);
  const [{ n }] = await db.select({ n: count() }).from(members);
  const [{ links }] = await queryRows<{ links: number }>(db, sql`select count(*)::int as links from residents`);
  console.log(`\nSeeded ${n} members and ${links} unit links in ${((Date.now() - started) / 1000).toFixed(0)} s (${database.driver})`);

  const [complex] = await queryRows<{ id: number }>(
    db,
    sql`select min(id)::int as id from complexes where organization_id = ${org} and name like 'ЖК «Генерований %'`,
  );
  const someHouses = await queryRows<{ id: number }>(db, sql`select id from houses where complex_id = ${complex.id} order by id limit 20`);
  const houseQs = someHouses.map((h) => `house_ids[]=${h.id}`).join('&');
  const q = encodeURIComponent;
  const { app, base, token } = await startSignedIn(config, database);

  console.log(`${CONNECTIONS} connections × ${SECONDS} s each\n`);
  await printLoadTable(base, token, [
    ['GET /members sorted by name (pages 1..100, 25 per page)', (i) => `/api/admin/members?sort=name&page=${(i % 100) + 1}&per_page=25`],
    [
      'GET /members complex + 20 houses + search «Коваленко» + sort name',
      () => `/api/admin/members?complex_id=${complex.id}&${houseQs}&search_query=${q('Коваленко')}&sort=name&per_page=25`,
    ],
    [
      'GET /members complex + status=inactive + sort name desc',
      () => `/api/admin/members?complex_id=${complex.id}&status=inactive&sort=name&order=desc&per_page=25`,
    ],
    ['GET /members search phone «095 000 12» (as typed)', (i) => `/api/admin/members?search_query=${q(`095 000 ${10 + (i % 80)}`)}&per_page=25`],
    ['GET /members search unit number «17»', () => `/api/admin/members?search_query=17&complex_id=${complex.id}&per_page=25`],
  ]);

  // The list's two queries on their own, for the heaviest filter above.
  const admin: CurrentUser = { id: 0, organizationId: org, tokenId: 0, isAdmin: true, mustChangePassword: false, rules: {}, complexIds: null };
  const where = await membersWhere(db, admin, { search_query: 'Коваленко', complex_id: complex.id, house_ids: someHouses.map((h) => h.id) });
  const page = await underLoad(() => db.select().from(members).where(where).orderBy(ukrainianSortKey(members.name), members.id).limit(25));
  const total = await underLoad(() => db.select({ n: count() }).from(members).where(where));
  const all = await underLoad(() =>
    db
      .select({ n: count() })
      .from(members)
      .where(sql`${members.organizationId} = ${org}`),
  );
  console.log('\n| query (complex + 20 houses + search, sorted) | runs | p50 ms | p99 ms |');
  console.log('|---|---|---|---|');
  console.log(`| page (25 rows) | ${page.n} | ${page.p50} | ${page.p99} |`);
  console.log(`| count | ${total.n} | ${total.p50} | ${total.p99} |`);
  console.log(`| count of all ${n} members | ${all.n} | ${all.p50} | ${all.p99} |`);

  // Export: the whole organization as CSV, read and thrown away; RSS sampled while it streams.
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  started = Date.now();
  const res = await fetch(`${base}/api/admin/members/export?format=csv`, { headers: { Authorization: `Bearer ${token}` } });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines += 1;
  }
  clearInterval(sampler);
  const mb = (v: number) => `${(v / 2 ** 20).toFixed(0)} MiB`;
  console.log(
    `\nExport CSV of ${lines - 1} members: ${mb(bytes)} in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
      `process RSS ${mb(baseline)} before, peak ${mb(peak)} (+${mb(peak - baseline)})`,
  );

  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
