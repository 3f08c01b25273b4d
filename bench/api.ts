/**
 * `npm run bench:api`: the lists the screens open, under load, against the app started as
 * `npm start` starts it (a child process running server/main.ts) and against a best-SQL floor
 * (bench/floor.ts: a bare Fastify + node-postgres server answering the same calls with the same
 * JSON from hand-written SQL), on PostgreSQL, at one or more data scales. How to run it:
 *
 *   DATABASE_URL=postgres://…/bench npm run bench:api                       (the small scale)
 *   BENCH_SCALE=small,large DATABASE_URL_SMALL=postgres://…/a DATABASE_URL_LARGE=postgres://…/b npm run bench:api
 *
 * A scale's database is DATABASE_URL_<SCALE> (or DATABASE_URL when one scale runs); one without
 * generated data is filled first by bench/data/generate.ts (a database that has it is only read,
 * apart from the sign-in's token). Every call is made as the screen makes it (the query strings of
 * src/), with its parameters read from the app's own answers; every variant's answer of the floor
 * is checked deep-equal against the app's before anything is timed, and a difference stops the
 * run, naming the scenario and the first difference. Then, per scenario, BENCH_ROUNDS (3)
 * interleaved rounds (app, floor, app, floor, …) of BENCH_SECONDS (5) at BENCH_CONNECTIONS (10),
 * the median of the rounds: req/s, p50/p99, the Node CPU per request of each server process
 * (utime + stime from /proc), and the statements per request (the app's recorded in-process, one
 * call per variant, with how many of them ran one after another; the floor's from its answers).
 * With two scales, the growth of p50 from the small to the large one.
 *
 * BENCH_ONLY (parts of scenarios' names, separated by `|`), BENCH_SEED (1), BENCH_LOG_LEVEL (the app's LOG_LEVEL,
 * default warn), BENCH_WARMUP (seconds per side before the rounds, default 1) and BENCH_OUT (a file
 * that gets the Markdown tables too) tune it. The machine and its load average are printed at the
 * start and the end: the figures are only as quiet as the machine was.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { openCapturingDatabase } from './data/capture.ts';
import { generateData, REQUEST_WORDS, SURNAME_SAMPLES } from './data/generate.ts';
import { isScaleName, SCALES } from './data/scales.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig, type AppConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const SCALE_NAMES = (process.env.BENCH_SCALE ?? 'small').split(',').map((s) => s.trim());
const SEED = Number(process.env.BENCH_SEED ?? 1);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
/** Only the scenarios whose name contains one of these texts, separated by `|` (e.g. BENCH_ONLY='opens it|deep page'). */
const ONLY = (process.env.BENCH_ONLY ?? '').split('|');
const OUT = process.env.BENCH_OUT;
/** Each scenario cycles through up to this many variants (complexes, words, stages). */
const VARIANTS = 8;
const root = path.resolve(import.meta.dirname, '..');

interface Scenario {
  name: string;
  paths: string[];
}

interface Side {
  rps: number;
  p50: number;
  p99: number;
  cpuMs: number;
  errors: number;
}

interface Row {
  scenario: Scenario;
  app: Side;
  floor: Side;
  statements: { app: string; floor: string };
}

type Json = Record<string, unknown>;

const output: string[] = [];
/** A line of the report: printed, and kept for BENCH_OUT. */
function report(line = '') {
  console.log(line);
  output.push(line);
}

// ── Processes ────────────────────────────────────────────────────────────────────────────

interface Child {
  child: ChildProcess;
  base: string;
}

