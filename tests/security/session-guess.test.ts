/**
 * Lists built in one statement start with the session this process saw for the token last time
 * and check it in that same statement (server/lib/auth.ts, docs/security.md "Sessions confirmed
 * in the list's statement"). Whatever changed in the database meanwhile — even by hand, with no
 * API call to tell the process — the very next call answers as a fresh sign-in check would: an
 * ended, expired or deleted session is a 401 (also for a call that is wrong in other ways), rights
 * taken away are a 403, complexes taken away show nothing of theirs, and rights given are used at
 * once.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Rules } from '../../contract/permissions.ts';
import { authTokens, staffRoles, userComplexes, users } from '../../server/db/schema.ts';
import { hashToken } from '../../server/lib/secrets.ts';
import { ADMIN, API, createUser, meetingBody, setupApp, type TestApp } from '../api/helpers.ts';
import { rows } from './db.ts';

// Built before the tests are collected: entities whose plugin the app builds as it starts (staff,
// plain declared ones such as cameras) join `app.crud.recordsInSql()` only then, and every list is covered.
const t: TestApp = await setupApp();
let admin: string;
/** Two complexes of the demo organization that have rows in every list below. */
let complexA: number;
let complexB: number;

const lists = t.app.crud.recordsInSql();

beforeAll(async () => {
  admin = await t.login(ADMIN.email, ADMIN.password);
  const found: number[] = [];
  const { data } = (await t.call('GET', `${API}/user`, { token: admin })).json() as { data: { complexes: { id: number }[] } };
  // The demo's cameras are all in its first complex: the second gets one, so that both have rows in every list.
  const [second] = await rows<{ id: number }>(t, sql`select h.id from houses h where h.complex_id = ${data.complexes[1].id} order by h.id limit 1`);
  const camera = await t.call('POST', `${API}/cameras`, {
    token: admin,
    body: { house_id: second.id, name: 'Вхід до під’їзду', place: 'Над дверима', stream_url: 'rtsp://10.0.0.5:554/stream1', snapshot_url: null },
  });
  expect(camera.statusCode, camera.body).toBe(200);
  for (const c of data.complexes) {
    let everywhere = true;
    for (const e of lists) if ((await total(e.path, admin, `complex_id=${c.id}`)) === 0) everywhere = false;
    if (everywhere) found.push(c.id);
  }
  [complexA, complexB] = found;
  expect(complexB, 'two demo complexes with rows in every list').toBeDefined();
});
afterAll(() => t.close());

async function total(path: string, token: string, query = '') {
  const res = await t.call('GET', `${API}${path}?page=1&per_page=5&${query}`, { token });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as Record<string, { total?: number; pagination?: unknown }>;
  const pages = (body.main_data ?? (body.pagination as { total: number }) ?? body.data) as { total: number };
  return pages.total;
}

const list = (path: string, token: string, query = '') => t.call('GET', `${API}${path}?page=1&per_page=5&${query}`, { token });

/** A staff user who may view every list here, in both complexes, already seen by the process (one list call made). */
async function knownStaff(area: string, permissions?: Rules) {
  const rules: Rules = permissions ?? Object.fromEntries(lists.map((e) => [e.area, ['view']]));
  const me = await createUser(t.db, { organizationId: t.organizationId, permissions: rules, complexIds: [complexA, complexB] });
  const token = await t.login(me.email, me.password);
  const path = lists.find((e) => e.area === area)!.path;
  const first = await list(path, token);
  expect([200, 403]).toContain(first.statusCode);
  return { me, token };
}

