/**
 * Benchmarks that print figures: API latency under concurrent load and the SPA's bundle size.
 * `npm run bench` — PGlite in a temporary folder, or DATABASE_URL when set.
 * BENCH_SECONDS (default 10) and BENCH_CONNECTIONS (default 20) tune the load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { CONNECTIONS, printLoadTable, SECONDS, startSignedIn } from './lib.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';
import { complexes, organizations } from '../server/db/schema.ts';
import { seedIfEmpty } from '../server/seed.ts';

const COMPLEXES = 2000;
const CITIES = ['Київ', 'Львів', 'Одеса', 'Харків', 'Дніпро', 'Вінниця', 'Запоріжжя', 'Івано-Франківськ', 'Тернопіль', 'Ужгород'];

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-bench-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: process.env.DATABASE_URL }), port: 0 };
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') },
  );
  await seedIfEmpty(database.db, config);
  const [org] = await database.db.select().from(organizations).limit(1);
  const rows = Array.from({ length: COMPLEXES }, (_, i) => ({
    organizationId: org.id,
    name: `ЖК «Бенчмарк ${i + 1}»`,
    city: CITIES[i % CITIES.length],
    address: `вул. Тестова, ${i + 1}`,
    description: '',
  }));
  for (let i = 0; i < rows.length; i += 500)
    await database.db
      .insert(complexes)
      .values(rows.slice(i, i + 500))
      .onConflictDoNothing();

  const { app, base, token } = await startSignedIn(config, database);

  const scenarios: [string, (i: number) => string][] = [
    ['GET /complexes (page 1..100, 15 per page)', (i) => `/api/admin/complexes?page=${(i % 100) + 1}&per_page=15`],
    ['GET /complexes?search_query=Львів', () => '/api/admin/complexes?search_query=%D0%9B%D1%8C%D0%B2%D1%96%D0%B2&per_page=15'],
    ['GET /complexes?sort=name', () => '/api/admin/complexes?sort=name&order=asc&per_page=15'],
    ['GET /user', () => '/api/admin/user'],
  ];
  console.log(`\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
  console.log(`Database: ${database.driver}, ${COMPLEXES + 5} complexes; ${CONNECTIONS} connections × ${SECONDS} s each\n`);
  await printLoadTable(base, token, scenarios);
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const assets = path.join(process.cwd(), 'dist', 'assets');
  if (fs.existsSync(assets)) {
    const js = fs.readdirSync(assets).filter((f) => f.endsWith('.js'));
    const sizes = js.map((f) => {
      const buf = fs.readFileSync(path.join(assets, f));
      return { f, raw: buf.length, gz: zlib.gzipSync(buf).length };
    });
    const entry = sizes.find((s) => /^index-/.test(s.f));
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
    console.log(
      `\nSPA bundle: ${js.length} JS files, ${kb(sizes.reduce((a, s) => a + s.raw, 0))} raw / ${kb(sizes.reduce((a, s) => a + s.gz, 0))} gzip in all; ` +
        `entry chunk ${entry ? `${kb(entry.raw)} raw / ${kb(entry.gz)} gzip` : 'not built'}`,
    );
  } else {
    console.log('\nSPA bundle: dist/ not built (run `npm run build` first)');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
