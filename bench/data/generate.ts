/**
 * Deterministic bulk data for benchmarks and the EXPLAIN test. Everything is written by
 * multi-row `INSERT … SELECT … FROM generate_series(…)` statements (fast on PostgreSQL and PGlite
 * alike, no row travels through Node), and every "random" choice is a seeded hash of the row
 * number (`hashint8extended(g, seed)`), so that the same seed on an empty database gives the same
 * rows, ids included, on both drivers. Generated rows belong to the demo organization and are
 * recognisable: complexes «ЖК «Генерований N»», houses numbered «ГN».
 *
 * Large tables are loaded without their secondary indexes, which are rebuilt afterwards (one
 * sorted build is several times faster than a million index insertions).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../server/db/index.ts';
import { importReferenceData } from '../../server/db/importReference.ts';
import { seedIfEmpty, type SeedConfig } from '../../server/seed.ts';
import type { Scale } from './scales.ts';

/** Generated timestamps count back from this instant, so that a seed gives the same rows any day. */
export const ANCHOR = '2026-11-01T00:00:00Z';
/** A table loaded with at least this many rows is loaded without its secondary indexes. */
const BULK_ROWS = 50_000;

const SURNAMES = [
  'Коваленко', 'Бондаренко', 'Ткаченко', 'Шевчук', 'Мельник', 'Кравчук', 'Олійник', 'Савченко',
  'Руденко', 'Марченко', 'Гончаренко', 'Лисенко', 'Павленко', 'Захарченко', 'Остапчук', 'Гриценко',
  'Яковенко', 'Литвиненко', 'Сидоренко', 'Поліщук', 'Іваненко', 'Петренко', 'Кузьменко', 'Мороз',
  'Бойко', 'Ковальчук', 'Романенко', 'Тимошенко', 'Харченко', 'Юрченко', 'Левченко', 'Ґудзь',
  'Єременко', 'Антоненко', 'Дмитренко', 'Власенко', 'Клименко', 'Зінченко', 'Федоренко',
  "Дем'яненко",
];
const FIRST_NAMES = [
  'Олександр', 'Андрій', 'Богдан', 'Віталій', 'Дмитро', 'Тарас', 'Юрій', 'Ігор', 'Сергій', 'Максим',
  'Олена', 'Ірина', 'Наталія', 'Оксана', 'Тетяна', 'Марія', 'Ганна', 'Юлія', 'Світлана', 'Катерина',
];
const PATRONYMICS = [
  'Олександрович', 'Андрійович', 'Богданович', 'Петрович', 'Іванович', 'Миколайович',
  'Олександрівна', 'Андріївна', 'Богданівна', 'Петрівна', 'Іванівна', 'Миколаївна',
];
const REQUEST_TEXTS = [
  'Тече змішувач на кухні', 'Не працює ліфт у під’їзді', 'Не світить лампа на сходах',
  'Засмітилась каналізація', 'Потрібна перепустка на паркінг', 'Не вивезли сміття',
  'Протікає дах над квартирою', 'Іскрить розетка', 'Зламався домофон', 'Немає гарячої води',
];
const NEWS_TOPICS = [
  'Планове відключення води', 'Збори співвласників', 'Прибирання території', 'Ремонт ліфта',
  'Нові правила паркування', 'Перевірка лічильників', 'Свято двору', 'Заміна домофонів',
];
const CITIES = ['Київ', 'Львів', 'Одеса', 'Харків', 'Дніпро'];

export const SURNAME_SAMPLES = SURNAMES;
export const REQUEST_WORDS = ['ліфт', 'змішувач', 'сміття', 'розетка', 'домофон'];

export interface TableTiming {
  table: string;
  rows: number;
  ms: number;
}

export interface GenerateResult {
  /** False when the database already held generated rows (nothing was added). */
  generated: boolean;
  organizationId: number;
  timings: TableTiming[];
}

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(db: Pick<Db, 'execute'>, query: SQL) => ((await db.execute(query)) as unknown as Rows<T>).rows;

function textArray(values: readonly string[]): SQL {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
}

/** Tables that database triggers fill as a loaded table's rows arrive (migration 0021). */
const FILLED_BY_TRIGGERS: Record<string, string[]> = { residents: ['member_units'] };

/**
 * Drops the tables' secondary indexes (not the primary key) while `load` runs and rebuilds them
 * afterwards, also when the load fails.
 */
