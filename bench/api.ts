/**
 * The hottest API calls under load, against the app started as `npm start` starts it (a child
 * process running server/main.ts), on PostgreSQL and on PGlite, at 1, 10 and 50 connections,
 * next to a "floor": a bare Fastify + node-postgres server (bench/floor.ts) running the same SQL
 * the app ran for each call, recorded from the app itself. Prints Markdown tables.
 *
 *   npm run bench:api
 *   DATABASE_URL=postgres://… npm run bench:api    (without it, only PGlite runs)
 *
 * The databases are filled by bench/data/generate.ts when they hold no generated data yet:
 * DATABASE_URL as it is named, PGlite in DATA_DIR or in a temporary folder.
 * BENCH_SECONDS (default 5 per measurement), BENCH_CONNECTIONS (default 1,10,50),
 * BENCH_DRIVERS (default postgres,pglite), BENCH_SCALE (default small), BENCH_SEED (default 1),
 * BENCH_LOG_LEVEL (the app's LOG_LEVEL, default warn), BENCH_ONLY (a part of a call's name) tune it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openCapturingDatabase, type CapturedQuery } from './data/capture.ts';
import { generateData, REQUEST_WORDS, SURNAME_SAMPLES } from './data/generate.ts';
import { isScaleName, prng, SCALES } from './data/scales.ts';
import type { FloorSpec } from './floor.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig, type AppConfig } from '../server/config.ts';
import { openDatabase, type Db } from '../server/db/index.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LEVELS = (process.env.BENCH_CONNECTIONS ?? '1,10,50').split(',').map(Number);
const DRIVERS = (process.env.BENCH_DRIVERS ?? 'postgres,pglite').split(',');
const SCALE = process.env.BENCH_SCALE ?? 'small';
const SEED = Number(process.env.BENCH_SEED ?? 1);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
/** Only the calls whose name contains this text (e.g. BENCH_ONLY=login). */
const ONLY = process.env.BENCH_ONLY ?? '';
/** Each scenario cycles through this many parameter variants. */
const VARIANTS = 8;
const root = path.resolve(import.meta.dirname, '..');

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  paths: string[];
  body?: string;
}