describe.each(lists.map((e) => [e.path, e] as const))('%s', (path, e) => {
  it('an ended session is a 401 at the next call, even a call with a wrong parameter', async () => {
    const { token } = await knownStaff(e.area);
    expect((await list(path, token)).statusCode).toBe(200);
    await t.db
      .update(authTokens)
      .set({ revokedAt: new Date() })
      .where(eq(authTokens.tokenHash, hashToken(token)));
    expect((await list(path, token)).statusCode).toBe(401);
    expect((await list(path, token, 'sort=no_such_field')).statusCode).toBe(401);
    expect((await list(path, token, `complex_id=${complexA}&search_query=а`)).statusCode).toBe(401);
  });

  it('an expired session and a deleted account are 401s', async () => {
    const expired = await knownStaff(e.area);
    await t.db
      .update(authTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(authTokens.tokenHash, hashToken(expired.token)));
    expect((await list(path, expired.token)).statusCode).toBe(401);
    const deleted = await knownStaff(e.area);
    await t.db.delete(users).where(eq(users.id, deleted.me.id));
    expect((await list(path, deleted.token)).statusCode).toBe(401);
  });

  it('a password change forced meanwhile is a 403 at the next call', async () => {
    const { me, token } = await knownStaff(e.area);
    await t.db.update(users).set({ mustChangePassword: true }).where(eq(users.id, me.id));
    const res = await list(path, token);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toBe('Спочатку змініть тимчасовий пароль.');
  });

  it('rights taken away are a 403 at the next call', async () => {
    const { me, token } = await knownStaff(e.area);
    await t.db
      .update(staffRoles)
      .set({ permissions: { [e.area === 'members' ? 'houses' : 'members']: ['view'] } })
      .where(eq(staffRoles.id, me.roleId!));
    const res = await list(path, token);
    expect(res.statusCode, res.body).toBe(403);
  });

  it('rights given are used at the next call', async () => {
    const { me, token } = await knownStaff(e.area, { houses: ['view'] });
    expect((await list(path, token)).statusCode).toBe(403);
    await t.db
      .update(staffRoles)
      .set({ permissions: { [e.area]: ['view'] } })
      .where(eq(staffRoles.id, me.roleId!));
    expect((await list(path, token)).statusCode).toBe(200);
  });

  it('a complex taken away shows nothing of it at the next call', async () => {
    const { me, token } = await knownStaff(e.area);
    const before = await total(path, token, `complex_id=${complexB}`);
    expect(before).toBeGreaterThan(0);
    await t.db.delete(userComplexes).where(and(eq(userComplexes.userId, me.id), eq(userComplexes.complexId, complexB)));
    const after = await total(path, token, `complex_id=${complexB}`);
    // What a fresh sign-in sees: nothing only of that complex (news meant for both complexes stay, for the other one).
    expect(after).toBe(await total(path, await t.login(me.email, me.password), `complex_id=${complexB}`));
    expect(after).toBeLessThan(before);
    if (!('complex_ids' in (e.record as unknown as { shape: object }).shape)) expect(after).toBe(0);
    expect(await total(path, token, `complex_id=${complexA}`)).toBeGreaterThan(0);
  });

  it('an admin made staff without complexes sees at the next call only what a fresh sign-in shows (nothing, or on /staff themselves)', async () => {
    const me = await createUser(t.db, { organizationId: t.organizationId, isAdmin: true });
    const token = await t.login(me.email, me.password);
    const before = await total(path, token);
    expect(before).toBeGreaterThan(0);
    const role = await t.db
      .insert(staffRoles)
      .values({ organizationId: t.organizationId, name: `Роль ${me.id}`, permissions: { [e.area]: ['view'] } })
      .returning();
    await t.db.update(users).set({ isAdmin: false, roleId: role[0].id }).where(eq(users.id, me.id));
    const after = await total(path, token);
    expect(after).toBe(await total(path, await t.login(me.email, me.password)));
    // Staff see themselves on the staff list (server/modules/staff/routes.ts); every other list shows nothing.
    expect(after, `${path}: ${after}`).toBe(e.path === '/staff' ? 1 : 0);
    expect(after).toBeLessThan(before);
  });
});