/** Starts `node --import tsx <script>` and resolves its base URL once it prints its port. */
function startProcess(script: string, env: Record<string, string | undefined>, portLine: RegExp): Promise<Child> {
  return new Promise((resolve, reject) => {
    const merged = { ...process.env, ...env };
    for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let started = false;
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${out}`)), 120_000);
    const onData = (chunk: Buffer) => {
      out = (out + chunk.toString()).slice(-20_000);
      const m = started ? null : portLine.exec(out);
      if (m) {
        started = true;
        clearTimeout(timer);
        resolve({ child, base: `http://127.0.0.1:${m[1]}` });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const how = signal ? `signal ${signal}${signal === 'SIGKILL' ? ' (killed: out of memory?)' : ''}` : `exit code ${code}`;
      console.error(`${script} exited (${how}); its last output:\n${out.slice(-3000)}`);
      reject(new Error(`${script} exited (${how})`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) a process has used so far, in ms. */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3, utime field 14 and stime field 15 of the whole line.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

// ── HTTP ─────────────────────────────────────────────────────────────────────────────────

async function getJson(base: string, url: string, token?: string): Promise<{ status: number; body: Json; statements: string | null }> {
  const res = await fetch(`${base}${url}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  let body: Json;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = { unparsed: text.slice(0, 300) };
  }
  return { status: res.status, body, statements: res.headers.get('x-statements') };
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

/** `key=value` pairs as the SPA writes them (src/dataProvider/http.ts): arrays as `key[]`, empty values left out. */
function queryString(query: [string, unknown][]): string {
  const parts: string[] = [];
  for (const [key, value] of query) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) parts.push(`${encodeURIComponent(`${key}[]`)}=${encodeURIComponent(String(v))}`);
    else parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return parts.join('&');
}

/** The first difference between two JSON values, as a path and both sides, or undefined when they are equal. */
function firstDifference(a: unknown, b: unknown, at = '$'): string | undefined {
  const show = (v: unknown) => {
    const s = JSON.stringify(v);
    return s === undefined ? 'undefined' : s.length > 200 ? `${s.slice(0, 200)}…` : s;
  };
  if (a === b) return undefined;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return `${at}: app ${show(a)}, floor ${show(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${at}: app ${show(a)}, floor ${show(b)}`;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    for (let i = 0; i < Math.min(a.length, other.length); i++) {
      const d = firstDifference(a[i], other[i], `${at}[${i}]`);
      if (d) return d;
    }
    return a.length === other.length ? undefined : `${at}: app has ${a.length} items, floor ${other.length}`;
  }
  const x = a as Json;
  const y = b as Json;
  for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
    if (!(k in x)) return `${at}.${k}: only the floor has it (${show(y[k])})`;
    if (!(k in y)) return `${at}.${k}: only the app has it (${show(x[k])})`;
    const d = firstDifference(x[k], y[k], `${at}.${k}`);
    if (d) return d;
  }
  return undefined;
}

// ── Scenarios ────────────────────────────────────────────────────────────────────────────

/** The scenarios' calls, with parameters read from the app's answers (complexes, their houses, types, a meeting, a survey). */
async function scenarios(base: string, token: string): Promise<Scenario[]> {
  const get = async (url: string) => {
    const { status, body } = await getJson(base, url, token);
    if (status !== 200) throw new Error(`${url} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
    return body;
  };
  const user = (await get('/api/admin/user')).data as { complexes: { id: number; name: string }[] };
  const generated = user.complexes.filter((c) => c.name.startsWith('ЖК «Генерований ')).slice(0, VARIANTS);
  if (generated.length === 0) throw new Error('no generated complexes: the database holds no generated data');
  // The header's selection as the SPA makes it: the complex's houses by address, all of them up to 20.
  const complexes: { id: number; houses: number[] }[] = [];
  for (const c of generated) {
    const list = (
      await get(
        `/api/admin/houses?${queryString([
          ['page', 1],
          ['per_page', 1000],
          ['sort', 'address'],
          ['order', 'asc'],
          ['complex_id', c.id],
        ])}`,
      )
    ).main_data as { data: { id: number }[] };
    const ids = list.data.map((h) => h.id);
    complexes.push({ id: c.id, houses: ids.length > 20 ? ids.slice(0, 1) : ids });
  }
  const variants = <T>(list: readonly T[]) => Array.from({ length: VARIANTS }, (_, i) => list[i % list.length]);
  const inComplexes = variants(complexes);

  // /Members (src/resources/members/MemberList.tsx): page, per_page, search_query, sort, order, then the filter.
  const members = (c: { id: number; houses: number[] } | undefined, extra: { page?: number; q?: string; status?: string } = {}) =>
    `/api/admin/members?${queryString([
      ['page', extra.page ?? 1],
      ['per_page', 25],
      ['search_query', extra.q?.trim()],
      ['sort', 'name'],
      ['order', 'asc'],
      ['complex_id', c?.id],
      ['house_ids', c?.houses],
      ['status', extra.status],
    ])}`;
  // A phone as someone types it from a card (0XX XXX XX XX), and page 200 of the list (or its last page), per complex.
  const phones: string[] = [];
  const deepPages: number[] = [];
  for (const c of complexes) {
    const answer = await get(members(c));
    const first = (answer.data as { phone: string | null }[]).find((m) => m.phone?.startsWith('+380'));
    if (first) phones.push(first.phone!.replace(/^\+380(\d{2})(\d{3})(\d{2})(\d{2})$/, '0$1 $2 $3 $4'));
    deepPages.push(Math.min(200, (answer.pagination as { last_page: number }).last_page));
  }
  const deep = Math.min(...deepPages);

  // /Requests (src/resources/service-requests/RequestList.tsx): the filter after the header's selection.
  const requests = (c: { id: number; houses: number[] }, extra: { q?: string; stage?: string; type?: number; overdue?: boolean } = {}) =>
    `/api/admin/service_request?${queryString([
      ['page', 1],
      ['per_page', 25],
      ['search_query', extra.q],
      ['sort', 'created_at'],
      ['order', 'desc'],
      ['complex_id', c.id],
      ['house_ids', c.houses],
      ['stage', extra.stage ? [extra.stage] : undefined],
      ['type_id', extra.type],
      ['overdue', extra.overdue ? 1 : undefined],
    ])}`;
  const types = ((await get('/api/admin/service_request/form')).form as { types: { id: number }[] }).types.map((t) => t.id);
  const stages = ['new', 'underReview', 'executor'];

  // react-admin lists (News, Realty, Staff): page, per_page, sort, order, then the filter.
  const votings = ((await get('/api/admin/voting?page=1&per_page=100')).main_data as { data: { id: number; participants_count: number }[] }).data;
  const voting = votings.sort((a, b) => b.participants_count - a.participants_count)[0];
  const surveys = ((await get('/api/admin/interview?page=1&per_page=100')).main_data as { data: { id: number; responses_count: number }[] }).data;
  const survey = surveys.sort((a, b) => b.responses_count - a.responses_count)[0];

  const list: Scenario[] = [
    { name: '/Members, no filter, sort name', paths: [members(undefined)] },
    { name: '/Members as the screen opens it: one complex, all its houses, sort name', paths: inComplexes.map((c) => members(c)) },
    {
      name: '/Members, complex + status (active, inactive)',
      paths: inComplexes.map((c, i) => members(c, { status: i % 2 ? 'inactive' : 'active' })),
    },
    { name: '/Members, complex + surname search', paths: inComplexes.map((c, i) => members(c, { q: SURNAME_SAMPLES[i % SURNAME_SAMPLES.length] })) },
    { name: '/Members, complex + phone digits search', paths: inComplexes.map((c, i) => members(c, { q: phones[i % phones.length] })) },
    {
      name: `/Members, one complex, all its houses, a deep page (${deep < 200 ? `${deep}, the last` : `${deep}`})`,
      paths: inComplexes.map((c) => members(c, { page: deep })),
    },
    { name: '/Requests as the screen opens it: complex, all its houses, newest first', paths: inComplexes.map((c) => requests(c)) },
    { name: '/Requests, stage + complex, newest first', paths: inComplexes.map((c, i) => requests(c, { stage: stages[i % stages.length] })) },
    { name: '/Requests, complex + type', paths: inComplexes.map((c, i) => requests(c, { type: types[i % types.length] })) },
    { name: '/Requests, complex + overdue', paths: inComplexes.map((c) => requests(c, { overdue: true })) },
    { name: '/Requests, complex + search word', paths: inComplexes.map((c, i) => requests(c, { q: REQUEST_WORDS[i % REQUEST_WORDS.length] })) },
    {
      name: '/Realty (all units), by house',
      paths: [
        `/api/admin/realty?${queryString([
          ['page', 1],
          ['per_page', 25],
          ['sort', 'house'],
          ['order', 'asc'],
        ])}`,
      ],
    },
    {
      name: '/News as the screen opens it: complex, all its houses',
      paths: inComplexes.map(
        (c) =>
          `/api/admin/articles?${queryString([
            ['page', 1],
            ['per_page', 10],
            ['sort', 'publish_at'],
            ['order', 'desc'],
            ['complex_id', c.id],
            ['house_ids', c.houses],
          ])}`,
      ),
    },
    {
      name: '/Staff',
      paths: [
        `/api/admin/staff?${queryString([
          ['page', 1],
          ['per_page', 10],
          ['sort', 'name'],
          ['order', 'asc'],
        ])}`,
      ],
    },
  ];
  if (voting)
    list.push({
      name: `/Voting/{id}/participants (${voting.participants_count} co-owners)`,
      paths: [
        `/api/admin/voting/${voting.id}/residents?${queryString([
          ['page', 1],
          ['per_page', 25],
        ])}`,
      ],
    });
  if (survey)
    list.push({
      name: `/Interview/{id}/users, answered (${survey.responses_count} answers)`,
      paths: [
        `/api/admin/interview/${survey.id}/users?${queryString([
          ['status', 'answered'],
          ['page', 1],
          ['per_page', 25],
        ])}`,
      ],
    });
  return list.filter((s) => ONLY.some((part) => s.name.includes(part)));
}

/** How many records a list answer holds (whatever its wrapper). */
function listRows(body: Json): number {
  const inner = (body.main_data ?? body.data) as Json | unknown[];
  return Array.isArray(inner) ? inner.length : Array.isArray(inner?.data) ? (inner.data as unknown[]).length : 0;
}

/**
 * Every variant's answer of the floor equals the app's; otherwise the run stops here. Answers the
 * floor's statements per call, from a second call of each variant (as the app's are recorded after
 * a warm-up call: a first call also counts a list whose total is not kept yet).
 */
async function checkFloor(app: string, floor: string, token: string, list: Scenario[]): Promise<Map<Scenario, number[]>> {
  const statements = new Map<Scenario, number[]>();
  for (const s of list) {
    const counts: number[] = [];
    const rows: number[] = [];
    for (const p of new Set(s.paths)) {
      const [ours, theirs] = await Promise.all([getJson(app, p, token), getJson(floor, p, token)]);
      if (ours.status !== 200)
        throw new Error(`${s.name}: the app answered ${ours.status} to ${decodeURIComponent(p)}: ${JSON.stringify(ours.body).slice(0, 300)}`);
      if (theirs.status !== 200)
        throw new Error(`${s.name}: the floor answered ${theirs.status} to ${decodeURIComponent(p)}: ${JSON.stringify(theirs.body).slice(0, 300)}`);
      const difference = firstDifference(ours.body, theirs.body);
      if (difference) throw new Error(`${s.name}: the floor's answer differs from the app's for ${decodeURIComponent(p)}\n  first difference: ${difference}`);
      counts.push(Number((await getJson(floor, p, token)).statements));
      rows.push(listRows(ours.body));
    }
    statements.set(s, counts);
    console.log(`  ${s.name}: ${counts.length} variant(s) equal, ${range(rows)} rows on a page`);
  }
  return statements;
}

/**
 * The app's SQL statements per call, recorded in-process (after one warm-up call per variant):
 * how many, and how many of them ran one after another (statements sent together count once).
 */
async function appStatements(url: string, config: AppConfig, list: Scenario[]): Promise<Map<Scenario, { all: number[]; sequential: number[] }>> {
  const database = await openCapturingDatabase(url, { migrate: false });
  const app = await buildApp({ config, database });
  try {
    const auth = (await app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: config.adminEmail, password: config.adminPassword } })).json<{
      access_token: string;
    }>();
    const out = new Map<Scenario, { all: number[]; sequential: number[] }>();
    for (const s of list) {
      const counts = { all: [] as number[], sequential: [] as number[] };
      for (const p of new Set(s.paths)) {
        const call = () => app.inject({ method: 'GET', url: p, headers: { authorization: `Bearer ${auth.access_token}` } });
        await call();
        const { result, queries } = await database.capture(call);
        if (result.statusCode !== 200) throw new Error(`${s.name}: ${p} answered ${result.statusCode} in-process`);
        counts.all.push(queries.length);
        counts.sequential.push(new Set(queries.map((q) => q.wave)).size);
      }
      out.set(s, counts);
    }
    return out;
  } finally {
    await app.close();
    await database.close();
  }
}

// ── Measurement ──────────────────────────────────────────────────────────────────────────

function percentile(sorted: number[], p: number) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

/** One round: CONNECTIONS connections for `seconds`, cycling through `paths`, and the server process's CPU meanwhile. */
function measure(server: Child, paths: string[], headers: Record<string, string>, seconds: number): Promise<Side> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let i = 0;
    const cpuBefore = cpuMs(server.child.pid!);
    const instance = autocannon(
      {
        url: server.base,
        connections: CONNECTIONS,
        duration: seconds,
        headers,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
      },
      (err, result) => {
        if (err) return reject(err);
        const cpu = cpuMs(server.child.pid!) - cpuBefore;
        latencies.sort((a, b) => a - b);
        resolve({
          rps: latencies.length / seconds,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          cpuMs: latencies.length ? cpu / latencies.length : 0,
          errors: result.errors + result.timeouts + result.non2xx,
        });
      },
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => latencies.push(responseTime));
  });
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const medianSide = (rounds: Side[]): Side => ({
  rps: median(rounds.map((r) => r.rps)),
  p50: median(rounds.map((r) => r.p50)),
  p99: median(rounds.map((r) => r.p99)),
  cpuMs: median(rounds.map((r) => r.cpuMs)),
  errors: rounds.reduce((s, r) => s + r.errors, 0),
});

const fmt = (n: number) => (!Number.isFinite(n) ? '—' : n >= 100 ? Math.round(n).toLocaleString('en') : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const ms = (n: number) => (!Number.isFinite(n) ? '—' : n >= 10 ? Math.round(n).toLocaleString('en') : n.toFixed(1));
const range = (counts: number[]) => {
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  return lo === hi ? String(lo) : `${lo}–${hi}`;
};

function loadAverage() {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

// ── One scale ────────────────────────────────────────────────────────────────────────────

async function benchScale(scale: string): Promise<Row[]> {
  if (!isScaleName(scale)) throw new Error(`BENCH_SCALE: ${Object.keys(SCALES).join(', ')}`);
  const url = process.env[`DATABASE_URL_${scale.toUpperCase()}`] ?? (SCALE_NAMES.length === 1 ? process.env.DATABASE_URL : undefined);
  if (!url) throw new Error(`set DATABASE_URL_${scale.toUpperCase()}${SCALE_NAMES.length === 1 ? ' or DATABASE_URL' : ''}`);
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: os.tmpdir(), DATABASE_URL: url }), port: 0 };

  // Generated data: read what is there; fill an empty database once.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const hasData = async () => {
    const exists = await client.query(`select to_regclass('public.complexes') is not null as ok`);
    if (!exists.rows[0].ok) return false;
    return (await client.query(`select count(*)::int as n from complexes where name like 'ЖК «Генерований %'`)).rows[0].n > 0;
  };
  if (!(await hasData())) {
    console.log(`Generating the ${scale} scale (seed ${SEED})…`);
    const database = await openDatabase({ kind: 'postgres', url });
    await generateData(database.db, config, SCALES[scale], SEED, (line) => console.log(`  ${line}`));
    await database.close();
  }
  const sizes = (
    await client.query(`select (select count(*) from members)::int as members, (select count(*) from realty)::int as units,
      (select count(*) from service_requests)::int as requests, (select count(*) from articles)::int as news,
      (select max(n)::int from (select count(*) as n from member_units group by complex_id) x) as per_complex,
      current_setting('server_version') as version`)
  ).rows[0] as { members: number; units: number; requests: number; news: number; per_complex: number; version: string };
  await client.end();

  const app = await startProcess(
    'server/main.ts',
    { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL, SKIP_SPA_BUILD: '1', DATABASE_URL: url, DATA_DIR: undefined },
    /http:\/\/localhost:(\d+)/,
  );
  let floor: Child | undefined;
  try {
    floor = await startProcess('bench/floor.ts', { DATABASE_URL: url, FLOOR_ADMIN_EMAIL: config.adminEmail }, /floor listening on (\d+)/);
    const token = await login(app.base, config);
    const list = await scenarios(app.base, token);
    console.log(`${scale}: checking the floor's answers against the app's (${list.reduce((n, s) => n + new Set(s.paths).size, 0)} calls)…`);
    const floorStatements = await checkFloor(app.base, floor.base, token, list);
    console.log(`${scale}: recording the app's statements per call…`);
    const statements = await appStatements(url, config, list);

    report();
    report(
      `### ${scale} scale, PostgreSQL ${sizes.version.split(' ')[0]}: ${sizes.members.toLocaleString('en')} members ` +
        `(up to ${sizes.per_complex.toLocaleString('en')} in a complex), ${sizes.units.toLocaleString('en')} units, ` +
        `${sizes.requests.toLocaleString('en')} requests, ${sizes.news.toLocaleString('en')} news`,
    );
    report();
    report(
      `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per side, medians of the rounds; latencies in ms; ` +
        `CPU = the server process's user + system time per request; load average at the start of the scale: ${loadAverage()}`,
    );
    report();
    report(
      '| what the screen sends | app req/s | floor req/s | app ÷ floor | app p50 / p99 | floor p50 / p99 | ' +
        'Node CPU ms/req app (floor) | statements/req app: all, in sequence (floor) | errors |',
    );
    report('|---|---|---|---|---|---|---|---|---|');
    const rows: Row[] = [];
    const auth = { Authorization: `Bearer ${token}` };
    for (const s of list) {
      if (WARMUP > 0) {
        await measure(app, s.paths, auth, WARMUP);
        await measure(floor, s.paths, auth, WARMUP);
      }
      const ours: Side[] = [];
      const theirs: Side[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        ours.push(await measure(app, s.paths, auth, SECONDS));
        theirs.push(await measure(floor, s.paths, auth, SECONDS));
      }
      const row: Row = {
        scenario: s,
        app: medianSide(ours),
        floor: medianSide(theirs),
        statements: { app: `${range(statements.get(s)!.all)}, ${range(statements.get(s)!.sequential)}`, floor: range(floorStatements.get(s)!) },
      };
      rows.push(row);
      report(
        `| ${s.name} | ${fmt(row.app.rps)} | ${fmt(row.floor.rps)} | ${row.floor.rps > 0 ? (row.app.rps / row.floor.rps).toFixed(2) : '—'} | ` +
          `${ms(row.app.p50)} / ${ms(row.app.p99)} | ${ms(row.floor.p50)} / ${ms(row.floor.p99)} | ` +
          `${row.app.cpuMs.toFixed(1)} (${row.floor.cpuMs.toFixed(1)}) | ${row.statements.app} (${row.statements.floor}) | ` +
          `${row.app.errors + row.floor.errors} |`,
      );
    }
    report();
    report(`Load average at the end of the ${scale} scale: ${loadAverage()}`);
    return rows;
  } finally {
    await stop(app.child);
    if (floor) await stop(floor.child);
  }
}