interface Stats {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(db: Db, query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as Rows<T>).rows;

/** The scenarios' parameters, read from the generated data. */
async function scenarios(db: Db, config: AppConfig): Promise<Scenario[]> {
  const random = prng(SEED);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const [{ complex }] = await rowsOf<{ complex: number }>(db, sql`select min(id)::int as complex from complexes where name like 'ЖК «Генерований %'`);
  const [{ kyiv }] = await rowsOf<{ kyiv: number }>(db, sql`select id as kyiv from settlements where name = 'Київ' and category = 'К' limit 1`);
  const requests = await rowsOf<{ id: number }>(db, sql`select id from service_requests order by id desc limit 1000`);
  const q = encodeURIComponent;
  const streetQueries = ['Хреща', 'шевч', 'Лесі', 'в’яч', 'вул', 'Набережн', 'Сагайдачн', 'ми'];
  const times = Array.from({ length: VARIANTS }, (_, i) => i);
  return [
    {
      name: 'members: complex + status + search (surname), sort name',
      method: 'GET',
      paths: times.map(() => `/api/admin/members?complex_id=${complex}&status=active&search_query=${q(pick(SURNAME_SAMPLES))}&sort=name&per_page=25`),
    },
    {
      name: 'members: search phone digits, page 1',
      method: 'GET',
      paths: times.map(() => `/api/admin/members?search_query=${q(`095 ${String(Math.floor(random() * 900) + 100)}`)}&per_page=25`),
    },
    {
      name: 'service requests: stage + complex, pages 1..8',
      method: 'GET',
      paths: times.map((i) => `/api/admin/service_request?stage=${pick(['new', 'executor', 'underReview'])}&complex_id=${complex}&page=${i + 1}&per_page=25`),
    },
    {
      name: 'service requests: search word, newest first',
      method: 'GET',
      paths: times.map(() => `/api/admin/service_request?search_query=${q(pick(REQUEST_WORDS))}&per_page=25`),
    },
    { name: 'realty: pages 1..8, 25 per page', method: 'GET', paths: times.map((i) => `/api/admin/realty?page=${i + 1}&per_page=25`) },
    { name: 'find/street (Київ)', method: 'GET', paths: times.map((i) => `/api/admin/find/street?city_id=${kyiv}&search_query=${q(streetQueries[i])}`) },
    { name: 'service request detail', method: 'GET', paths: times.map(() => `/api/admin/service_request/${pick(requests).id}`) },
    {
      name: 'login (argon2id)',
      method: 'POST',
      paths: ['/api/admin/login'],
      body: JSON.stringify({ email: config.adminEmail, password: config.adminPassword }),
    },
  ];
}

/** Starts `node --import tsx <script>` and resolves its port once it prints one. */
function startProcess(script: string, env: Record<string, string | undefined>, portLine: RegExp): Promise<{ child: ChildProcess; base: string }> {
  return new Promise((resolve, reject) => {
    const merged = { ...process.env, ...env };
    for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${out}`)), 120_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = portLine.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: `http://127.0.0.1:${m[1]}` });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // After the start, an exit is reported (the measurements would only show errors): by exit
      // code, or by the signal that ended it (SIGKILL, which nobody can log, is often the kernel
      // reclaiming memory).
      const how = signal ? `signal ${signal}${signal === 'SIGKILL' ? ' (killed: out of memory?)' : ''}` : `exit code ${code}`;
      console.error(`${script} exited (${how}); its last output:\n${out.slice(-3000)}`);
      reject(new Error(`${script} exited (${how})`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function percentile(sorted: number[], p: number) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

/** One measurement: `connections` connections for SECONDS, cycling through `paths`. */
function measure(base: string, connections: number, method: 'GET' | 'POST', paths: string[], headers: Record<string, string>, body?: string): Promise<Stats> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let i = 0;
    const instance = autocannon(
      {
        url: base,
        connections,
        duration: SECONDS,
        headers: body ? { ...headers, 'Content-Type': 'application/json' } : headers,
        requests: [{ method, body, setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
      },
      (err, result) => {
        if (err) return reject(err);
        latencies.sort((a, b) => a - b);
        resolve({
          rps: latencies.length / SECONDS,
          p50: Math.round(percentile(latencies, 50)),
          p95: Math.round(percentile(latencies, 95)),
          p99: Math.round(percentile(latencies, 99)),
          errors: result.errors + result.timeouts + result.non2xx,
        });
      },
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => latencies.push(responseTime));
  });
}

async function login(base: string, config: AppConfig) {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: config.adminEmail, password: config.adminPassword }),
  });
  const { access_token: token } = (await res.json()) as { access_token?: string };
  if (!token) throw new Error(`sign-in failed: ${res.status}`);
  return token;
}

/** Records, per scenario and variant, the SQL the app runs for the call (after one warm-up call). */
async function captureFloor(url: string, config: AppConfig, list: Scenario[]): Promise<FloorSpec> {
  const database = await openCapturingDatabase(url, { migrate: false });
  const app = await buildApp({ config, database });
  try {
    const auth = (await app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: config.adminEmail, password: config.adminPassword } })).json<{
      access_token: string;
    }>();
    const spec: FloorSpec = {};
    for (const [n, s] of list.entries()) {
      spec[n] = [];
      for (const p of s.paths) {
        const call = () =>
          app.inject({
            method: s.method,
            url: p,
            headers: s.body ? { 'content-type': 'application/json' } : { authorization: `Bearer ${auth.access_token}` },
            payload: s.body,
          });
        await call();
        const { result, queries } = await database.capture(call);
        if (result.statusCode !== 200) throw new Error(`${s.name}: ${p} answered ${result.statusCode} ${result.body.slice(0, 300)}`);
        spec[n].push(queries as CapturedQuery[]);
      }
    }
    return spec;
  } finally {
    await app.close();
    await database.close();
  }
}

const fmt = (n: number) => (n >= 100 ? Math.round(n).toString() : n.toFixed(1));

