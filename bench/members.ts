/**
 * Members on a large organization: seeds BENCH_MEMBERS (default 1,000,000) members linked to
 * 200,000 apartments in 1,000 houses, then prints p50/p99 of the members list (filtered, searched,
 * sorted) under concurrent load, of its page and count queries on their own, and the memory of
 * a full CSV export (it must stay flat, whatever the row count).
 * `npx tsx bench/members.ts`; DATABASE_URL selects PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, sql, type SQL } from 'drizzle-orm';
import { CONNECTIONS, printLoadTable, SECONDS, startSignedIn } from './lib.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase, type Db } from '../server/db/index.ts';
import { importReferenceData } from '../server/db/importReference.ts';
import { members } from '../server/db/schema.ts';
import { seedIfEmpty } from '../server/db/seed.ts';
import { ukrainianSortKey } from '../server/lib/sortKey.ts';
import { residentRolesOf } from '../server/modules/members/roles.ts';
import type { CurrentUser } from '../server/lib/auth.ts';
import { membersWhere } from '../server/modules/members/filters.ts';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 1_000_000);
const HOUSES = 1000;
const UNITS_PER_HOUSE = 200;

const rows = async <T,>(db: Db, query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

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
  const database = await openDatabase(config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') });
  const { db } = database;
  await importReferenceData(db);
  await seedIfEmpty(db, config);
  const [{ org }] = await rows<{ org: number }>(db, sql`select id as org from organizations order by id limit 1`);
  const roles = await residentRolesOf(db, org);
  const owner = roles.find((r) => r.code === 'owner')!.id;
  const family = roles.find((r) => r.code === 'family')!.id;

  let started = Date.now();
  await db.execute(sql`
    insert into houses (organization_id, complex_id, settlement_id, street_id, number, building)
    select c.organization_id, c.id, s.settlement_id, s.id, 'М' || g::text, ''
    from generate_series(1, ${HOUSES}) g
    join lateral (select id, organization_id from complexes order by id offset (g % 5) limit 1) c on true
    join lateral (select id, settlement_id from streets where settlement_id = (select id from settlements where name = 'Київ' and category = 'К' limit 1) order by id offset (g % 500) limit 1) s on true
    on conflict do nothing`);
  await db.execute(sql`
    insert into realty (organization_id, house_id, type, number, area, floor, entrance)
    select h.organization_id, h.id, 'apartment', n::text, 30 + n % 70, 1 + n % 25, 1 + n % 4
    from houses h cross join generate_series(1, ${UNITS_PER_HOUSE}) n where h.number like 'М%'`);
  // Plausible names: 40 surnames × 20 first names × 12 patronymics; phones and e-mails unique.
  await db.execute(sql`
    insert into members (organization_id, name, phone, email, status)
    select ${org},
      (array['Коваленко','Бондаренко','Ткаченко','Шевчук','Мельник','Кравчук','Олійник','Савченко','Руденко','Марченко','Гончаренко','Лисенко','Павленко','Захарченко','Остапчук','Гриценко','Яковенко','Литвиненко','Сидоренко','Поліщук','Іваненко','Петренко','Кузьменко','Мороз','Бойко','Ковальчук','Романенко','Тимошенко','Харченко','Юрченко','Левченко','Ґудзь','Єременко','Антоненко','Дмитренко','Власенко','Клименко','Зінченко','Федоренко','Черненко'])[1 + g % 40] || ' ' ||
      (array['Олександр','Андрій','Богдан','Віталій','Дмитро','Тарас','Юрій','Ігор','Сергій','Максим','Олена','Ірина','Наталія','Оксана','Тетяна','Марія','Ганна','Юлія','Світлана','Катерина'])[1 + (g / 40) % 20] || ' ' ||
      (array['Олександрович','Андрійович','Богданович','Петрович','Іванович','Миколайович','Олександрівна','Андріївна','Богданівна','Петрівна','Іванівна','Миколаївна'])[1 + (g / 800) % 12],
      '+38067' || lpad(g::text, 7, '0'),
      case when g % 3 = 0 then null else 'member' || g || '@ukr.net' end,
      case when g % 23 = 0 then 'inactive' else 'active' end
    from generate_series(1, ${MEMBERS}) g`);
  // Every member lives in one apartment (ids of both are consecutive: each came from one
  // statement): the first of each apartment is its owner, the others family.
  const [u] = await rows<{ first: number; total: number }>(db, sql`select min(r.id)::int as first, count(*)::int as total from realty r join houses h on h.id = r.house_id where h.number like 'М%'`);
  const [m] = await rows<{ first: number }>(db, sql`select min(id)::int as first from members where organization_id = ${org}`);
  await db.execute(sql`
    insert into residents (organization_id, member_id, realty_id, role_id, share_numerator, share_denominator)
    select ${org}::int, id, ${u.first}::int + (id - ${m.first}::int) % ${u.total}::int,
      case when id - ${m.first}::int < ${u.total}::int then ${owner}::int else ${family}::int end,
      case when id - ${m.first}::int < ${u.total}::int then 1 end, case when id - ${m.first}::int < ${u.total}::int then 1 end
    from members where organization_id = ${org}
    on conflict do nothing`);
  await db.execute(sql`analyze`);
  const [{ n }] = await db.select({ n: count() }).from(members);
  const [{ links }] = await rows<{ links: number }>(db, sql`select count(*)::int as links from residents`);
  console.log(`\nSeeded ${n} members and ${links} unit links in ${((Date.now() - started) / 1000).toFixed(0)} s (${database.driver})`);

  const [complex] = await rows<{ id: number }>(db, sql`select id from complexes where organization_id = ${org} order by id limit 1`);
  const someHouses = await rows<{ id: number }>(db, sql`select id from houses where complex_id = ${complex.id} order by id limit 20`);
  const houseQs = someHouses.map((h) => `house_ids[]=${h.id}`).join('&');
  const q = encodeURIComponent;
  const { app, base, token } = await startSignedIn(config, database);

  console.log(`${CONNECTIONS} connections × ${SECONDS} s each\n`);
  await printLoadTable(base, token, [
    ['GET /members sorted by name (pages 1..100, 25 per page)', (i) => `/api/admin/members?sort=name&page=${(i % 100) + 1}&per_page=25`],
    ['GET /members complex + 20 houses + search «Коваленко» + sort name', () => `/api/admin/members?complex_id=${complex.id}&${houseQs}&search_query=${q('Коваленко')}&sort=name&per_page=25`],
    ['GET /members complex + status=inactive + sort name desc', () => `/api/admin/members?complex_id=${complex.id}&status=inactive&sort=name&order=desc&per_page=25`],
    ['GET /members search phone «067 000 12» (as typed)', (i) => `/api/admin/members?search_query=${q(`067 000 ${10 + (i % 80)}`)}&per_page=25`],
    ['GET /members search unit number «17»', () => `/api/admin/members?search_query=17&complex_id=${complex.id}&per_page=25`],
  ]);

  // The list's two queries on their own, for the heaviest filter above.
  const admin: CurrentUser = { id: 0, organizationId: org, tokenId: 0, isAdmin: true, mustChangePassword: false, rules: {}, complexIds: null };
  const where = await membersWhere(db, admin, { search_query: 'Коваленко', complex_id: complex.id, house_ids: someHouses.map((h) => h.id) });
  const page = await underLoad(() => db.select().from(members).where(where).orderBy(ukrainianSortKey(members.name), members.id).limit(25));
  const total = await underLoad(() => db.select({ n: count() }).from(members).where(where));
  const all = await underLoad(() => db.select({ n: count() }).from(members).where(sql`${members.organizationId} = ${org}`));
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
  console.log(`\nExport CSV of ${lines - 1} members: ${mb(bytes)} in ${((Date.now() - started) / 1000).toFixed(1)} s; process RSS ${mb(baseline)} before, peak ${mb(peak)} (+${mb(peak - baseline)})`);

  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
