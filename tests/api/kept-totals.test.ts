/**
 * A list keeps the total it counted and counts again only when a table its count reads has been
 * written since (server/lib/keptTotals.ts, docs/architecture.md "Kept totals"). The writes here
 * are made in SQL, as another process or a job would make them, never through the list's own
 * routes: the total must follow them all the same.
 */
import { alias } from 'drizzle-orm/pg-core';
import { eq, inArray, lt, sql, type SQLWrapper } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/index.ts';
import { houses, interviewResponses, members, memberUnits, outbox, residents, serviceRequests, users } from '../../server/db/schema.ts';
import { KeptTotals, LOGGED_TABLES } from '../../server/lib/keptTotals.ts';
import { NOW, readsOf } from '../../server/lib/sqlReads.ts';
import { ADMIN, API, setupApp, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t.close());

const totalOf = async (path: string) => {
  const res = await t.call('GET', `${API}${path}`, { token: admin });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ pagination?: { total: number }; main_data?: { total: number } }>();
  return (body.pagination ?? body.main_data)!.total;
};

/** A write the triggers do not see (as if the log did not exist): shows whether a list counted again. */
const unlogged = (statement: ReturnType<typeof sql>) =>
  t.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });

const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(t.db, query))[0];

describe('kept totals', () => {
  it('a members list of a complex follows a member made inactive, and skips the count while nothing it reads was written', async () => {
    const { complex_id: complexId } = await one<{ complex_id: number }>(
      sql`select complex_id from member_units where organization_id = ${t.organizationId} and status = 'active'
        group by complex_id order by count(*) desc limit 1`,
    );
    const path = `/members?per_page=5&sort=name&order=asc&complex_id=${complexId}&status=active`;
    const before = await totalOf(path);
    expect(before).toBeGreaterThan(1);
    expect(await totalOf(`${path}&page=2`)).toBe(before);

    const { member_id: memberId } = await one<{ member_id: number }>(
      sql`select member_id from member_units where complex_id = ${complexId} and status = 'active' order by member_id limit 1`,
    );
    // Not logged: the kept total is answered, so the list did not count.
    await unlogged(sql`update members set status = 'inactive' where id = ${memberId}`);
    await unlogged(sql`update member_units set status = 'inactive' where member_id = ${memberId}`);
    expect(await totalOf(path)).toBe(before);

    // Any logged write to a table the count reads: the list counts again and sees both changes.
    await t.db.execute(sql`update members set status = 'active' where id = ${memberId}`);
    expect(await totalOf(path)).toBe(before);
    await t.db.execute(sql`update members set status = 'inactive' where id = ${memberId}`);
    expect(await totalOf(path)).toBe(before - 1);
    await t.db.execute(sql`update members set status = 'active' where id = ${memberId}`);
    expect(await totalOf(path)).toBe(before);
  });

  it('the units of a house follow a unit moved to another house', async () => {
    const houses = await queryRows<{ id: number }>(t.db, sql`select id from houses where organization_id = ${t.organizationId} order by id limit 2`);
    const [a, b] = houses.map((h) => h.id);
    const inA = await totalOf(`/realty?per_page=3&house_id=${a}`);
    const inB = await totalOf(`/realty?per_page=3&house_id=${b}`);
    const { id } = await one<{ id: number }>(sql`select id from realty where house_id = ${a} order by id desc limit 1`);
    await t.db.execute(sql`update realty set house_id = ${b}, number = ${`moved-${id}`} where id = ${id}`);
    expect(await totalOf(`/realty?per_page=3&house_id=${a}`)).toBe(inA - 1);
    expect(await totalOf(`/realty?per_page=3&house_id=${b}`)).toBe(inB + 1);
  });

  it('requests of a stage follow a stage changed, and those overdue are counted on every call (the clock moves them)', async () => {
    const stage = await totalOf('/service_request?per_page=2&stage=new');
    const { id } = await one<{ id: number }>(sql`select id from service_requests where organization_id = ${t.organizationId} and stage = 'new' limit 1`);
    await t.db.execute(sql`update service_requests set stage = 'underReview' where id = ${id}`);
    expect(await totalOf('/service_request?per_page=2&stage=new')).toBe(stage - 1);

    const overdue = await totalOf('/service_request?per_page=2&overdue=1');
    const { id: due } = await one<{ id: number }>(
      sql`select id from service_requests where organization_id = ${t.organizationId} and stage <> 'done' and (deadline is null or deadline > now()) limit 1`,
    );
    await unlogged(sql`update service_requests set deadline = now() - interval '1 day' where id = ${due}`);
    expect(await totalOf('/service_request?per_page=2&overdue=1')).toBe(overdue + 1);
  });

  it('news follow an article added to a complex in another transaction', async () => {
    const { id: complexId } = await one<{ id: number }>(sql`select id from complexes where organization_id = ${t.organizationId} order by id limit 1`);
    const path = `/articles?per_page=2&complex_id=${complexId}`;
    const before = await totalOf(path);
    const { id } = await one<{ id: number }>(
      sql`select a.id from articles a where a.organization_id = ${t.organizationId}
        and exists (select 1 from article_complexes ac where ac.article_id = a.id)
        and not exists (select 1 from article_complexes ac where ac.article_id = a.id and ac.complex_id = ${complexId})
        and not exists (select 1 from article_houses ah where ah.article_id = a.id) limit 1`,
    );
    await t.db.execute(sql`insert into article_complexes (article_id, complex_id) values (${id}, ${complexId})`);
    expect(await totalOf(path)).toBe(before + 1);
    await t.db.execute(sql`delete from article_complexes where article_id = ${id} and complex_id = ${complexId}`);
    expect(await totalOf(path)).toBe(before);
  });

  it('many writes are summed into one row per table, and the totals stay right across the compaction', async () => {
    const path = `/members?per_page=5&sort=name&order=asc&status=inactive`;
    const { id: memberId } = await one<{ id: number }>(sql`select id from members where organization_id = ${t.organizationId} and status = 'active' limit 1`);
    const base = await totalOf(path);
    for (let i = 0; i < 20; i++) await t.db.execute(sql`update members set status = ${i % 2 ? 'active' : 'inactive'} where id = ${memberId}`);
    const rowsBefore = await one<{ n: number; sum: string }>(
      sql`select count(*)::int as n, sum(n)::text as sum from list_changes where table_name = 'members' and organization_id = ${t.organizationId}`,
    );
    expect(rowsBefore.n).toBeGreaterThan(16);
    expect(await totalOf(path)).toBe(base);
    // The compaction runs after the answer; the log shrinks and keeps its sum.
    await expect
      .poll(
        async () =>
          (await one<{ n: number }>(sql`select count(*)::int as n from list_changes where table_name = 'members' and organization_id = ${t.organizationId}`)).n,
      )
      .toBe(1);
    const after = await one<{ sum: string }>(
      sql`select sum(n)::text as sum from list_changes where table_name = 'members' and organization_id = ${t.organizationId}`,
    );
    expect(after.sum).toBe(rowsBefore.sum);
    expect(await totalOf(path)).toBe(base);
    await t.db.execute(sql`update members set status = 'inactive' where id = ${memberId}`);
    expect(await totalOf(path)).toBe(base + 1);
    await t.db.execute(sql`update members set status = 'active' where id = ${memberId}`);
    expect(await totalOf(path)).toBe(base);
  });

  it('links removed with their parent are logged for the organization, so other organizations keep their totals', async () => {
    const nullRows = async () =>
      (await one<{ n: number }>(sql`select count(*)::int as n from list_changes where organization_id is null and table_name <> 'settlements'`)).n;
    const before = await nullRows();
    const { id } = await one<{ id: number }>(
      sql`select a.id from articles a where a.organization_id = ${t.organizationId}
        and exists (select 1 from article_complexes ac where ac.article_id = a.id) limit 1`,
    );
    await t.db.execute(sql`delete from articles where id = ${id}`);
    const logged = await queryRows<{ table_name: string; organization_id: number | null }>(
      t.db,
      sql`select table_name, organization_id from list_changes where table_name in ('articles', 'article_complexes') order by id desc limit 2`,
    );
    expect(logged.map((r) => r.organization_id)).toEqual([t.organizationId, t.organizationId]);
    expect(await nullRows()).toBe(before);
  });

  it('a search that reads other rows to build its statement is built again: a house moved to a street shows under that street at once', async () => {
    // The units search finds the houses whose address matches first (server/modules/realty/routes.ts):
    // a list statement kept per query (server/crud/kept.ts, `KeptList`) would keep the houses found then.
    const { house_id: houseId } = await one<{ house_id: number }>(
      sql`select r.house_id from realty r join houses h on h.id = r.house_id where h.organization_id = ${t.organizationId}
        group by r.house_id order by count(*) desc limit 1`,
    );
    const street = await one<{ id: number; name: string }>(
      sql`insert into streets (settlement_id, organization_id, name, type, search_name, source)
        select settlement_id, ${t.organizationId}, 'Шовковична', 'вулиця', 'шовковична', 'admin' from houses where id = ${houseId}
        returning id, name`,
    );
    const path = `/realty?per_page=5&search_query=${encodeURIComponent(street.name)}`;
    expect(await totalOf(path)).toBe(0);
    await t.db.execute(sql`update houses set street_id = ${street.id} where id = ${houseId}`);
    expect(await totalOf(path)).toBeGreaterThan(0);
  });

  it('every table said to be logged has its triggers, for each kind of write', async () => {
    const rows = await queryRows<{ table: string; events: string }>(
      t.db,
      sql`select event_object_table as table, string_agg(distinct event_manipulation, ',' order by event_manipulation) as events
        from information_schema.triggers where trigger_name like 'list_changes_%' group by event_object_table`,
    );
    expect(new Set(rows.map((r) => r.table))).toEqual(LOGGED_TABLES);
    for (const r of rows) expect(r.events, r.table).toBe('DELETE,INSERT,UPDATE');
  });

  it('a count that reads a table without triggers, or the clock, is never kept; its tables are those its objects name', () => {
    const kept = new KeptTotals();
    const tablesOf = (rows: SQLWrapper) => kept.countOf(sql`${rows}`, readsOf(rows), t.organizationId)?.tables;
    const one = { one: sql`1` };
    expect(tablesOf(t.db.select(one).from(members).where(eq(members.organizationId, t.organizationId)))).toEqual(['members']);
    expect(tablesOf(t.db.select(one).from(memberUnits).innerJoin(houses, eq(houses.id, memberUnits.houseId)))).toEqual(['houses', 'member_units']);
    // A subquery of the WHERE and an alias are read as their tables.
    const inner = t.db.select({ id: residents.memberId }).from(residents);
    expect(tablesOf(t.db.select(one).from(members).where(inArray(members.id, inner)))).toEqual(['members', 'residents']);
    const performer = alias(users, 'performer');
    expect(tablesOf(t.db.select(one).from(performer))).toEqual(['users']);
    // The clock, and tables whose writes are not logged.
    expect(tablesOf(t.db.select(one).from(serviceRequests).where(lt(serviceRequests.deadline, NOW)))).toBeUndefined();
    expect(tablesOf(t.db.select(one).from(interviewResponses))).toBeUndefined();
    expect(
      tablesOf(
        t.db
          .select(one)
          .from(members)
          .where(inArray(members.id, t.db.select({ id: outbox.id }).from(outbox))),
      ),
    ).toBeUndefined();
    // A table named only in the text is not known: such a count is never kept.
    expect(tablesOf(sql`select 1 from ${members} where ${members.id} in (select member_id from residents)`)).toBeUndefined();
  });
});
