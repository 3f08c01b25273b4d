/**
 * Query plans at a million rows. Generates the large scale (bench/data) into a fresh PostgreSQL
 * database, ANALYZEs it, then calls every list route of the OpenAPI document (each filter on its
 * own, each sort both ways, the search) through app.inject, records the SQL the route sent and
 * EXPLAINs it: a plan-once statement's generic plan, which every call of it runs, and any other
 * statement's plan for the values sent. A sequential scan of a table of more than 10,000 rows
 * fails the test, unless the planner expects a LIMIT to stop it within 30,000 rows.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run test:explain
 * EXPLAIN_DATABASE_URL=<an already generated database> skips the generation (it is kept).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineParams, openCapturingDatabase, type CapturedQuery, type CapturingDatabase } from '../../bench/data/capture.ts';
import { generateData } from '../../bench/data/generate.ts';
import { SCALES } from '../../bench/data/scales.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { queryRows } from '../../server/db/index.ts';
import { DEMO_STAFF } from '../../server/seed.ts';
import { databaseUrl, withAdminClient } from '../api/pg.ts';

const serverUrl = process.env.DATABASE_URL;
const reuseUrl = process.env.EXPLAIN_DATABASE_URL;
/** Tables with more rows than this must not be read whole. */
const BIG_TABLE = 10_000;
/**
 * Calls whose full scans are accepted, with the reason. Keep this short: each entry is a known
 * cost at scale (docs/benchmarks.md lists them).
 */
const ACCEPTED: [RegExp, string][] = [
  [/^\/api\/admin\/articles\?.*sort=status/, 'the status is derived from now() (scheduled vs published): 50,000 rows are sorted'],
  [
    /^\/api\/admin\/resident-roles\?/,
    "the roles list counts the residents of each of its few roles: the organization's 1,000,000 links are aggregated (to be kept as counters)",
  ],
  [/^\/api\/admin\/find\/city\?/, 'the settlements reference (30,000 rows, read-only) is ranked by category and name'],
  [
    /^\/api\/admin\/residents\?page=\d+&per_page=25(&sort=[a-z]+&order=[a-z]+|&search_query=[^&]+)?$/,
    'residents are listed per member or unit; the unfiltered list orders 1,000,000 links by unit number',
  ],
];
/** Query parameters that every list has and that are varied separately (sort, order) or fixed. */
const FIXED = new Set(['page', 'per_page', 'sort', 'order', 'format']);

if (!serverUrl && !reuseUrl)
  console.warn('test:explain skipped: set DATABASE_URL to a PostgreSQL server (e.g. postgres://postgres@127.0.0.1:5432/test) to run it');

interface OpenApiParam {
  name: string;
  in: string;
  required?: boolean;
  schema: { type?: string; enum?: string[]; format?: string; items?: { type?: string; enum?: string[] } };
}
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Total Cost': number;
  'Plan Rows': number;
  Plans?: PlanNode[];
}
interface Finding {
  who: string;
  url: string;
  problem: string;
  sql?: string;
  plan?: string;
}

/** The plan as indented lines: node, relation, estimated rows. */
function planText(node: PlanNode, depth = 0): string {
  const relation = node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
  const line = `${'  '.repeat(depth)}${node['Node Type']}${relation} (rows=${node['Plan Rows']} cost=${node['Total Cost']})`;
  return [line, ...(node.Plans ?? []).map((p) => planText(p, depth + 1))].join('\n');
}

/**
 * Sequential scans of big tables, unless the planner expects a LIMIT above to stop the scan
 * after at most 3 × BIG_TABLE rows (as the capped count of a list total does when a third or
 * more of the rows match: it stops at the 10,001st).
 */
function fullScans(node: PlanNode, sizes: Map<string, number>, limitCost = Infinity): string[] {
  const underLimit = node['Node Type'] === 'Limit' ? Math.min(limitCost, node['Total Cost']) : limitCost;
  const own: string[] = [];
  const relation = node['Relation Name'];
  const size = relation ? (sizes.get(relation) ?? 0) : 0;
  const expectedRead = Math.min(1, underLimit / node['Total Cost']) * size;
  if (node['Node Type'] === 'Seq Scan' && size > BIG_TABLE && expectedRead > 3 * BIG_TABLE) {
    own.push(`Seq Scan on ${relation} (${Math.round(size).toLocaleString('en')} rows, ~${Math.round(expectedRead).toLocaleString('en')} read)`);
  }
  return [...own, ...(node.Plans ?? []).flatMap((p) => fullScans(p, sizes, underLimit))];
}