async function benchDriver(driver: 'postgres' | 'pglite') {
  const url = process.env.DATABASE_URL;
  let tempDir: string | undefined;
  let dataDir = process.env.DATA_DIR;
  if (driver === 'pglite' && !dataDir) dataDir = tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-bench-api-'));
  const env: Record<string, string | undefined> = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: LOG_LEVEL, SKIP_SPA_BUILD: '1' };
  if (driver === 'postgres') env.DATABASE_URL = url!;
  else {
    env.DATA_DIR = dataDir!;
    env.DATABASE_URL = undefined;
  }
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir ?? os.tmpdir(), DATABASE_URL: driver === 'postgres' ? url : undefined }), port: 0 };
  if (!isScaleName(SCALE)) throw new Error(`BENCH_SCALE: one of ${Object.keys(SCALES).join(', ')}`);

  // Fill the database (once) and read the scenarios' parameters, then let go of it.
  const database = await openDatabase(driver === 'postgres' ? { kind: 'postgres', url: url! } : { kind: 'pglite', dataDir: path.join(dataDir!, 'pgdata') });
  const generated = await generateData(database.db, config, SCALES[SCALE], SEED, (line) => console.log(`  ${line}`));
  const list = (await scenarios(database.db, config)).filter((s) => s.name.includes(ONLY));
  const [sizes] = await rowsOf<{ members: number; units: number; requests: number }>(
    database.db,
    sql`select (select count(*) from members)::int as members, (select count(*) from realty)::int as units,
      (select count(*) from service_requests)::int as requests`,
  );
  await database.close();
  console.log(
    `\n### ${driver === 'postgres' ? 'PostgreSQL' : 'PGlite'}: ${sizes.members.toLocaleString('en')} members, ` +
      `${sizes.units.toLocaleString('en')} units, ${sizes.requests.toLocaleString('en')} requests` +
      `${generated.generated ? ` (generated now: ${SCALE})` : ''}\n`,
  );

  let floor: { child: ChildProcess; base: string } | undefined;
  let specFile: string | undefined;
  if (driver === 'postgres') {
    specFile = path.join(os.tmpdir(), `zhk-floor-${process.pid}.json`);
    fs.writeFileSync(specFile, JSON.stringify(await captureFloor(url!, config, list)));
    floor = await startProcess('bench/floor.ts', { FLOOR_SPEC: specFile, DATABASE_URL: url! }, /floor listening on (\d+)/);
  }
  const app = await startProcess('server/main.ts', env, /http:\/\/localhost:(\d+)/);
  try {
    const token = await login(app.base, config);
    console.log(`${SECONDS} s per measurement; latencies in ms; ratio = our req/s ÷ floor req/s\n`);
    console.log('| call | conn | req/s | p50 | p95 | p99 | floor req/s | floor p50 / p95 / p99 | ratio | errors |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const [n, s] of list.entries()) {
      for (const c of LEVELS) {
        const ours = await measure(app.base, c, s.method, s.paths, s.body ? {} : { Authorization: `Bearer ${token}` }, s.body);
        const base = floor
          ? await measure(
              floor.base,
              c,
              'GET',
              s.paths.map((_, v) => `/floor/${n}/${v}`),
              {},
            )
          : undefined;
        console.log(
          `| ${s.name} | ${c} | ${fmt(ours.rps)} | ${ours.p50} | ${ours.p95} | ${ours.p99} | ` +
            `${base ? fmt(base.rps) : '—'} | ${base ? `${base.p50} / ${base.p95} / ${base.p99}` : '—'} | ` +
            `${base ? (ours.rps / base.rps).toFixed(2) : '—'} | ${ours.errors + (base?.errors ?? 0)} |`,
        );
      }
    }
  } finally {
    await stop(app.child);
    if (floor) await stop(floor.child);
    if (specFile) fs.rmSync(specFile, { force: true });
    if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const driver of DRIVERS) {
    if (driver === 'postgres' && !process.env.DATABASE_URL) {
      console.log('\nPostgreSQL: skipped (set DATABASE_URL to include it)');
      continue;
    }
    if (driver !== 'postgres' && driver !== 'pglite') throw new Error(`BENCH_DRIVERS: postgres or pglite, not ${driver}`);
    await benchDriver(driver);
  }
  console.log(
    `\nLoad average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
