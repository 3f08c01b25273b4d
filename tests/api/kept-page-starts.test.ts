/**
 * A page past the first, once answered, keeps where it and the next page begin, and is walked from
 * there while nothing the list reads was written (server/lib/keptStarts.ts, docs/architecture.md
 * "Kept page starts"). Whatever is kept, the pages are the ones the offset gives: asked again,
 * one after another, in both orders, and after a write that moves a member across them.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/index.ts';
import { ADMIN, API, setupApp, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let complexId: number;

const PER_PAGE = 3;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  [{ complex_id: complexId }] = await queryRows<{ complex_id: number }>(
    t.db,
    sql`select complex_id from member_units where organization_id = ${t.organizationId} group by complex_id order by count(distinct member_id) desc limit 1`,
  );
});
afterAll(() => t.close());

const list = (order: 'asc' | 'desc', page: number, perPage = PER_PAGE, search = '') =>
  `/members?page=${page}&per_page=${perPage}&sort=name&order=${order}&complex_id=${complexId}${search && `&search_query=${encodeURIComponent(search)}`}`;

const idsOf = async (path: string) => {
  const res = await t.call('GET', `${API}${path}`, { token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { id: number }[] }>().data.map((m) => m.id);
};

/** The whole list in one page (asked once, or after a write: never from a kept key): what every page must be a slice of. */
const everyone = (order: 'asc' | 'desc', search = '') => idsOf(list(order, 1, 500, search));
const slice = (all: number[], page: number) => all.slice((page - 1) * PER_PAGE, page * PER_PAGE);

/** A write the triggers do not see (as if the change log did not exist): shows whether a page walked from a kept start. */
const unlogged = (statement: ReturnType<typeof sql>) =>
  t.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });

describe('kept page starts (members of a complex)', () => {
  it.each([
    ['asc', ''],
    ['desc', ''],
    ['asc', 'а'],
  ] as const)(
    'pages asked again and one after another are the offset pages, also after a member moved across them (%s, search «%s»)',
    async (order, search) => {
      const all = await everyone(order, search);
      expect(all.length).toBeGreaterThan(4 * PER_PAGE);
      for (const page of [2, 3, 4, 3, 2, 2, 5, 4]) expect(await idsOf(list(order, page, PER_PAGE, search)), `page ${page}`).toEqual(slice(all, page));

      // The last member of page 4 renamed to come first (before an earlier case's too): pages 2–4 each begin one member later.
      const moved = slice(all, 4).at(-1)!;
      await t.db.execute(sql`update members set name = ${order === 'desc' ? 'Яяяя Останній' : search ? 'Аааа Ааа' : 'Аааа Перший'} where id = ${moved}`);
      const after = await everyone(order, search);
      expect(after[0]).toBe(moved);
      for (const page of [2, 3, 4, 5]) expect(await idsOf(list(order, page, PER_PAGE, search)), `page ${page} after the write`).toEqual(slice(after, page));
    },
  );

  it('a kept start is walked from while nothing the list reads was written, and dropped after any write', async () => {
    const all = await everyone('asc');
    const page3 = slice(all, 3);
    expect(await idsOf(list('asc', 3))).toEqual(page3);

    // Unseen by the change log, the first member leaves the complex: the page starts where it was kept.
    const [first] = all;
    await unlogged(sql`delete from member_units where member_id = ${first} and complex_id = ${complexId}`);
    expect(await idsOf(list('asc', 3))).toEqual(page3);
    expect(await idsOf(list('asc', 4))).toEqual(slice(all, 4));

    // Any logged write to what the page reads: both pages are walked by the offset again and shift by one.
    await t.db.execute(sql`update member_units set status = status where member_id = ${all.at(-1)!}`);
    expect(await idsOf(list('asc', 3))).toEqual(slice(all.slice(1), 3));
    expect(await idsOf(list('asc', 4))).toEqual(slice(all.slice(1), 4));
  });

  it('page 1 of a search starts at its kept first match while nothing was written', async () => {
    const search = 'а';
    const all = await everyone('asc', search);
    const page1 = slice(all, 1);
    expect(await idsOf(list('asc', 1, PER_PAGE, search))).toEqual(page1);

    // Unseen by the change log, the last match's entry moves before every other: page 1 still starts at its kept first match.
    const last = all.at(-1)!;
    await unlogged(sql`update member_units set name_key = '' where member_id = ${last} and complex_id = ${complexId}`);
    expect(await idsOf(list('asc', 1, PER_PAGE, search))).toEqual(page1);

    // A logged write: page 1 is walked from the index's start again and begins with the moved entry.
    await t.db.execute(sql`update member_units set status = status where member_id = ${last}`);
    expect(await idsOf(list('asc', 1, PER_PAGE, search))).toEqual([last, ...page1.slice(0, PER_PAGE - 1)]);
  });
});
