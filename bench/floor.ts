/**
 * The best-SQL floor for bench/api.ts: a bare Fastify server with a node-postgres pool that
 * answers the list calls of the benchmark's scenarios at the app's own paths, with the app's
 * JSON (bench/api.ts checks every variant deep-equal against the app before timing), from SQL
 * written by hand for each list: one prepared statement that picks the page and builds the
 * records' JSON. A total is kept as the app keeps it: the page's statement reads the version of
 * the tables its count reads, and the count (capped at 10,001 rows, as the app's lists are) is a
 * statement of its own, run only when no total is kept or the version changed; a list that
 * counts what it reads anyway (a meeting's participants, a survey's respondents) counts in its
 * page's statement. One more statement only where the total is the planner's estimate, by the
 * app's rule (docs/benchmarks.md).
 *
 * No validation, no ORM: it answers what the organization's admin sees, to a bearer token of
 * that admin's session, checked as the app's lists check it: in the call's own statement. Its
 * answers carry the app's headers (security headers, no-store), set in one step. A parameter it
 * does not know is a 400, so that a scenario it cannot serve fails loudly rather than
 * differently. Each answer says in `x-statements` how many statements it sent.
 *
 * Started by bench/api.ts: DATABASE_URL=… FLOOR_ADMIN_EMAIL=… node --import tsx bench/floor.ts
 */
import { createHash } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import pg from 'pg';
import { securityHeaders } from '../server/app.ts';

/** Lists count exactly up to this many rows; above it the total is the planner's estimate (the app's rule). */
const EXACT_TOTAL_LIMIT = 10_000;
/** Ukrainian order as plain code points: each letter becomes a private-use character in alphabet order. */
const UK = 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя';
const UK_KEYS = Array.from(UK, (_, i) => String.fromCharCode(0xe000 + i)).join('');
const sortKey = (column: string) => `translate(lower(${column}), '${UK}', '${UK_KEYS}')`;
/** Natural order of unit numbers: the count of leading digits, then the text («2» before «10»). */
const naturalKeyList = (column: string) => [`nullif(length(${column}) - length(ltrim(${column}, '0123456789')), 0)`, sortKey(column)];
const naturalKeys = (column: string) => naturalKeyList(column).join(', ');
/** An ISO 8601 instant in UTC with milliseconds, as `Date.toISOString()` writes it. */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** A house's one-line address («м. Київ, вулиця Липова, 12А»); needs h (houses), s (settlements), st (streets). */
const ADDRESS = `((case s.category when 'М' then 'м. ' when 'К' then 'м. ' when 'Х' then 'с-ще ' when 'С' then 'с. ' else '' end)
  || s.name || ', ' || coalesce(nullif(st.type, '') || ' ', '') || st.name || ', ' || h.number
  || (case when h.building = '' then '' when h.building ~ '^[A-Za-zА-Яа-яҐґЄєІіЇї]$' then h.building else ', ' || h.building end))`;
const HOUSE_JOINS = 'join settlements s on s.id = h.settlement_id join streets st on st.id = h.street_id';

type Query = Record<string, string | string[]>;

class BadRequest extends Error {}