async function main() {
  const cpus = os.cpus();
  report(
    `Machine: ${cpus.length} × ${cpus[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; ` +
      `load average (1, 5, 15 min) at the start: ${loadAverage()}`,
  );
  const results = new Map<string, Row[]>();
  for (const scale of SCALE_NAMES) results.set(scale, await benchScale(scale));
  if (results.has('small') && results.has('large')) {
    report();
    report('### Growth from the small to the large scale (p50)');
    report();
    report('| what the screen sends | app p50 small → large | app growth | floor p50 small → large | floor growth |');
    report('|---|---|---|---|---|');
    const small = results.get('small')!;
    for (const l of results.get('large')!) {
      // Scenario names may carry the scale's own numbers (a page, a count) in brackets: matched without them.
      const key = (name: string) => name.replace(/ \([^)]*\d[^)]*\)/g, '');
      const s = small.find((x) => key(x.scenario.name) === key(l.scenario.name));
      if (!s) continue;
      report(
        `| ${key(l.scenario.name)} | ${ms(s.app.p50)} → ${ms(l.app.p50)} | ×${(l.app.p50 / s.app.p50).toFixed(1)} | ` +
          `${ms(s.floor.p50)} → ${ms(l.floor.p50)} | ×${(l.floor.p50 / s.floor.p50).toFixed(1)} |`,
      );
    }
  }
  report();
  report(`Load average at the end: ${loadAverage()}`);
  if (OUT) fs.writeFileSync(OUT, `${output.join('\n')}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
