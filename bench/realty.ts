/**
 * Realty and street look-up under load: seeds 2,000 houses with 100 units each (200,000 realty
 * units) and prints p50/p99 of GET /realty pages and GET /find/street.
 * `npm run bench` runs it after bench/run.ts; DATABASE_URL selects PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { CONNECTIONS, printLoadTable, SECONDS, startSignedIn } from './lib.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';
import { importReferenceData } from '../server/db/importReference.ts';
import { seedIfEmpty } from '../server/seed.ts';

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-bench-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: process.env.DATABASE_URL }), port: 0 };
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') },
  );
  const { db } = database;
  await importReferenceData(db);
  await seedIfEmpty(db, config);

  const started = Date.now();
  // 2,000 houses on Київ streets, spread over the demo complexes, 100 units each.
  await db.execute(sql`
    insert into houses (organization_id, complex_id, settlement_id, street_id, number, building)
    select c.organization_id, c.id, s.settlement_id, s.id, 'Б' || g::text, ''
    from generate_series(1, 2000) g
    join lateral (select id, organization_id from complexes order by id offset (g % 5) limit 1) c on true
    join lateral (
      select id, settlement_id from streets
      where settlement_id = (select id from settlements where name = 'Київ' and category = 'К' limit 1)
      order by id offset (g % 500) limit 1
    ) s on true
    on conflict do nothing`);
  await db.execute(sql`
    insert into realty (organization_id, house_id, type, number, area, floor, entrance)
    select h.organization_id, h.id,
      (array['apartment','apartment','apartment','parking','storage'])[1 + n % 5],
      n::text, round((30 + (n * 7919 % 9000) / 100.0)::numeric, 2), 1 + n % 25, 1 + n % 4
    from houses h cross join generate_series(1, 100) n
    where h.number like 'Б%'
    on conflict do nothing`);
  const [{ units }] = ((await db.execute(sql`select count(*)::int as units from realty`)) as unknown as { rows: { units: number }[] }).rows;
  const [{ houses }] = ((await db.execute(sql`select count(*)::int as houses from houses`)) as unknown as { rows: { houses: number }[] }).rows;
  const [{ kyiv }] = (
    (await db.execute(sql`select id as kyiv from settlements where name = 'Київ' and category = 'К' limit 1`)) as unknown as { rows: { kyiv: number }[] }
  ).rows;
  console.log(`\nSeeded ${houses} houses and ${units} realty units in ${((Date.now() - started) / 1000).toFixed(1)} s (${database.driver})`);

  const { app, base, token } = await startSignedIn(config, database);

  const streetQueries = ['Хреща', 'шевч', 'Лесі', 'в’яч', 'вул', 'Набережн', 'Сагайдачн', 'ми'];
  const scenarios: [string, (i: number) => string][] = [
    ['GET /realty (pages 1..200, 25 per page)', (i) => `/api/admin/realty?page=${(i % 200) + 1}&per_page=25`],
    ['GET /realty?type=parking (pages 1..200)', (i) => `/api/admin/realty?type=parking&page=${(i % 200) + 1}&per_page=25`],
    ['GET /realty?search_query=<number>', (i) => `/api/admin/realty?search_query=${(i % 100) + 1}&per_page=25`],
    [
      'GET /find/street (Київ, 8 queries)',
      (i) => `/api/admin/find/street?city_id=${kyiv}&search_query=${encodeURIComponent(streetQueries[i % streetQueries.length])}`,
    ],
    [
      'GET /find/city (8 queries)',
      (i) => `/api/admin/find/city?search_query=${encodeURIComponent(['ки', 'льв', 'оде', 'бер', 'кам’', 'нов', 'ірп', 'ужг'][i % 8])}`,
    ],
  ];
  console.log(`${CONNECTIONS} connections × ${SECONDS} s each\n`);
  await printLoadTable(base, token, scenarios);
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