async function withoutIndexes(db: Db, tables: string[], load: () => Promise<void>) {
  const indexes = await rowsOf<{ name: string; def: string }>(
    db,
    sql`select i.indexname as name, i.indexdef as def from pg_indexes i
        where i.schemaname = 'public' and i.tablename in ${tables}
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
  );
  for (const i of indexes) await db.execute(sql.raw(`drop index if exists "${i.name}"`));
  try {
    await load();
  } finally {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
      for (const i of indexes) await tx.execute(sql.raw(i.def));
    });
  }
}

/** Imports the address reference and the demo seed when missing, then adds `scale`'s rows. */
export async function generateData(
  db: Db,
  config: SeedConfig,
  scale: Scale,
  seed: number,
  log: (line: string) => void = () => {},
): Promise<GenerateResult> {
  await importReferenceData(db);
  await seedIfEmpty(db, config);
  const [{ org }] = await rowsOf<{ org: number }>(db, sql`select id as org from organizations order by id limit 1`);
  const [{ already }] = await rowsOf<{ already: number }>(
    db,
    sql`select count(*)::int as already from complexes
      where organization_id = ${org} and name like 'ЖК «Генерований %'`,
  );
  if (already > 0) return { generated: false, organizationId: org, timings: [] };

  const timings: TableTiming[] = [];
  /** Runs one table's load and prints its rate. */
  const timed = async (table: string, rows: number, load: () => Promise<unknown>) => {
    if (rows === 0) return;
    const started = performance.now();
    if (rows >= BULK_ROWS) await withoutIndexes(db, [table, ...(FILLED_BY_TRIGGERS[table] ?? [])], async () => void (await load()));
    else await load();
    const ms = performance.now() - started;
    timings.push({ table, rows, ms });
    log(
      `${table.padEnd(22)} ${String(rows).padStart(9)} rows  ${(ms / 1000).toFixed(1).padStart(6)} s  ` +
        `${Math.round(rows / (ms / 1000)).toLocaleString('en').padStart(9)} rows/s`,
    );
  };
  // A seeded pseudo-random non-negative bigint for row g and stream k.
  const rnd = (k: number, g: SQL = sql`g`) => sql`(hashint8extended((${g})::bigint, ${seed * 64 + k}::bigint) & 9223372036854775807)`;
  const anchor = sql`${ANCHOR}::timestamptz`;
  const { complexes: C, houses: H, unitsPerHouse: U, members: M, staff: S, requests: R, articles: A } = scale;
  const units = H * U;

  await timed('complexes', C, () =>
    db.execute(sql`
      insert into complexes (organization_id, name, city, address, description, created_at)
      select ${org}, 'ЖК «Генерований ' || g || '»', (${textArray(CITIES)})[1 + ${rnd(1)} % ${CITIES.length}],
        'вул. Тестова, ' || g, '', ${anchor} - make_interval(days => g)
      from generate_series(1, ${C}) g`),
  );
  const [{ cFirst }] = await rowsOf<{ cFirst: number }>(
    db,
    sql`select min(id)::int as "cFirst" from complexes
      where organization_id = ${org} and name like 'ЖК «Генерований %'`,
  );

  // Houses on the streets of Київ; house g belongs to complex (g - 1) % C.
  await timed('houses', H, () =>
    db.execute(sql`
      with k as (select id from settlements where name = 'Київ' and category = 'К' order by id limit 1),
           s as (select array_agg(id order by id) as ids from (select st.id from streets st, k where st.settlement_id = k.id order by st.id limit 1000) x)
      insert into houses (organization_id, complex_id, settlement_id, street_id, number, building, floors, entrances)
      select ${org}, ${cFirst}::int + (g - 1) % ${C}, k.id, s.ids[1 + ${rnd(2)} % array_length(s.ids, 1)], 'Г' || g, '', 5 + ${rnd(3)} % 20, 1 + ${rnd(4)} % 6
      from generate_series(1, ${H}) g cross join k cross join s
      order by g`),
  );
  const [hs] = await rowsOf<{ first: number; n: number; span: number }>(
    db,
    sql`select min(id)::int as first, count(*)::int as n, (max(id) - min(id) + 1)::int as span
      from houses where organization_id = ${org} and number like 'Г%'`,
  );
  if (hs.n !== H || hs.span !== H) throw new Error('generated houses are not consecutive');

  // Unit n of house h: the first 80% apartments, then parking spaces, then storage rooms.
  await timed('realty', units, () =>
    db.execute(sql`
      insert into realty (organization_id, house_id, type, number, area, floor, entrance)
      select ${org}, ${hs.first}::int + (u / ${U}),
        case when n <= ${Math.ceil(U * 0.8)} then 'apartment' when n <= ${Math.ceil(U * 0.92)} then 'parking' else 'storage' end,
        n::text, round((25 + (${rnd(5, sql`u`)} % 9000) / 100.0)::numeric, 2), 1 + (${rnd(6, sql`u`)} % 25)::int, 1 + (${rnd(7, sql`u`)} % 4)::int
      from generate_series(0, ${units - 1}) u, lateral (select 1 + u % ${U} as n) x
      order by u`),
  );
  const [us] = await rowsOf<{ first: number; n: number; span: number }>(
    db,
    sql`select min(id)::int as first, count(*)::int as n, (max(id) - min(id) + 1)::int as span
      from realty where house_id between ${hs.first} and ${hs.first + H - 1}`,
  );
  if (us.n !== units || us.span !== units) throw new Error('generated units are not consecutive');

  /** The largest id of a table, so that the ids a load adds can be found after it. */
  const maxId = async (table: string) => (await rowsOf<{ n: number }>(db, sql`select coalesce(max(id), 0)::int as n from ${sql.identifier(table)}`))[0].n;
  /** The first id a load added after `before`, checking that it added `n` consecutive ids. */
  const addedIds = async (table: string, before: number, n: number) => {
    if (n === 0) return 0;
    const [r] = await rowsOf<{ first: number; n: number; span: number }>(
      db,
      sql`select min(id)::int as first, count(*)::int as n, (max(id) - min(id) + 1)::int as span
        from ${sql.identifier(table)} where id > ${before}`,
    );
    if (r.n !== n || r.span !== n) throw new Error(`generated ${table} are not ${n} consecutive ids`);
    return r.first;
  };

  // Plausible names: 40 surnames × 20 first names × 12 patronymics; phones and e-mails unique.
  const membersBefore = await maxId('members');
  await timed('members', M, () =>
    db.execute(sql`
      insert into members (organization_id, name, phone, email, status, created_at, updated_at)
      select ${org},
        (${textArray(SURNAMES)})[1 + ${rnd(8)} % ${SURNAMES.length}] || ' ' ||
          (${textArray(FIRST_NAMES)})[1 + ${rnd(9)} % ${FIRST_NAMES.length}] || ' ' ||
          (${textArray(PATRONYMICS)})[1 + ${rnd(10)} % ${PATRONYMICS.length}],
        case when ${rnd(11)} % 10 = 0 then null else '+38095' || lpad(g::text, 7, '0') end,
        case when ${rnd(12)} % 3 = 0 then null else 'gen' || g || '@ukr.net' end,
        case when ${rnd(13)} % 23 = 0 then 'inactive' else 'active' end,
        ${anchor} - make_interval(secs => (${rnd(14)} % 94608000)::double precision), ${anchor}
      from generate_series(1, ${M}) g
      order by g`),
  );
  const mFirst = await addedIds('members', membersBefore, M);

  // Member k lives in unit k % units: the first member of each unit is its owner, the others family.
  const [roles] = await rowsOf<{ owner: number; family: number }>(
    db,
    sql`select max(id) filter (where code = 'owner')::int as owner, max(id) filter (where code = 'family')::int as family
      from resident_roles where organization_id = ${org}`,
  );
  await timed('residents', M, () =>
    db.execute(sql`
      insert into residents (organization_id, member_id, realty_id, role_id, share_numerator, share_denominator)
      select ${org}, ${mFirst}::int + k, ${us.first}::int + k % ${units}, case when k < ${units} then ${roles.owner}::int else ${roles.family}::int end,
        case when k < ${units} then 1 end, case when k < ${units} then 1 end
      from generate_series(0, ${M - 1}) k
      order by k`),
  );

  // Staff like the demo dispatcher (same role and password), each in one complex.
  const [dispatcher] = await rowsOf<{ hash: string; role: number | null }>(
    db,
    sql`select password_hash as hash, role_id as role from users
      where organization_id = ${org} and role_id is not null order by id limit 1`,
  );
  await timed('users (staff)', S, () =>
    db.execute(sql`
      insert into users (organization_id, name, email, password_hash, role_id)
      select ${org},
        (${textArray(SURNAMES)})[1 + ${rnd(15)} % ${SURNAMES.length}] || ' ' ||
          (${textArray(FIRST_NAMES)})[1 + ${rnd(16)} % ${FIRST_NAMES.length}] || ' (працівник ' || g || ')',
        'staff' || g || '@gen.demo.ua', ${dispatcher.hash}, ${dispatcher.role}
      from generate_series(1, ${S}) g
      order by g`),
  );
  const [ss] = await rowsOf<{ first: number }>(db, sql`select min(id)::int as first from users where email like 'staff%@gen.demo.ua'`);
  if (S > 0) {
    await db.execute(sql`insert into user_complexes (user_id, complex_id)
      select ${ss.first}::int + g, ${cFirst}::int + g % ${C} from generate_series(0, ${S - 1}) g`);
  }

  // Requests: unit k (random), its house and owner; the search text as the app writes it.
  await timed('service_requests', R, () =>
    db.execute(sql`
      with t as (select array_agg(id order by id) as ids from service_request_types where organization_id = ${org}),
           last as (select coalesce(max(number), 0) as n from service_requests where organization_id = ${org}),
           src as (
             select g, ${rnd(17)} % ${units} as k, ${rnd(18)} % 8760 as age_h, ${rnd(19)} % 4 as st, ${rnd(20)} % 5 as pr,
               ${rnd(21)} % ${S} as resp, ${rnd(22)} % ${S * 2} as perf, ${rnd(23)} % ${REQUEST_TEXTS.length} as tx, ${rnd(24)} as ty
             from generate_series(1, ${R}) g)
      insert into service_requests (organization_id, number, type_id, house_id, realty_id, member_id, text, stage, priority, deadline,
        responsible_id, performer_id, done_at, search, created_at, updated_at)
      select ${org}, last.n + src.g, t.ids[1 + src.ty % array_length(t.ids, 1)], r.house_id, r.id, m.id,
        (${textArray(REQUEST_TEXTS)})[1 + src.tx] || ' (' || src.g || ')',
        (array['new','underReview','executor','done'])[1 + src.st], (array['low','normal','normal','high','urgent'])[1 + src.pr],
        ${anchor} - make_interval(hours => src.age_h::int) + interval '72 hours',
        ${ss.first}::int + src.resp::int, case when src.perf < ${S} then ${ss.first}::int + src.perf::int end,
        case when src.st = 3 then ${anchor} - make_interval(hours => src.age_h::int) + interval '24 hours' end,
        translate(lower('№' || (last.n + src.g) || ' ' || (${textArray(REQUEST_TEXTS)})[1 + src.tx] || ' (' || src.g || ') ' || coalesce(m.name, '') || ' ' ||
          coalesce(st.type || ' ', '') || st.name || ', ' || h.number || ', кв. ' || r.number), '''ʼ\`‘', '’’’’'),
        ${anchor} - make_interval(hours => src.age_h::int), ${anchor} - make_interval(hours => src.age_h::int)
      from src cross join t cross join last
      join realty r on r.id = ${us.first}::int + src.k::int
      join houses h on h.id = r.house_id
      join streets st on st.id = h.street_id
      left join members m on m.id = ${mFirst}::int + src.k::int and src.k < ${M}
      order by src.g`),
  );
  await db.execute(sql`insert into service_request_counters (organization_id, last_number)
    select organization_id, max(number) from service_requests where organization_id = ${org} group by organization_id
    on conflict (organization_id) do update set last_number = excluded.last_number`);

  // News: 10% drafts, 5% planned ahead, 2% emergency; each for one complex, every 20th also for one house of it.
  const [admin] = await rowsOf<{ id: number }>(db, sql`select id from users where organization_id = ${org} and is_admin order by id limit 1`);
  const articlesBefore = await maxId('articles');
  await timed('articles', A, () =>
    db.execute(sql`
      insert into articles (organization_id, title, body, status, publish_at, is_emergency, author_id, created_at, updated_at)
      select ${org}, (${textArray(NEWS_TOPICS)})[1 + ${rnd(25)} % ${NEWS_TOPICS.length}] || ' №' || g,
        '<p>Шановні мешканці! ' || (${textArray(NEWS_TOPICS)})[1 + ${rnd(25)} % ${NEWS_TOPICS.length}] || '. Деталі — у керуючої компанії.</p>',
        case when ${rnd(26)} % 10 = 0 then 'draft' else 'published' end,
        case when ${rnd(27)} % 20 = 0 then ${anchor} + make_interval(days => 1 + (${rnd(28)} % 30)::int)
          else ${anchor} - make_interval(mins => (g * 7)::int) end,
        ${rnd(29)} % 50 = 0, ${admin.id}, ${anchor} - make_interval(mins => (g * 7)::int), ${anchor} - make_interval(mins => (g * 7)::int)
      from generate_series(1, ${A}) g
      order by g`),
  );
  const aFirst = await addedIds('articles', articlesBefore, A);
  await timed('article_complexes', A, () =>
    db.execute(sql`insert into article_complexes (article_id, complex_id)
      select ${aFirst}::int + g, ${cFirst}::int + (${rnd(30)} % ${C})::int from generate_series(0, ${A - 1}) g`),
  );
  // A house of complex c is house c (houses are dealt to complexes in turn).
  await db.execute(sql`
    insert into article_houses (article_id, house_id)
    select ac.article_id, ${hs.first}::int + (ac.complex_id - ${cFirst}::int) from article_complexes ac
    where ac.article_id >= ${aFirst} and (ac.article_id - ${aFirst}) % 20 = 0 and ac.complex_id - ${cFirst} < ${H}`);

  // VACUUM as autovacuum would have by now: it marks the pages all-visible, so that the planner
  // costs index-only scans as it will in production, and ANALYZE gives it the statistics.
  const started = performance.now();
  await db.execute(sql`vacuum analyze`);
  log(`vacuum analyze          ${((performance.now() - started) / 1000).toFixed(1).padStart(25)} s`);
  return { generated: true, organizationId: org, timings };
}