describe.skipIf(!serverUrl && !reuseUrl)('list queries at a million rows', () => {
  let database: CapturingDatabase;
  let app: FastifyInstance;
  let dropDatabase: (() => Promise<void>) | undefined;
  let dataDir: string;
  const tokens: Record<string, string> = {};
  const samples: Record<string, string[]> = {};

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-explain-'));
    let url = reuseUrl;
    if (!url) {
      const name = `zhk_explain_${crypto.randomBytes(4).toString('hex')}`;
      await withAdminClient(serverUrl!, (client) => client.query(`CREATE DATABASE "${name}"`));
      dropDatabase = () => withAdminClient(serverUrl!, async (client) => void (await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
      url = databaseUrl(serverUrl!, name);
    }
    const config = { ...loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, DATABASE_URL: url }), port: 0 };
    database = await openCapturingDatabase(url);
    const started = performance.now();
    const result = await generateData(database.db, config, SCALES.large, 1);
    if (result.generated) console.log(`large scale generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    else await database.db.execute(sql`vacuum analyze`);
    app = await buildApp({ config, database });
    for (const [who, email, password] of [
      ['admin', config.adminEmail, config.adminPassword],
      ['staff', DEMO_STAFF.email, DEMO_STAFF.password],
    ]) {
      const res = await app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password } });
      tokens[who] = res.json<{ access_token: string }>().access_token;
    }
    const one = async (query: ReturnType<typeof sql>) => String((await queryRows<{ v: unknown }>(database.db, query))[0]?.v ?? '');
    const complex = await one(sql`select min(id) as v from complexes where name like 'ЖК «Генерований %'`);
    const houses = (await queryRows<{ v: number }>(database.db, sql`select id as v from houses where complex_id = ${Number(complex)} order by id limit 2`)).map(
      (r) => String(r.v),
    );
    const staff = await one(sql`select min(id) as v from users where email like 'staff%@gen.demo.ua'`);
    Object.assign(samples, {
      complex_id: [complex],
      complex: [complex],
      complex_ids: [complex],
      house_id: [houses[0]],
      house_ids: houses,
      type_id: [await one(sql`select min(id) as v from service_request_types`)],
      responsible_id: [staff],
      performer_id: [staff],
      role_id: [await one(sql`select min(role_id) as v from users where role_id is not null`)],
      departure_id: [await one(sql`select min(id) as v from staff_departures`)],
      realty_id: [await one(sql`select max(id) as v from realty`)],
      resident_id: [await one(sql`select max(id) as v from members`)],
      member_id: [await one(sql`select max(id) as v from members`)],
      section_id: [await one(sql`select min(id) as v from contact_sections`)],
      group_id: [await one(sql`select min(id) as v from contact_groups`)],
      city_id: [await one(sql`select id as v from settlements where name = 'Київ' and category = 'К' limit 1`)],
      city: ['Київ'],
      street: ['Хрещ'],
      created_from: ['2026-10-01'],
      created_to: ['2026-10-31'],
      // Trigram indexes need 3 characters: 1–2 character searches read the table (see docs/benchmarks.md).
      // A phone as typed from a card: its digit runs (members_digit_windows_idx), not digit trigrams.
      search_query: ['ковал', '117', '095 025 01 09'],
    });
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
    await dropDatabase?.();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * The plan a query runs with: for a plan-once statement (server/db/index.ts) the generic plan,
   * which serves every call whatever its values; otherwise the plan for the values it was sent with.
   */
  async function planOf(q: CapturedQuery): Promise<PlanNode> {
    type Explained = { 'QUERY PLAN': [{ Plan: PlanNode }] };
    if (!q.planOnce) return (await database.pool.query<Explained>(`explain (format json) ${q.text}`, q.values)).rows[0]['QUERY PLAN'][0].Plan;
    const client = await database.pool.connect();
    try {
      await client.query('set plan_cache_mode = force_generic_plan; set max_parallel_workers_per_gather = 0; set jit = off');
      await client.query(`prepare explained as ${q.text}`);
      const args = inlineParams(q.values.map((_, i) => `$${i + 1}`).join(', '), q.values);
      return (await client.query<Explained>(`explain (format json) execute explained${args ? `(${args})` : ''}`)).rows[0]['QUERY PLAN'][0].Plan;
    } finally {
      await client.query('deallocate explained; reset plan_cache_mode; reset max_parallel_workers_per_gather; reset jit').catch(() => undefined);
      client.release();
    }
  }

  it('no list filter or sort reads a big table whole', async () => {
    const sizes = new Map(
      (
        await queryRows<{ name: string; n: number }>(
          database.db,
          sql`select relname as name, reltuples::float8 as n from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace`,
        )
      ).map((r) => [r.name, r.n] as const),
    );
    const doc = (await app.inject({ url: '/api/admin/openapi.json' })).json<{ paths: Record<string, { get?: { parameters?: OpenApiParam[] } }> }>();
    const lists = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/api/admin/') && !p.includes('{') && !p.endsWith('/export'))
      .map(([p, ops]) => ({ path: p, params: (ops.get?.parameters ?? []).filter((x) => x.in === 'query') }))
      .filter((r) => r.params.some((x) => x.name === 'page') || r.path.startsWith('/api/admin/find/'));

    const findings: Finding[] = [];
    const timings: { url: string; ms: number }[] = [];
    let checked = 0;
    let generic = 0;
    for (const route of lists) {
      const query = (name: string, value: string, array: boolean) =>
        array ? `${name}[]=${encodeURIComponent(value)}` : `${name}=${encodeURIComponent(value)}`;
      const isArray = (p: OpenApiParam) => p.schema.type === 'array';
      const valuesOf = (p: OpenApiParam) => p.schema.enum ?? p.schema.items?.enum ?? samples[p.name];
      const required = route.params.filter((p) => p.required).map((p) => query(p.name, valuesOf(p)?.[0] ?? '', isArray(p)));
      const base = [...required, ...(route.params.some((p) => p.name === 'page') ? ['page=1', 'per_page=25'] : [])];
      const cases: string[][] = [base];
      for (const p of route.params) {
        if (FIXED.has(p.name) || p.required) continue;
        const values = valuesOf(p);
        if (!values) {
          findings.push({
            who: '-',
            url: route.path,
            problem: `no sample value for the filter «${p.name}»: add one to samples in tests/explain/plans.test.ts`,
          });
          continue;
        }
        if (isArray(p) && !p.schema.items?.enum) cases.push([...base, ...values.map((v) => query(p.name, v, true))]);
        else for (const v of values) cases.push([...base, query(p.name, v, isArray(p))]);
      }
      // A search within the header's complex and its houses, as the screens send it: such a search
      // may keep its plan (server/crud/types.ts, PageSource.planOnce).
      const inComplex = ['complex_id', 'house_ids'].filter((name) => route.params.some((p) => p.name === name));
      if (inComplex.includes('complex_id') && route.params.some((p) => p.name === 'search_query'))
        for (const v of samples.search_query)
          cases.push([
            ...base,
            ...inComplex.flatMap((name) => samples[name].map((x) => query(name, x, name === 'house_ids'))),
            query('search_query', v, false),
          ]);
      // A later page, also within the header's complex: its statement may start from a kept key
      // (server/lib/keptStarts.ts), and both of its walks are explained.
      if (route.params.some((p) => p.name === 'page'))
        for (const where of [[], inComplex.flatMap((name) => samples[name].map((x) => query(name, x, name === 'house_ids')))])
          cases.push([...required, 'page=3', 'per_page=25', ...where]);
      const sort = route.params.find((p) => p.name === 'sort');
      for (const s of sort?.schema.enum ?? []) for (const o of ['asc', 'desc']) cases.push([...base, `sort=${s}`, `order=${o}`]);

      for (const who of ['admin', 'staff']) {
        for (const c of who === 'staff' ? [base] : cases) {
          const url = `${route.path}?${c.join('&')}`;
          const started = performance.now();
          const { result: res, queries } = await database.capture(() => app.inject({ url, headers: { authorization: `Bearer ${tokens[who]}` } }));
          timings.push({ url: `${who} ${url}`, ms: performance.now() - started });
          if (who === 'staff' && res.statusCode === 403) continue;
          if (res.statusCode !== 200) {
            findings.push({ who, url, problem: `answered ${res.statusCode}: ${res.body.slice(0, 200)}` });
            continue;
          }
          for (const q of queries as CapturedQuery[]) {
            if (!/^\s*(select|with)\b/i.test(q.text)) continue;
            checked += 1;
            if (q.planOnce) generic += 1;
            const plan = await planOf(q);
            if (ACCEPTED.some(([pattern]) => pattern.test(url))) continue;
            for (const problem of fullScans(plan, sizes)) findings.push({ who, url, problem, sql: inlineParams(q.text, q.values), plan: planText(plan) });
          }
        }
      }
    }
    timings.sort((a, b) => b.ms - a.ms);
    console.log(
      `${lists.length} list routes, ${timings.length} calls, ${checked} queries explained (${generic} by their generic plan); slowest calls:\n${timings
        .slice(0, 10)
        .map((t) => `  ${t.ms.toFixed(0).padStart(6)} ms  ${t.url}`)
        .join('\n')}`,
    );
    const report = findings.map((f) => `${f.who} GET ${f.url}\n  ${f.problem}${f.sql ? `\n  ${f.sql}\n${f.plan!.replace(/^/gm, '    ')}` : ''}`).join('\n\n');
    expect(findings.length, `${findings.length} problems:\n\n${report}`).toBe(0);
  });
});