/** Lists of one survey or meeting, built in one statement with the session in it (not declared entities). */
const ownLists = [
  {
    name: "a survey's respondents",
    area: 'interviews',
    async create() {
      const created = await t.call('POST', `${API}/interview`, {
        token: admin,
        body: {
          title: `Опитування ${Date.now()}`,
          description: 'Перевірка сеансу.',
          complex_ids: [complexB],
          start_at: new Date(Date.now() - 86_400_000).toISOString(),
          end_at: new Date(Date.now() + 86_400_000).toISOString(),
          published: true,
          questions: [{ title: 'Чи потрібен шлагбаум?', kind: 'single', options: ['Так', 'Ні'] }],
        },
      });
      expect(created.statusCode, created.body).toBe(200);
      return `${API}/interview/${created.json().data.id}/users?page=1&per_page=5`;
    },
  },
  {
    name: "a meeting's participants",
    area: 'votings',
    async create() {
      // A house of complex B with co-owners (owner or co-owner roles) in the register.
      const [house] = await rows<{ id: number }>(
        t,
        sql`select h.id from houses h where h.complex_id = ${complexB} and exists (select 1 from realty u join residents r on r.realty_id = u.id
          join resident_roles rr on rr.id = r.role_id where u.house_id = h.id and rr.holds_share) order by h.id limit 1`,
      );
      const created = await t.call('POST', `${API}/voting`, {
        token: admin,
        body: meetingBody(house.id, {
          title: 'Ремонт покрівлі',
          regime: 'no_osbb',
          initiator: 'Управитель',
          meeting_date: new Date().toISOString().slice(0, 10),
          meeting_time: '18:30',
          place: 'подвір’я будинку',
          chair: 'Коваль Петро Іванович',
          questions: [{ title: 'Затвердити кошторис ремонту покрівлі.', threshold: 'majority' }],
        }),
      });
      expect(created.statusCode, created.body).toBe(200);
      return `${API}/voting/${created.json().data.id}/residents?page=1&per_page=5`;
    },
  },
];

/** Sets the rights of the user's role directly in the database (no API call tells the process). */
async function setRights(userId: number, permissions: Rules) {
  const [row] = await t.db.select({ roleId: users.roleId }).from(users).where(eq(users.id, userId));
  await t.db.update(staffRoles).set({ permissions }).where(eq(staffRoles.id, row.roleId!));
}

describe.each(ownLists.map((l) => [l.name, l] as const))('%s (one statement with the session in it)', (_name, l) => {
  /** The list for complex B, and a staff user of both complexes who has read it once. */
  async function setup() {
    const path = await l.create();
    const me = await createUser(t.db, { organizationId: t.organizationId, permissions: { [l.area]: ['view'] }, complexIds: [complexA, complexB] });
    const token = await t.login(me.email, me.password);
    const first = await t.call('GET', path, { token });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().pagination.total).toBeGreaterThan(0);
    return { me, token, path };
  }

  it('an ended session is a 401 at the next call', async () => {
    const { token, path } = await setup();
    await t.db
      .update(authTokens)
      .set({ revokedAt: new Date() })
      .where(eq(authTokens.tokenHash, hashToken(token)));
    expect((await t.call('GET', path, { token })).statusCode).toBe(401);
  });

  it('rights taken away are a 403, and a complex taken away hides the list (404)', async () => {
    const { me, token, path } = await setup();
    await t.db.delete(userComplexes).where(and(eq(userComplexes.userId, me.id), eq(userComplexes.complexId, complexB)));
    expect((await t.call('GET', path, { token })).statusCode).toBe(404);
    await setRights(me.id, { members: ['view'] });
    expect((await t.call('GET', path, { token })).statusCode).toBe(403);
  });

  it('rights given are used at the next call', async () => {
    const { me, token, path } = await setup();
    await setRights(me.id, { members: ['view'] });
    expect((await t.call('GET', path, { token })).statusCode).toBe(403);
    await setRights(me.id, { [l.area]: ['view'] });
    expect((await t.call('GET', path, { token })).statusCode).toBe(200);
  });
});
