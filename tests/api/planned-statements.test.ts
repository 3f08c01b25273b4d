/**
 * Statements planned once (docs/architecture.md, "Plans kept with the statement"): a page's size
 * is written into a list statement's text, so that PostgreSQL's plan for all values knows it; any
 * other count stays a parameter, so no request can make more texts of one statement than the few
 * sizes the screens offer. On PostgreSQL a plan-once statement runs on connections that keep its
 * first plan; everywhere it answers what the same statement answers otherwise.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { renderStatement, runRendered } from '../../server/db/index.ts';
import { pageWindow } from '../../server/lib/list.ts';
import { staffComplexes } from '../../server/lib/scope.ts';
import { queryRows } from '../../server/db/index.ts';
import { ADMIN, createComplex, createUser, setupApp, STAFF, uid } from './helpers.ts';
import { makeCity, makeHouse, makeUnit } from './members-fixtures.ts';
import { residentRolesOf } from '../../server/modules/members/roles.ts';

const t = await setupApp();
afterAll(() => t.close());

describe('a page in the statement', () => {
  it('writes the page sizes the screens offer into the text, page 1 without an offset', () => {
    const first = renderStatement(sql`select 1 ${pageWindow(1, 25)}`);
    expect(first.sql).toBe('select 1 limit 25');
    expect(first.params).toEqual([]);
  });

  it('keeps the offset of a later page a parameter', () => {
    const third = renderStatement(sql`select 1 ${pageWindow(3, 25)}`);
    expect(third.sql).toBe('select 1 limit 25 offset $1');
    expect(third.params).toEqual([50]);
  });

  it('keeps any other page size a parameter', () => {
    for (const perPage of [7, 37, 99, 1000]) {
      const odd = renderStatement(sql`select 1 ${pageWindow(1, perPage)}`);
      expect(odd.sql).toBe('select 1 limit $1');
      expect(odd.params).toEqual([perPage]);
    }
  });

  it("writes a staff member's complexes as integers, and nothing else", () => {
    expect(renderStatement(sql`select 1 where x in ${staffComplexes([3, 12])}`).sql).toBe('select 1 where x in (3, 12)');
    expect(() => staffComplexes(['1) or (true' as unknown as number])).toThrow();
  });
});

describe('plan-once statements', () => {
  const setting = renderStatement(sql`select current_setting('plan_cache_mode') as mode, ${sql.placeholder('n')}::int + 1 as next`);
  const once = { ...setting, planOnce: true };

  it.runIf(t.driver === 'postgres')('run on PostgreSQL connections that keep the first plan; other statements on the usual ones', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await runRendered(t.db, once, { n: i })).toEqual([{ mode: 'force_generic_plan', next: i + 1 }]);
      expect(await runRendered(t.db, setting, { n: i })).toEqual([{ mode: 'auto', next: i + 1 }]);
    }
  });

  it('answer the same as the statement run otherwise', async () => {
    expect((await runRendered<{ next: number }>(t.db, once, { n: 41 }))[0].next).toBe(42);
  });

  it('list pages of every size answer as before, for the admin and for the dispatcher', async () => {
    for (const [email, password, list] of [
      [ADMIN.email, ADMIN.password, 'realty?sort=house&order=asc'],
      [STAFF.email, STAFF.password, 'service_request?sort=created_at&order=desc'],
    ]) {
      const token = await t.login(email, password);
      const page = async (perPage: number, pageNo: number) => {
        const res = await t.call('GET', `/api/admin/${list}&page=${pageNo}&per_page=${perPage}`, { token });
        expect(res.statusCode).toBe(200);
        return (res.json() as { main_data: { data: { id: number }[]; total: number } }).main_data;
      };
      // Six calls and more: PostgreSQL's plan for all values is in use from then on.
      for (let i = 0; i < 7; i++) await page(10, 1);
      const all = await page(100, 1);
      expect(all.total).toBeGreaterThan(20);
      expect(all.data.length).toBe(Math.min(all.total, 100));
      const firstTen = (await page(10, 1)).data.map((r) => r.id);
      const secondTen = (await page(10, 2)).data.map((r) => r.id);
      const oddSize = (await page(13, 1)).data.map((r) => r.id);
      expect(firstTen).toEqual(all.data.slice(0, 10).map((r) => r.id));
      expect(secondTen).toEqual(all.data.slice(10, 20).map((r) => r.id));
      expect(oddSize).toEqual(all.data.slice(0, 13).map((r) => r.id));
    }
  });

  it("keeps each staff member to their own complexes once a list's plan is kept, whoever called it before", async () => {
    const [dispatcher] = await queryRows<{ id: number; role_id: number }>(t.db, sql`select id, role_id from users where email = ${STAFF.email}`);
    const theirs = (await queryRows<{ id: number }>(t.db, sql`select complex_id as id from user_complexes where user_id = ${dispatcher.id}`)).map((r) => r.id);
    const [outside] = await queryRows<{ id: number }>(
      t.db,
      sql`select c.id from complexes c where c.organization_id = ${t.organizationId} and c.id <> all(${`{${theirs.join(',')}}`}::int[])
        and exists (select 1 from houses h where h.complex_id = c.id) order by c.id limit 1`,
    );
    expect(theirs.length).toBeGreaterThan(0);
    expect(outside).toBeDefined();
    // The same rights, another complex: the same list statement but for the complexes in its text.
    const colleague = await createUser(t.db, { organizationId: t.organizationId, roleId: dispatcher.role_id, complexIds: [outside.id] });
    const callers = [
      { token: await t.login(STAFF.email, STAFF.password), complexes: theirs },
      { token: await t.login(colleague.email, colleague.password), complexes: [outside.id] },
    ];
    const housesOf = async (complexes: number[]) =>
      (await queryRows<{ id: number }>(t.db, sql`select id from houses where complex_id = any(${`{${complexes.join(',')}}`}::int[])`))
        .map((r) => r.id)
        .sort((a, b) => a - b);
    for (let round = 0; round < 7; round++) {
      for (const caller of callers) {
        const res = await t.call('GET', '/api/admin/houses?page=1&per_page=100', { token: caller.token });
        expect(res.statusCode, res.body).toBe(200);
        const seen = (res.json() as { main_data: { data: { id: number }[] } }).main_data.data.map((h) => h.id).sort((a, b) => a - b);
        expect(seen).toEqual(await housesOf(caller.complexes));
      }
    }
  });

  it('searches the members of a complex with one kept plan for every pattern, each finding exactly what it names', async () => {
    const admin = await t.login(ADMIN.email, ADMIN.password);
    const tag = uid();
    const city = await makeCity(t);
    const complex = (await createComplex(t.db, { organizationId: t.organizationId })).id;
    const [h1, h2] = [await makeHouse(t, city.id, complex), await makeHouse(t, city.id, complex)];
    const [u1, u2] = [await makeUnit(t, h1.id, `1${tag}`.slice(0, 8)), await makeUnit(t, h2.id, `2${tag}`.slice(0, 8))];
    const family = (await residentRolesOf(t.db, t.organizationId)).find((r) => r.code === 'family')!;
    for (const [name, email, phone, unit, role] of [
      [`Бойко Андрій ${tag}`, `a_${tag}@mail.ua`, '0671230001', u1, undefined],
      [`Кравчук Олена ${tag}`, `a1${tag}@mail.ua`, '0671230002', u2, undefined],
      [`Шевчук Іван ${tag}`, null, null, u2, family.id],
    ] as const) {
      const res = await t.call('POST', '/api/admin/members', { token: admin, body: { name, email, phone, realty_id: unit.id, role_id: role } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const search = async (text: string, houses = [h1.id, h2.id]) => {
      const query = `page=1&per_page=25&sort=name&order=asc&complex_id=${complex}&${houses.map((h) => `house_ids[]=${h}`).join('&')}`;
      const res = await t.call('GET', `/api/admin/members?${query}&search_query=${encodeURIComponent(text)}`, { token: admin });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { data: { name: string }[]; pagination: { total: number } };
      expect(body.pagination.total).toBe(body.data.length);
      return body.data.map((m) => m.name.split(' ')[0]);
    };
    // Seven rounds: on PostgreSQL the plan made for the first pattern serves all of them.
    for (let round = 0; round < 7; round++) {
      expect(await search('бойко')).toEqual(['Бойко']);
      // _ and % are plain characters: a_… is not a1…, and a%… names nobody.
      expect(await search(`a_${tag}`)).toEqual(['Бойко']);
      expect(await search(`a%${tag}`)).toEqual([]);
      // A unit's number, its two members in name order; only those of the houses asked for.
      expect(await search(u2.number)).toEqual(['Кравчук', 'Шевчук']);
      expect(await search(u2.number, [h1.id])).toEqual([]);
      // A whole phone as typed (found among all members first), and a part of one.
      expect(await search('067 123 00 02')).toEqual(['Кравчук']);
      expect(await search('230001')).toEqual(['Бойко']);
      expect(await search(tag)).toEqual(['Бойко', 'Кравчук', 'Шевчук']);
    }
  });
});
