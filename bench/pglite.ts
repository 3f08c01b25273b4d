/**
 * How fairly the embedded database (PGlite, one query at a time in one process) is shared while
 * a heavy call runs: a light call's latency (the complexes list) alone, during an export of
 * 50,000 members (CSV, streamed) and during big pages (per_page=1000), and the longest time one
 * statement or transaction held the database meanwhile.
 *
 *   npm run bench:pglite
 *
 * The database is generated in a temporary folder (the small scale with 50,000 members), or
 * read from DATA_DIR when it already holds generated data. BENCH_SECONDS (default 10) per phase.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { generateData } from './data/generate.ts';
import { SCALES } from './data/scales.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const MEMBERS = 50_000;

/**
 * Every PGlite statement and transaction: how long it held the database, from the moment it got
 * the database's lock (not while it waited in line) to its end.
 */
const holds: { ms: number; what: string }[] = [];
function timeHolds() {
  const proto = PGlite.prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const exclusive = proto._runExclusiveTransaction;
  if (typeof exclusive !== 'function') throw new Error('this PGlite version has no _runExclusiveTransaction to time');
  const labels = new WeakMap<object, string>();
  for (const name of ['query', 'exec', 'transaction'] as const) {
    const original = proto[name];
    proto[name] = function (this: object, ...args: unknown[]) {
      labels.set(this, name === 'transaction' ? 'a transaction' : String(args[0]).replace(/\s+/g, ' ').slice(0, 90));
      return original.apply(this, args);
    };
  }
  proto._runExclusiveTransaction = function (this: object, fn: unknown) {
    const what = labels.get(this) ?? '?';
    return exclusive.call(this, async () => {
      const started = performance.now();
      try {
        return await (fn as () => Promise<unknown>)();
      } finally {
        holds.push({ ms: performance.now() - started, what });
      }
    });
  };
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0);

async function main() {
  timeHolds();
  const dataDir = process.env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' });
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') });
  const generated = await generateData(database.db, config, { ...SCALES.small, members: MEMBERS }, 1, () => {});
  console.log(`PGlite in ${dataDir}: ${generated.generated ? 'generated' : 'already generated'} (small scale, ${MEMBERS.toLocaleString('en')} members)`);
  const app = await buildApp({ config, database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/admin`;
  const login = (await (
    await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: config.adminEmail, password: config.adminPassword }),
    })
  ).json()) as { access_token: string };
  const headers = { Authorization: `Bearer ${login.access_token}` };
  console.log(`Machine: ${os.cpus()[0]?.model} × ${os.cpus().length}, load ${os.loadavg()[0].toFixed(2)}`);

  /** Light calls one after another for the phase, while `heavy` runs in a loop beside them. */
  async function phase(name: string, heavy?: () => Promise<number>) {
    const latencies: number[] = [];
    const end = performance.now() + SECONDS * 1000;
    const from = holds.length;
    let heavyCalls = 0;
    let heavyRows = 0;
    const heavyLoop = (async () => {
      if (!heavy) return;
      while (performance.now() < end) {
        heavyRows += await heavy();
        heavyCalls += 1;
      }
    })();
    while (performance.now() < end) {
      const started = performance.now();
      const res = await fetch(`${base}/complexes`, { headers });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`light call: ${res.status}`);
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 5));
    }
    await heavyLoop;
    latencies.sort((a, b) => a - b);
    const during = holds.slice(from).sort((a, b) => b.ms - a.ms);
    const longest = during[0];
    const ms = (v: number) => v.toFixed(0);
    const work = heavy ? `${heavyCalls} calls, ${heavyRows.toLocaleString('en')} rows` : '—';
    const hold = longest ? `${ms(longest.ms)} ms: ${longest.what}` : '—';
    const spread = `${ms(percentile(latencies, 50))} | ${ms(percentile(latencies, 99))} | ${ms(latencies.at(-1)!)}`;
    console.log(`| ${name} | ${latencies.length} | ${spread} | ${work} | ${hold} |`);
  }

  const exportMembers = async () => {
    const res = await fetch(`${base}/members/export?format=csv`, { headers });
    const text = await res.text();
    if (!res.ok) throw new Error(`export: ${res.status} ${text.slice(0, 200)}`);
    return text.split('\n').length - 2;
  };
  const bigPage = async () => {
    const page = 1 + Math.floor(Math.random() * 40);
    const res = await fetch(`${base}/members?per_page=1000&page=${page}&sort=name`, { headers });
    const body = (await res.json()) as { data?: unknown[] };
    if (!res.ok) throw new Error(`big page: ${res.status}`);
    return body.data?.length ?? 0;
  };

  console.log('\n| phase | light calls | p50 ms | p99 ms | max ms | heavy work | longest hold of the database |');
  console.log('|---|---|---|---|---|---|---|');
  await phase('alone');
  await phase('during exports of all members (CSV)', exportMembers);
  await phase('during members pages of 1000', bigPage);
  console.log(`\nload ${os.loadavg()[0].toFixed(2)} at the end`);
  await app.close();
  await database.close();
  if (!process.env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