/** PHP-style query strings, as the app reads them: `a[]=1&a[]=2` → ['1', '2']. */
function parseQuery(qs: string): Query {
  const out: Query = {};
  for (const part of qs.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = decodeURIComponent((eq === -1 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
    const value = decodeURIComponent((eq === -1 ? '' : part.slice(eq + 1)).replace(/\+/g, ' '));
    const array = /^(.+?)\[\d*\]$/.exec(key);
    if (array) out[array[1]] = [...((out[array[1]] as string[] | undefined) ?? []), value];
    else out[key] = value;
  }
  return out;
}

/** The query's parameters, refusing any this floor does not serve. */
function params(q: Query, known: string[]) {
  for (const k of Object.keys(q)) if (!known.includes(k)) throw new BadRequest(`the floor does not serve the parameter ${k}`);
  const one = (k: string) => {
    const v = q[k];
    if (Array.isArray(v)) throw new BadRequest(`${k}: one value`);
    return v;
  };
  const int = (k: string, fallback?: number) => {
    const v = one(k);
    if (v === undefined || v === '') return fallback;
    if (!/^\d+$/.test(v)) throw new BadRequest(`${k}: a number`);
    return Number(v);
  };
  const ints = (k: string) => {
    const v = q[k];
    if (v === undefined) return undefined;
    return (Array.isArray(v) ? v : [v]).map((x) => {
      if (!/^\d+$/.test(x)) throw new BadRequest(`${k}: numbers`);
      return Number(x);
    });
  };
  const list = (k: string) => {
    const v = q[k];
    return v === undefined ? undefined : Array.isArray(v) ? v : [v];
  };
  return { one, int, ints, list };
}

/** Laravel's paginator fields, as the app answers them. */
function paginate(total: number, estimated: boolean, page: number, perPage: number) {
  const first = (page - 1) * perPage + 1;
  const empty = total === 0 || first > total;
  return {
    current_page: page,
    from: empty ? 0 : first,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    per_page: perPage,
    to: empty ? 0 : Math.min(total, page * perPage),
    total,
    ...(estimated ? { estimated: true } : {}),
  };
}

/** What the search boxes compare: apostrophes folded, lower case, spaces collapsed. */
const searchForm = (value: string) =>
  value
    .replace(/['ʼ`‘]/g, '’')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** Digits of a phone typed in the search box (without leading zeros), or '' when it is not one. */
const phoneDigits = (query: string) => (/^[+\d\s().-]+$/.test(query.trim()) ? query.replace(/\D/g, '').replace(/^0+/, '') : '');

/** Per text: the parameters used only as row counts, and those the text does not use. */
const countParams = new Map<string, { counted: number[]; unused: number[] }>();

/**
 * The text with each integer parameter used only as a row count (`limit $n`, `offset $n`,
 * `$n::int`) written in as a number, the parameters it does not use dropped (a statement may
 * read only some of a list's values), and the others renumbered: the planner's generic plan then
 * knows the page's size and is kept after five calls instead of planning every call.
 */
function inlineCounts(text: string, values: unknown[]): { text: string; values: unknown[] } {
  let params = countParams.get(text);
  if (!params) {
    const uses = values.map((_, i) => {
      const n = i + 1;
      return {
        n,
        all: [...text.matchAll(new RegExp(`\\$${n}(?!\\d)`, 'g'))].length,
        counts: [...text.matchAll(new RegExp(`(?:limit |offset )\\$${n}(?![\\d:])|\\$${n}::int(?![\\w\\[])`, 'g'))].length,
      };
    });
    params = { counted: uses.filter((u) => u.all > 0 && u.all === u.counts).map((u) => u.n), unused: uses.filter((u) => u.all === 0).map((u) => u.n) };
    countParams.set(text, params);
  }
  const inline = new Set(params.counted.filter((n) => typeof values[n - 1] === 'number' && Number.isSafeInteger(values[n - 1])));
  if (!inline.size && !params.unused.length) return { text, values };
  const dropped = new Set([...inline, ...params.unused]);
  const kept: unknown[] = [];
  const renumbered = new Map<number, number>();
  values.forEach((v, i) => {
    if (!dropped.has(i + 1)) renumbered.set(i + 1, kept.push(v));
  });
  return {
    text: text.replace(/\$(\d+)/g, (_, d: string) => (inline.has(Number(d)) ? String(values[Number(d) - 1]) : `$${renumbered.get(Number(d))}`)),
    values: kept,
  };
}

interface Call {
  statements: number;
  /** The bearer token's hash; the call's first statement checks the session (`run`), as the app's lists do. */
  session: string;
  confirmed: boolean;
}

class Unauthenticated extends Error {}

/** A call of a request with a bearer token (401 without one). */
function callOf(request: FastifyRequest): Call {
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!token || token.length > 200) throw new Unauthenticated('Unauthenticated.');
  return { statements: 0, session: createHash('sha256').update(token).digest('hex'), confirmed: false };
}

async function main() {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  pool.on('error', () => {});
  /**
   * As the app's lists: a statement without a search, or a search that tests the same index's
   * rows whatever the pattern, keeps its first plan for all values (`planOnce`), without
   * parallel workers.
   */
  const planOncePool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: 10,
    options: '-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0 -c jit=off',
  });
  planOncePool.on('error', () => {});
  const searches = (text: string) => /\blike\b|strpos\(|^explain/i.test(text);
  const names = new Map<string, string>();
  /** FLOOR_EXPLAIN=1: each statement's plan (EXPLAIN ANALYZE) is printed the first time it runs. */
  const EXPLAIN = process.env.FLOOR_EXPLAIN === '1';
  const explained = new Set<string>();
  /**
   * One statement, prepared on each connection the first time (named by its text). A page's
   * size and offset are written into the text (`inlineCounts`), as the app writes its page size.
   */
  const run = async <T>(call: Call, body: string, bodyValues: unknown[], planOnce?: boolean): Promise<T[]> => {
    // The call's first statement also checks its session, the best way: in the same statement,
    // beside the answer (the session is valid, of an admin of the floor's organization).
    const confirm = !call.confirmed && !body.startsWith('explain');
    const sent = confirm
      ? `select (select u.is_admin from auth_tokens t join users u on u.id = t.user_id
          where t.token_hash = $${bodyValues.length + 1} and t.revoked_at is null and t.expires_at > now()
            and u.organization_id = ${org}) as floor_session,
          floor_body.* from (${body}) as floor_body`
      : body;
    const { text, values } = inlineCounts(sent, confirm ? [...bodyValues, call.session] : bodyValues);
    let name = names.get(text);
    if (!name) names.set(text, (name = `floor_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`));
    call.statements += 1;
    if (EXPLAIN && !explained.has(name) && !text.startsWith('explain')) {
      explained.add(name);
      const plan = await pool.query<{ 'QUERY PLAN': string }>({ text: `explain (analyze, buffers) ${text}`, values });
      console.log(`\n${text}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
    }
    const { rows } = await ((planOnce ?? !searches(text)) ? planOncePool : pool).query({ name, text, values });
    if (confirm) {
      if (rows[0]?.floor_session !== true) throw new Unauthenticated('Unauthenticated.');
      call.confirmed = true;
    }
    return rows as T[];
  };
  /** The planner's estimate of a list's rows, never less than the exact limit + 1 (the app's rule above the limit). */
  const estimate = async (call: Call, text: string, values: unknown[]) => {
    const [row] = await run<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(call, `explain (format json) ${text}`, values);
    return Math.max(EXACT_TOTAL_LIMIT + 1, Math.round(row['QUERY PLAN'][0].Plan['Plan Rows']));
  };

  /**
   * Totals kept as the app keeps them (docs/architecture.md, "Kept totals"): per call without its
   * page, with the version of the tables the count reads (list_changes). The page's statement reads
   * only the version (`columns`: `v`); the count is a statement of its own (`with`: the CTEs it
   * needs), run when no total is kept or the version differs, and kept with the version it read.
   */
  const keptTotals = new Map<string, { total: number; estimated: boolean; version: string }>();
  const keptCount = (url: string, tables: string[], values: unknown[], count: string, withs = '') => {
    const key = url.replace(/([?&])page=\d+/, '$1');
    const version = `(select coalesce(sum(n), 0)::text from list_changes
      where table_name = any($${values.push(tables)}::text[]) and (organization_id = $1 or organization_id is null))`;
    return {
      columns: `${version} as v`,
      settle: async (call: Call, row: { v: string }, estimateRows?: string) => {
        const entry = keptTotals.get(key);
        if (entry && entry.version === row.v) return entry;
        const [counted] = await run<{ n: number; v: string }>(call, `${withs} select ${count} as n, ${version} as v`, values);
        let total = counted.n;
        const estimated = Boolean(estimateRows) && total > EXACT_TOTAL_LIMIT;
        if (estimated) total = await estimate(call, estimateRows!, [org]);
        const kept = { total, estimated, version: counted.v };
        keptTotals.set(key, kept);
        return kept;
      },
    };
  };

  const [admin] = (await pool.query<{ org: number }>('select organization_id as org from users where email = $1 and is_admin', [process.env.FLOOR_ADMIN_EMAIL]))
    .rows;
  if (!admin) throw new Error(`no admin ${process.env.FLOOR_ADMIN_EMAIL}`);
  const org = admin.org;
  // A stored name key on members (when the schema has one) is what the organization's list walks.
  const storedKey = (
    await pool.query<{ ok: boolean }>(
      `select exists (select 1 from information_schema.columns where table_schema = 'public' and table_name = 'members' and column_name = 'name_key') as ok`,
    )
  ).rows[0].ok;
  const memberKey = (alias: string) => (storedKey ? `${alias}.name_key` : sortKey(`${alias}.name`));

  const app = Fastify({ logger: false, routerOptions: { querystringParser: parseQuery } });
  // The app's answer has its security headers and no-store: the same answer has them too, set as
  // the app sets them (one object, in one step).
  const headers = { ...securityHeaders(), 'cache-control': 'no-store' };
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  const send = (reply: FastifyReply, call: Call, body: string) =>
    reply.type('application/json; charset=utf-8').header('x-statements', String(call.statements)).send(body);
  app.setErrorHandler((err, _request, reply) => {
    void reply
      .code(err instanceof BadRequest ? 400 : err instanceof Unauthenticated ? 401 : 500)
      .send({ message: err instanceof Error ? err.message : String(err) });
  });

  /** The page's JSON (`data`, an array) and the version (`v`) of its count's tables. */
  type PageRow = { data: string; v: string };
  /** The page's JSON and its count, for lists that count what they read anyway. */
  type CountedRow = { data: string; n: number };

  // ── /Members ─────────────────────────────────────────────────────────────────────────────
  /** A page of members (`page`: member_id and name_key, in order) as the list's records. */
  const memberRecords = (order: string) => `
    units as (
      select r.member_id, json_agg(json_build_object(
          'resident_id', r.id, 'realty_id', r.realty_id, 'house_id', u.house_id, 'complex_id', h.complex_id, 'address', ${ADDRESS},
          'type', u.type, 'number', u.number, 'role_id', r.role_id, 'role', rr.name,
          'ownership_share', case when r.share_numerator is null or r.share_denominator is null then null
            when r.share_numerator = r.share_denominator then '1' else r.share_numerator || '/' || r.share_denominator end)
        order by ${naturalKeys('u.number')}, r.id) as list
      from page p
      join residents r on r.member_id = p.member_id and r.organization_id = $1
      join realty u on u.id = r.realty_id
      join resident_roles rr on rr.id = r.role_id
      join houses h on h.id = u.house_id ${HOUSE_JOINS}
      group by r.member_id),
    vehicles_of as (
      select v.member_id, count(*)::int as n from vehicles v where v.member_id in (select member_id from page) group by v.member_id)
    select coalesce(json_agg(json_build_object(
        'id', m.id, 'name', m.name, 'phone', m.phone, 'email', m.email, 'status', m.status, 'note', m.note,
        'units', coalesce(un.list, '[]'), 'vehicles_count', coalesce(vo.n, 0),
        'created_at', ${iso('m.created_at')}, 'updated_at', ${iso('m.updated_at')})
      order by ${order}), '[]')::text as data`;

  app.get('/api/admin/members', async (request, reply) => {
    const call = callOf(request);
    const p = params(request.query as Query, ['page', 'per_page', 'sort', 'order', 'complex_id', 'house_ids', 'status', 'search_query']);
    const page = p.int('page', 1)!;
    const perPage = p.int('per_page', 25)!;
    if (p.one('sort') !== 'name' || (p.one('order') ?? 'asc') !== 'asc') throw new BadRequest('members: sort=name, order=asc only');
    const complexId = p.int('complex_id');
    const houseIds = p.ints('house_ids');
    const status = p.one('status');
    const search = searchForm(p.one('search_query') ?? '');
    let total: number;
    let estimated = false;
    let data: string;
    if (complexId === undefined) {
      if (houseIds || status || search) throw new BadRequest('members without a complex: no filters');
      // The organization's members in name order: one index walked from the page's start.
      const values: unknown[] = [org, perPage, (page - 1) * perPage];
      const kept = keptCount(
        request.url,
        ['members'],
        values,
        `(select count(*)::int from (select 1 from members where organization_id = $1 limit ${EXACT_TOTAL_LIMIT + 1}) c)`,
      );
      const [row] = await run<PageRow>(
        call,
        `with page as (
           select m.id as member_id, ${memberKey('m')} as name_key from members m where m.organization_id = $1
           order by ${memberKey('m')} asc, m.id asc limit $2 offset $3), ${memberRecords('p.name_key, p.member_id')},
           ${kept.columns}
         from page p join members m on m.id = p.member_id left join units un on un.member_id = p.member_id
           left join vehicles_of vo on vo.member_id = p.member_id`,
        values,
      );
      data = row.data;
      ({ total, estimated } = await kept.settle(call, row, 'select 1 from members where organization_id = $1'));
    } else {
      // The complex's entries of member_units in name order (a member with several units there is one entry).
      const values: unknown[] = [org, perPage, (page - 1) * perPage, complexId];
      const where = ['mu.complex_id = $4', 'mu.organization_id = $1'];
      // With a search the houses only filter the complex's index walk (`+ 0`: never a bitmap of their own).
      if (houseIds) where.push(`mu.house_id${search ? ' + 0' : ''} = any($${values.push(houseIds)}::int[])`);
      if (status) where.push(`mu.status = $${values.push(status)}`);
      if (search) {
        // Name, e-mail, phone digits, or the number of one of the member's units.
        const digits = phoneDigits(p.one('search_query')!);
        const phone = digits.length >= 7;
        // A phone: the members whose text has every run of seven of its digits (the GIN index on
        // digit_windows; a search of up to 14 digits has at most eight), tested for all of them;
        // the text as typed too unless it holds the digits.
        const runs = [...new Set(Array.from({ length: digits.length - 6 }, (_, i) => Number(digits.slice(i, i + 7))))].slice(-8);
        const text = phone
          ? [
              `(strpos(m.search, $${values.push(digits)}) > 0 and digit_windows(m.search) @> $${values.push(runs)}::int[])`,
              ...(search.includes(digits) ? [] : [`m.search like $${values.push(likePattern(search))}`]),
            ]
          : [];
        const plain = phone ? [] : [`$${values.push(search)}`, ...(digits.length >= 3 ? [`$${values.push(digits)}`] : [])];
        const byUnit = `select r.member_id from realty u join residents r on r.realty_id = u.id
            where u.organization_id = $1 and lower(u.number) = $${values.push(search)}`;
        if (phone)
          // A phone number: its few members from members.search (the same text member_units keeps),
          // then their entries in the complex.
          where.push(`mu.member_id = any(array(
            select m.id from members m where m.organization_id = $1 and (${text.join(' or ')})
            union (${byUnit} limit 5000)))`);
        // Otherwise the complex's entries in name order, each tested (the page stops at its last row).
        // A plain substring test (strpos) per entry, one plan for every pattern.
        else if (search.length <= 20)
          where.push(`(${plain.map((t) => `strpos(mu.search, ${t}) > 0`).join(' or ')} or mu.member_id = any(array(${byUnit} limit 5000)))`);
        else where.push(`(${plain.map((t) => `strpos(mu.search, ${t}) > 0`).join(' or ')})`);
      }
      const rows = `select mu.name_key, mu.member_id from member_units mu where ${where.join(' and ')} group by mu.name_key, mu.member_id`;
      // The complex's entries in name order, each tested against the search if any: the page
      // stops at its last row, and its count (kept) walks the index only when a write changed it.
      const kept = keptCount(
        request.url,
        ['member_units', 'members', 'realty', 'residents'],
        values,
        `(select count(*)::int from (${rows} limit ${EXACT_TOTAL_LIMIT + 1}) c)`,
      );
      const [row] = await run<PageRow>(
        call,
        `with page as (${rows} order by mu.name_key, mu.member_id limit $2 offset $3), ${memberRecords('p.name_key, p.member_id')},
           ${kept.columns}
         from page p join members m on m.id = p.member_id left join units un on un.member_id = p.member_id
           left join vehicles_of vo on vo.member_id = p.member_id`,
        values,
        // As the app: page 1 of a search in a complex keeps its plan (the same walk for every pattern).
        search ? page === 1 : undefined,
      );
      data = row.data;
      total = (await kept.settle(call, row)).total;
      if (total > EXACT_TOTAL_LIMIT) throw new BadRequest('members of a complex: more than the exact limit');
    }
    return send(reply, call, `{"data":${data},"pagination":${JSON.stringify(paginate(total, estimated, page, perPage))}}`);
  });

  // ── /Requests ────────────────────────────────────────────────────────────────────────────
  app.get('/api/admin/service_request', async (request, reply) => {
    const call = callOf(request);
    const p = params(request.query as Query, ['page', 'per_page', 'sort', 'order', 'complex_id', 'house_ids', 'stage', 'type_id', 'overdue', 'search_query']);
    const page = p.int('page', 1)!;
    const perPage = p.int('per_page', 25)!;
    if (p.one('sort') !== 'created_at' || p.one('order') !== 'desc') throw new BadRequest('requests: sort=created_at, order=desc only');
    const complexId = p.int('complex_id');
    if (complexId === undefined) throw new BadRequest('requests: complex_id needed');
    const values: unknown[] = [org, perPage, (page - 1) * perPage, complexId];
    const houses = ['h.organization_id = $1', 'h.complex_id = $4'];
    const houseIds = p.ints('house_ids');
    if (houseIds) houses.push(`h.id = any($${values.push(houseIds)}::int[])`);
    const where = ['r.organization_id = $1'];
    const stages = p.list('stage');
    if (stages) where.push(`r.stage = any($${values.push(stages)}::text[])`);
    const typeId = p.int('type_id');
    if (typeId !== undefined) where.push(`r.type_id = $${values.push(typeId)}`);
    const overdue = p.one('overdue');
    if (overdue === '1') where.push(`r.stage <> 'done' and r.deadline < now()`);
    else if (overdue !== undefined) throw new BadRequest('requests: overdue=1 only');
    const search = searchForm(p.one('search_query') ?? '').replace(/^№\s*/, '№');
    // A substring test on each of the complex's requests (a few thousand): cheaper than the
    // organization-wide trigram index, which the planner would otherwise intersect house by house.
    if (search) where.push(`strpos(r.search, $${values.push(search)}) > 0`);
    // Each chosen house's newest requests from its own index, merged: the page never reads more
    // than page × houses rows, whatever the complex's size. (A count that uses the clock is never kept.)
    const counted = `(select count(*)::int from (select 1 from service_requests r where r.house_id in (select id from hs) and ${where.join(' and ')}
            limit ${EXACT_TOTAL_LIMIT + 1}) c)`;
    const houseRows = `hs as materialized (select h.id from houses h where ${houses.join(' and ')})`;
    const kept = overdue ? undefined : keptCount(request.url, ['houses', 'service_requests'], values, counted, `with ${houseRows}`);
    // Houses named in the query (up to 50): one branch each, merged in order (Merge Append), so
    // that each house's rows are read only as far as the page needs them; else the lateral walk.
    const distinct = houseIds && [...new Set(houseIds)];
    const named = distinct && distinct.length <= 50 ? distinct : undefined;
    const branch = (house: number) => {
      const k = values.push(house);
      return `(select * from service_requests r where r.house_id = $${k} and $${k} in (select id from hs) and ${where.join(' and ')}
           order by r.created_at desc, r.id desc limit $2::int + $3::int)`;
    };
    const merged = named
      ? `select r.* from (${named.map(branch).join(' union all ')}) r`
      : `select r.* from hs cross join lateral (
           select * from service_requests r where r.house_id = hs.id and ${where.join(' and ')}
           order by r.created_at desc, r.id desc limit $2::int + $3::int) r`;
    const [row] = await run<PageRow & { n: number }>(
      call,
      `with ${houseRows},
       page as (
         ${merged}
         order by r.created_at desc, r.id desc limit $2 offset $3)
       select coalesce(json_agg(json_build_object(
           'id', r.id, 'number', r.number, 'type_id', r.type_id, 'type', t.name, 'house_id', r.house_id,
           'complex_id', h.complex_id, 'complex_name', c.name, 'address', ${ADDRESS},
           'realty_id', r.realty_id, 'realty_number', u.number, 'member_id', r.member_id, 'member_name', m.name, 'member_phone', m.phone,
           'text', r.text, 'stage', r.stage, 'priority', r.priority, 'deadline', ${iso('r.deadline')},
           'overdue', r.stage <> 'done' and r.deadline is not null and r.deadline < now(),
           'responsible_id', r.responsible_id, 'responsible', case when rs.id is null then null else json_build_object('id', rs.id, 'name', rs.name) end,
           'performer_id', r.performer_id, 'performer', case when pf.id is null then null else json_build_object('id', pf.id, 'name', pf.name) end,
           'media_ids', coalesce((select json_agg(sm.media_id order by sm.media_id) from service_request_media sm where sm.request_id = r.id), '[]'),
           'done_at', ${iso('r.done_at')}, 'created_at', ${iso('r.created_at')}, 'updated_at', ${iso('r.updated_at')})
         order by r.created_at desc, r.id desc), '[]')::text as data,
         ${kept ? kept.columns : `${counted} as n`}
       from page r
       join houses h on h.id = r.house_id ${HOUSE_JOINS}
       left join complexes c on c.id = h.complex_id
       left join service_request_types t on t.id = r.type_id
       left join realty u on u.id = r.realty_id
       left join members m on m.id = r.member_id
       left join users rs on rs.id = r.responsible_id
       left join users pf on pf.id = r.performer_id`,
      values,
      // As the app: a page merged branch by branch keeps its plan, with a search too.
      named ? true : undefined,
    );
    const total = kept ? (await kept.settle(call, row)).total : row.n;
    if (total > EXACT_TOTAL_LIMIT) throw new BadRequest('requests: more than the exact limit');
    return send(reply, call, `{"main_data":{${JSON.stringify(paginate(total, false, page, perPage)).slice(1, -1)},"data":${row.data}}}`);
  });

  // ── /Realty ──────────────────────────────────────────────────────────────────────────────
  app.get('/api/admin/realty', async (request, reply) => {
    const call = callOf(request);
    const p = params(request.query as Query, ['page', 'per_page', 'sort', 'order']);
    const page = p.int('page', 1)!;
    const perPage = p.int('per_page', 15)!;
    if (p.one('sort') !== 'house' || p.one('order') !== 'asc') throw new BadRequest('realty: sort=house, order=asc only');
    // Units by house, numbers naturally within each: one index in that order.
    const values: unknown[] = [org, perPage, (page - 1) * perPage];
    const kept = keptCount(
      request.url,
      ['realty'],
      values,
      `(select count(*)::int from (select 1 from realty where organization_id = $1 limit ${EXACT_TOTAL_LIMIT + 1}) c)`,
    );
    const [row] = await run<PageRow>(
      call,
      `with page as (
         select * from realty u where u.organization_id = $1
         order by u.house_id asc, ${naturalKeyList('u.number')
           .map((k) => `${k} asc nulls last`)
           .join(', ')}, u.id asc
         limit $2 offset $3)
       select coalesce(json_agg(json_build_object(
           'id', u.id, 'house_id', u.house_id, 'complex_id', h.complex_id, 'address', ${ADDRESS}, 'type', u.type, 'number', u.number,
           'area', u.area, 'floor', u.floor, 'entrance', u.entrance, 'created_at', ${iso('u.created_at')}, 'updated_at', ${iso('u.updated_at')})
         order by u.house_id, ${naturalKeys('u.number')}, u.id), '[]')::text as data,
         ${kept.columns}
       from page u join houses h on h.id = u.house_id ${HOUSE_JOINS}`,
      values,
    );
    const { total, estimated } = await kept.settle(call, row, 'select 1 from realty where organization_id = $1');
    return send(reply, call, `{"main_data":{${JSON.stringify(paginate(total, estimated, page, perPage)).slice(1, -1)},"data":${row.data}}}`);
  });

  // ── /News ────────────────────────────────────────────────────────────────────────────────
  app.get('/api/admin/articles', async (request, reply) => {
    const call = callOf(request);
    const p = params(request.query as Query, ['page', 'per_page', 'sort', 'order', 'complex_id', 'house_ids']);
    const page = p.int('page', 1)!;
    const perPage = p.int('per_page', 15)!;
    if (p.one('sort') !== 'publish_at' || p.one('order') !== 'desc') throw new BadRequest('news: sort=publish_at, order=desc only');
    const complexId = p.int('complex_id');
    if (complexId === undefined) throw new BadRequest('news: complex_id needed');
    const values: unknown[] = [org, perPage, (page - 1) * perPage, complexId];
    // For the complex, and either for the whole complex or for one of the chosen houses.
    const where = ['a.organization_id = $1', 'exists (select 1 from article_complexes ac where ac.article_id = a.id and ac.complex_id = $4)'];
    const houseIds = p.ints('house_ids');
    if (houseIds?.length)
      where.push(`(not exists (select 1 from article_houses ah join houses h on h.id = ah.house_id where ah.article_id = a.id and h.complex_id = $4)
        or exists (select 1 from article_houses ah where ah.article_id = a.id and ah.house_id = any($${values.push(houseIds)}::int[])))`);
    const kept = keptCount(
      request.url,
      ['article_complexes', 'article_houses', 'articles', 'houses'],
      values,
      `(select count(*)::int from (select 1 from articles a where ${where.join(' and ')} limit ${EXACT_TOTAL_LIMIT + 1}) c)`,
    );
    // The page: the complex's links in publish order (article_complexes.publish_at, kept by triggers), each article tested.
    const onLink = ['a.organization_id = $1', ...where.slice(2)];
    const [row] = await run<PageRow>(
      call,
      `with page as (
         select a.id from article_complexes ac join articles a on a.id = ac.article_id where ac.complex_id = $4 and ${onLink.join(' and ')}
         order by ac.publish_at desc nulls last, ac.article_id desc limit $2 offset $3)
       select coalesce(json_agg(json_build_object(
           'id', a.id, 'title', a.title, 'body', a.body,
           'excerpt', a.excerpt,
           'image_id', a.image_id, 'image_url', case when md.key is null then null else '/api/admin/media/' || md.key end,
           'status', case when a.status = 'draft' then 'draft' when a.publish_at > now() then 'scheduled' else 'published' end,
           'publish_at', ${iso('a.publish_at')}, 'is_emergency', a.is_emergency, 'author', au.name,
           'complex_ids', coalesce(cs.ids, '[]'), 'house_ids', coalesce(hs.ids, '[]'),
           'complexes', coalesce(cs.list, '[]'), 'houses', coalesce(hs.list, '[]'),
           'created_at', ${iso('a.created_at')}, 'updated_at', ${iso('a.updated_at')})
         order by a.publish_at desc nulls last, a.id desc), '[]')::text as data,
         ${kept.columns}
       from page p join articles a on a.id = p.id
       left join media md on md.id = a.image_id
       left join users au on au.id = a.author_id
       left join lateral (
         select json_agg(c.id order by c.id) as ids, json_agg(json_build_object('id', c.id, 'name', c.name) order by c.id) as list
         from article_complexes ac join complexes c on c.id = ac.complex_id where ac.article_id = a.id) cs on true
       left join lateral (
         select json_agg(h.id order by h.id) as ids, json_agg(json_build_object('id', h.id, 'address', ${ADDRESS}) order by h.id) as list
         from article_houses ah join houses h on h.id = ah.house_id ${HOUSE_JOINS} where ah.article_id = a.id) hs on true`,
      values,
    );
    const { total } = await kept.settle(call, row);
    if (total > EXACT_TOTAL_LIMIT) throw new BadRequest('news: more than the exact limit');
    return send(reply, call, `{"main_data":{${JSON.stringify(paginate(total, false, page, perPage)).slice(1, -1)},"data":${row.data}}}`);
  });

  // ── /Staff ───────────────────────────────────────────────────────────────────────────────
  app.get('/api/admin/staff', async (request, reply) => {
    const call = callOf(request);
    const p = params(request.query as Query, ['page', 'per_page', 'sort', 'order']);
    const page = p.int('page', 1)!;
    const perPage = p.int('per_page', 15)!;
    if (p.one('sort') !== 'name' || p.one('order') !== 'asc') throw new BadRequest('staff: sort=name, order=asc only');
    // The admin manages everyone (can_manage), and sees every role in the form.
    const values: unknown[] = [org, perPage, (page - 1) * perPage];
    const kept = keptCount(
      request.url,
      ['users'],
      values,
      `(select count(*)::int from (select 1 from users where organization_id = $1 limit ${EXACT_TOTAL_LIMIT + 1}) c)`,
    );
    const [row] = await run<PageRow & { form: string }>(
      call,
      `with page as (select * from users u where u.organization_id = $1 order by ${sortKey('u.name')} asc nulls last, u.id asc limit $2 offset $3)
       select coalesce(json_agg(json_build_object(
           'id', u.id, 'name', u.name, 'email', u.email, 'phone', u.phone, 'is_admin', u.is_admin,
           'role_id', u.role_id, 'role', sr.name, 'departure_id', sr.departure_id, 'departure', d.name,
           'complex_ids', coalesce(cs.ids, '[]'), 'complexes', coalesce(cs.list, '[]'),
           'can_manage', true, 'invitation_pending', u.password_set_at is null,
           'created_at', ${iso('u.created_at')}, 'updated_at', ${iso('u.updated_at')})
         order by ${sortKey('u.name')}, u.id), '[]')::text as data,
         ${kept.columns},
         json_build_object(
           'roles', (select coalesce(json_agg(json_build_object('id', r.id, 'name', r.name, 'departure_id', r.departure_id)
              order by ${sortKey('r.name')}, r.id), '[]') from staff_roles r where r.organization_id = $1),
           'departures', (select coalesce(json_agg(json_build_object('id', d.id, 'name', d.name) order by ${sortKey('d.name')}, d.id), '[]')
              from staff_departures d where d.organization_id = $1))::text as form
       from page u
       left join staff_roles sr on sr.id = u.role_id
       left join staff_departures d on d.id = sr.departure_id
       left join lateral (
         select json_agg(c.id order by ${sortKey('c.name')}, c.id) as ids,
           json_agg(json_build_object('id', c.id, 'name', c.name) order by ${sortKey('c.name')}, c.id) as list
         from user_complexes uc join complexes c on c.id = uc.complex_id where uc.user_id = u.id) cs on true`,
      values,
    );
    const { total } = await kept.settle(call, row);
    if (total > EXACT_TOTAL_LIMIT) throw new BadRequest('staff: more than the exact limit');
    return send(reply, call, `{"data":{${JSON.stringify(paginate(total, false, page, perPage)).slice(1, -1)},"data":${row.data}},"form":${row.form}}`);
  });

  // ── A meeting's participants ─────────────────────────────────────────────────────────────
  app.get<{ Params: { id: string } }>('/api/admin/voting/:id/residents', async (request, reply) => {
    const call = callOf(request);
    const p = params(request.query as Query, ['page', 'per_page']);
    const page = p.int('page', 1)!;
    const perPage = p.int('per_page', 25)!;
    // Weights by area as exact as numeric allows (the app counts in exact fractions): a person's
    // area is the sum of their units' area × share (joint owners without shares in equal parts).
    const [row] = await run<CountedRow & { summary: string }>(
      call,
      `with v as (select id from votings where id = $2 and organization_id = $1),
       questions as (select count(*)::int as n from voting_questions where voting_id = (select id from v)),
       total_area as (select sum(area_centi)::numeric as a from voting_units where voting_id = (select id from v) and area_centi is not null),
       own as (
         select o.id, o.participant_id, u.number, u.type, u.area_centi,
           case when o.share_numerator is not null and o.share_denominator is not null then o.share_numerator
             else 1 end as num,
           case when o.share_numerator is not null and o.share_denominator is not null then o.share_denominator
             else count(*) filter (where o.share_numerator is null or o.share_denominator is null) over (partition by o.unit_id) end as den,
           case when o.share_numerator is not null then
               case when o.share_numerator = o.share_denominator then '1' else o.share_numerator || '/' || o.share_denominator end
             else '1/' || count(*) filter (where o.share_numerator is null) over (partition by o.unit_id) end as share
         from voting_ownerships o join voting_units u on u.id = o.unit_id where o.voting_id = (select id from v)),
       people as (
         select vp.id, vp.member_id, vp.name, vp.ownership_document, m.phone, m.email,
           coalesce((select json_agg(json_build_object('number', o.number, 'type', o.type, 'area', o.area_centi / 100.0, 'share', o.share,
               'owned_area', case when o.area_centi is null then 0 else round(o.area_centi::numeric(40, 20) * o.num / o.den) / 100 end) order by o.id)
             from own o where o.participant_id = vp.id), '[]') as units,
           (select sum(o.area_centi::numeric(40, 20) * o.num / o.den) from own o where o.participant_id = vp.id and o.area_centi is not null) as area,
           (select count(distinct a.question_id)::int from voting_answers a where a.voting_id = (select id from v) and a.participant_id = vp.id) as answered,
           (select coalesce(json_object_agg(a.question_id, a.answer), '{}') from voting_answers a
             where a.voting_id = (select id from v) and a.participant_id = vp.id) as answers,
           (select coalesce(json_agg(json_build_object(
               'id', b.id, 'channel', b.channel, 'ballot_date', b.ballot_date::text, 'identification', b.identification,
               'identified_target', b.identified_target, 'signed', b.signature_provider is not null,
               'signature_provider', b.signature_provider, 'signature_signer', b.signature_signer, 'counted', true,
               'sheet', case when b.sheet_media_id is null or md.original_name is null or md.original_name = '' then null
                 else json_build_object('id', b.sheet_media_id, 'name', md.original_name, 'mime', md.mime,
                   'url', '/api/admin/voting/' || b.voting_id || '/ballots/' || b.id || '/sheet') end,
               'representative', b.representative, 'representative_document', b.representative_document,
               'answers', (select coalesce(json_object_agg(a.question_id, a.answer), '{}') from voting_answers a where a.ballot_id = b.id),
               'created_at', ${iso('b.created_at')})
             order by b.created_at, b.id), '[]')
             from voting_ballots b left join media md on md.id = b.sheet_media_id
             where b.voting_id = (select id from v) and b.participant_id = vp.id) as ballots
         from voting_participants vp join members m on m.id = vp.member_id
         where vp.voting_id = (select id from v)),
       listed as (
         select pp.*, case when pp.answered = 0 then 'not_voted' when pp.answered >= (select n from questions) then 'voted' else 'partial' end as status,
           row_number() over (order by ${sortKey('pp.name')}, pp.id) as position
         from people pp)
       select coalesce((select json_agg(json_build_object(
           'id', l.member_id, 'name', l.name, 'phone', l.phone, 'email', l.email, 'units', l.units,
           'area', case when l.area is null then 0 else round(l.area) / 100 end,
           'weight_percent', case when l.area is null or coalesce((select a from total_area), 0) = 0 then 0
             else round(l.area * 10000 / (select a from total_area)) / 100 end,
           'ownership_document', l.ownership_document, 'status', l.status, 'answers', l.answers, 'ballots', l.ballots)
         order by l.position) from listed l where l.position > $4 and l.position <= $4 + $3), '[]')::text as data,
         (select count(*)::int from listed) as n,
         (select json_build_object('not_voted', count(*) filter (where status = 'not_voted'), 'partial', count(*) filter (where status = 'partial'),
           'voted', count(*) filter (where status = 'voted')) from listed)::text as summary`,
      [org, Number(request.params.id), perPage, (page - 1) * perPage],
    );
    return send(reply, call, `{"data":${row.data},"pagination":${JSON.stringify(paginate(row.n, false, page, perPage))},"summary":${row.summary}}`);
  });

  // ── A survey's respondents ───────────────────────────────────────────────────────────────
  app.get<{ Params: { id: string } }>('/api/admin/interview/:id/users', async (request, reply) => {
    const call = callOf(request);
    const p = params(request.query as Query, ['page', 'per_page', 'status']);
    const page = p.int('page', 1)!;
    const perPage = p.int('per_page', 25)!;
    const status = p.one('status');
    if (status !== undefined && status !== 'answered' && status !== 'not_answered') throw new BadRequest('status: answered or not_answered');
    const chosen = status === 'answered' ? 'where a.response_id is not null' : status === 'not_answered' ? 'where a.response_id is null' : '';
    const UNIT_WORDS = `case u.type when 'apartment' then 'кв.' when 'parking' then 'паркомісце' when 'storage' then 'комора'
      when 'commercial' then 'прим.' end`;
    // The survey's houses: those chosen, and every house of a complex none of whose houses is chosen.
    const [row] = await run<CountedRow & { answered: number }>(
      call,
      `with i as (select id, anonymous from interviews where id = $2 and organization_id = $1),
       hs as (
         select ih.house_id as id from interview_houses ih where ih.interview_id = (select id from i)
         union
         select h.id from interview_complexes ic join houses h on h.complex_id = ic.complex_id
         where ic.interview_id = (select id from i)
           and not exists (select 1 from interview_houses ih join houses h2 on h2.id = ih.house_id
             where ih.interview_id = ic.interview_id and h2.complex_id = ic.complex_id)),
       audience as (
         select m.id, m.name, m.phone, m.email, ${memberKey('m')} as name_key, ir.id as response_id
         from members m left join interview_responses ir on ir.interview_id = (select id from i) and ir.member_id = m.id
         where m.organization_id = $1
           and exists (select 1 from residents r join realty u on u.id = r.realty_id where r.member_id = m.id and u.house_id in (select id from hs))),
       page as (select * from audience a ${chosen}
         order by a.name_key, a.id limit $3 offset $4)
       select coalesce(json_agg(json_build_object(
           'id', a.id, 'name', a.name, 'phone', a.phone, 'email', a.email,
           'units', coalesce((select json_agg(${ADDRESS} || ', ' || ${UNIT_WORDS} || ' ' || u.number order by ${naturalKeys('u.number')})
             from residents r join realty u on u.id = r.realty_id join houses h on h.id = u.house_id ${HOUSE_JOINS}
             where r.member_id = a.id and u.house_id in (select id from hs)), '[]'),
           'answered', a.response_id is not null,
           'response', case when a.response_id is null then null else (
             select json_build_object('id', ir.id, 'channel', ir.channel, 'recorded_by', ru.name, 'created_at', ${iso('ir.created_at')},
               'answers', case when (select anonymous from i) then null else coalesce((
                 select json_object_agg(x.question_id, x.words) from (
                   select an.question_id, string_agg(coalesce(op.title, an.value::text, an.text, ''), '; ' order by an.id) as words
                   from interview_answers an left join interview_options op on op.id = an.option_id
                   where an.response_id = ir.id group by an.question_id) x), '{}') end)
             from interview_responses ir left join users ru on ru.id = ir.recorded_by where ir.id = a.response_id) end)
         order by a.name_key, a.id), '[]')::text as data,
         (select count(*)::int from audience) as n,
         (select count(*)::int from audience where response_id is not null) as answered
       from page a`,
      [org, Number(request.params.id), perPage, (page - 1) * perPage],
    );
    const total = status === 'answered' ? row.answered : status === 'not_answered' ? row.n - row.answered : row.n;
    return send(
      reply,
      call,
      `{"data":${row.data},"pagination":${JSON.stringify(paginate(total, false, page, perPage))},` +
        `"summary":${JSON.stringify({ answered: row.answered, not_answered: row.n - row.answered })}}`,
    );
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(`floor listening on ${typeof address === 'object' && address ? address.port : 0}`);
  const stop = () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
