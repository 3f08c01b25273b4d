import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { queryRows, type Database } from '../../server/db/index.ts';
import { API, createUser, setupApp, type TestApp } from '../api/helpers.ts';
import { collectRoutes, type Route } from './routes.ts';
import { buildOrganization, buildWorld, type OtherOrganization, type World } from './world.ts';

/**
 * Kept totals (docs/architecture.md, "Kept totals"): a list keeps the total it counted for the
 * next call. A total kept for one organization, or for a user who sees more complexes, must never
 * be answered to another caller. Every list route of the API, called by an admin, a staff member
 * of one complex and the admin of another organization one after the other, must answer each of
 * them the total an instance that only this caller has used answers.
 */

let t: TestApp;
let w: World;
let other: OtherOrganization;
let lists: Route[];
/** One more instance per caller, on the same database: it never sees another caller's lists. */
let fresh: Awaited<ReturnType<typeof buildApp>>[] = [];
/** A staff member with staff A's rights, of complex B only: the same lists' SQL as staff A's, other complexes. */
let staffB: string;

beforeAll(async () => {
  t = await setupApp();
  w = await buildWorld(t);
  other = await buildOrganization(t, w.cityId, 'Дельта');
  const [{ role_id: roleId }] = await queryRows<{ role_id: number }>(t.db, sql`select role_id from users where id = ${w.staffA.id}`);
  const user = await createUser(t.db, { organizationId: t.organizationId, roleId, complexIds: [w.B.complexId] });
  staffB = await t.login(user.email, user.password);
  // Complex B holds more units than A, so that the two staff members' totals differ.
  for (const number of ['901', '902', '903']) {
    const res = await t.call('POST', `${API}/realty`, { token: w.admin, body: { house_id: w.B.houseId, type: 'storage', number } });
    expect(res.statusCode, res.body).toBe(200);
  }
  lists = (await collectRoutes(t)).routes.filter((r) => r.method === 'GET' && !r.path.includes('{') && /page/.test(JSON.stringify(r.op.parameters ?? [])));
  const database: Database = { db: t.db, driver: t.driver, close: async () => {} };
  fresh = await Promise.all([0, 1, 2, 3].map(() => buildApp({ config: t.config, database })));
  await Promise.all(fresh.map((app) => app.ready()));
}, 300_000);
afterAll(async () => {
  for (const app of fresh) await app.close();
  await t?.close();
});

/** The total of a list answer, wherever its wrapper puts it. */
function totalOf(body: unknown): number | undefined {
  const b = body as { pagination?: { total?: number }; main_data?: { total?: number }; data?: { total?: number } };
  return b.pagination?.total ?? b.main_data?.total ?? (Array.isArray(b.data) ? undefined : b.data?.total);
}

it('no caller is answered a total kept for another organization or a wider scope', async () => {
  const callers = [
    ['admin', w.admin],
    ['staff of complex A', w.staffA.token],
    ['staff of complex B', staffB],
    ['admin of another organization', other.admin],
  ] as const;
  expect(lists.length).toBeGreaterThan(10);
  let compared = 0;
  for (const route of lists) {
    for (const query of ['?per_page=1', '?per_page=1&page=2']) {
      const url = `${route.path}${query}`;
      // Every caller once, so that each has a total kept; then each again, against an instance that kept none.
      for (const [, token] of callers) await t.call('GET', url, { token });
      for (const [i, [who, token]] of callers.entries()) {
        const kept = await t.call('GET', url, { token });
        if (kept.statusCode !== 200) continue;
        const counted = await fresh[i].inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
        expect(counted.statusCode, `${who}: ${url}`).toBe(200);
        const total = totalOf(kept.json());
        if (total === undefined) continue;
        expect(total, `${who}: ${url}`).toBe(totalOf(counted.json()));
        compared += 1;
      }
    }
  }
  expect(compared).toBeGreaterThan(30);
}, 300_000);
