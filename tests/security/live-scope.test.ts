import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../server/lib/secrets.ts';
import { ADMIN, API, createRole, createUser, setupApp, TEST_HASH_COST, uid, type TestApp } from '../api/helpers.ts';
import { multipartBody } from '../api/multipart.ts';
import { rows } from './db.ts';
import { collectRoutes, fillPath, PUBLIC_ROUTES } from './routes.ts';
import { buildWorld, type World } from './world.ts';

/**
 * Live-update streams follow the user's scope (docs/security.md, section 12). A stream opened
 * while the user could see complex A's requests must stop telling them about complex A as soon
 * as that changes — complexes, role, the role's rights — and must end with the session: user
 * deleted, signed out, password or e-mail changed, session pushed out by newer ones. Each case
 * opens a stream, proves it delivers A's changes, makes the change, changes A's request again
 * and checks what the stream says next.
 */
let t: TestApp;
let w: World;
let port: number;
beforeAll(async () => {
  t = await setupApp();
  w = await buildWorld(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t?.close());

const post = (path: string, body: unknown, token?: string) => t.call('POST', `${API}${path}`, { body, token });
/** Well below the 25-second heartbeat: a stream must react to the change itself, not to the next ping. */
const PROMPTLY_MS = 3000;

/** Whether the condition holds within PROMPTLY_MS. */
async function within(check: () => boolean): Promise<boolean> {
  const until = Date.now() + PROMPTLY_MS;
  while (!check()) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

interface Stream {
  text: () => string;
  ended: () => boolean;
  close: () => void;
}

async function openStream(token: string): Promise<Stream> {
  const ticket = await post('/live/ticket', {}, token);
  expect(ticket.statusCode, ticket.body).toBe(200);
  return new Promise((resolve, reject) => {
    let text = '';
    let ended = false;
    const req = http.get(`http://127.0.0.1:${port}${API}/live?ticket=${encodeURIComponent(ticket.json().ticket)}`, (res) => {
      expect(res.statusCode).toBe(200);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('event: ready')) resolve(stream);
      });
      res.on('end', () => (ended = true));
      res.on('close', () => (ended = true));
    });
    req.on('error', reject);
    const stream: Stream = { text: () => text, ended: () => ended, close: () => req.destroy() };
  });
}

/** A change of a request of the complex, as the admin makes it: every stream that may see it hears of it. */
async function touch(requestId: number, token = w.admin) {
  const res = await t.call('PUT', `${API}/service_request/${requestId}`, { token, body: { text: `Уточнення ${uid()}` } });
  expect(res.statusCode, res.body).toBe(200);
}
const heard = (text: string, requestId: number) => text.includes(`"request_id":${requestId},`);

interface Watcher {
  id: number;
  email: string;
  password: string;
  roleId: number;
  token: string;
}

/** A staff user who may view requests, of complex A only. */
async function watcher(): Promise<Watcher> {
  const role = await createRole(t.db, t.organizationId, { service_requests: ['view'] });
  const user = await createUser(t.db, { organizationId: t.organizationId, roleId: role.id, complexIds: [w.A.complexId] });
  return { id: user.id, email: user.email, password: user.password, roleId: role.id, token: await t.login(user.email, user.password) };
}

async function staffBody(id: number, changes: Record<string, unknown>) {
  const s = (await t.call('GET', `${API}/staff/${id}`, { token: w.admin })).json().data;
  return { name: s.name, email: s.email, phone: s.phone, is_admin: s.is_admin, role_id: s.role_id, complex_ids: s.complex_ids, ...changes };
}
const ok = (res: { statusCode: number; body: string }) => expect(res.statusCode, res.body).toBe(200);

/** The newest password link mailed to an address. */
async function resetLink(email: string) {
  ok(await post('/forgot_password', { email }));
  const [mail] = await rows<{ body: string }>(t, sql`select body from outbox where recipient = ${email} order by id desc limit 1`);
  return new URL(/https?:\/\/\S+/.exec(mail.body)![0]).searchParams.get('token')!;
}

type Outcome = 'ends' | 'silent' | 'moves to B';

/** Changes of a user's scope or session, and what their open stream must do afterwards. */
const CHANGES: Record<string, { run: (u: Watcher) => Promise<void>; outcome: Outcome }> = {
  'complex A taken away (B given instead)': {
    run: async (u) => ok(await t.call('PUT', `${API}/staff/${u.id}`, { token: w.admin, body: await staffBody(u.id, { complex_ids: [w.B.complexId] }) })),
    outcome: 'moves to B',
  },
  'role changed to one without request rights': {
    run: async (u) => {
      const none = await createRole(t.db, t.organizationId, { complexes: ['view'] });
      ok(await t.call('PUT', `${API}/staff/${u.id}`, { token: w.admin, body: await staffBody(u.id, { role_id: none.id }) }));
    },
    outcome: 'silent',
  },
  "the role's request rights taken away": {
    run: async (u) =>
      ok(await t.call('PUT', `${API}/staff_role/${u.roleId}`, { token: w.admin, body: { name: `Без заявок ${uid()}`, permissions: { complexes: ['view'] } } })),
    outcome: 'silent',
  },
  'user deleted': {
    run: async (u) => ok(await t.call('DELETE', `${API}/staff/${u.id}`, { token: w.admin })),
    outcome: 'ends',
  },
  'signed out': {
    run: async (u) => ok(await post('/logout', {}, u.token)),
    outcome: 'ends',
  },
  'password changed in another session': {
    run: async (u) => {
      const other = await t.login(u.email, u.password);
      ok(
        await post(
          '/setting/change/password',
          { current_password: u.password, password: 'новий-пароль-потоку-2026', password_confirmation: 'новий-пароль-потоку-2026' },
          other,
        ),
      );
    },
    outcome: 'ends',
  },
  'password reset by link': {
    run: async (u) => {
      const token = await resetLink(u.email);
      ok(await post('/reset_password', { token, email: u.email, password: 'новий-пароль-потоку-2026', password_confirmation: 'новий-пароль-потоку-2026' }));
    },
    outcome: 'ends',
  },
  'e-mail changed by an admin': {
    run: async (u) => ok(await t.call('PUT', `${API}/staff/${u.id}`, { token: w.admin, body: await staffBody(u.id, { email: `moved-${uid()}@test.ua` }) })),
    outcome: 'ends',
  },
  'session pushed out by ten newer sign-ins': {
    run: async (u) => {
      for (let i = 0; i < 10; i++) await t.login(u.email, u.password);
    },
    outcome: 'ends',
  },
};

describe('an open live stream follows the scope of its user', () => {
  for (const [name, change] of Object.entries(CHANGES)) {
    const expected =
      change.outcome === 'ends' ? 'the stream ends' : change.outcome === 'silent' ? "no more of complex A's changes" : "B's changes instead of A's";
    it(`${name}: ${expected}`, async () => {
      const u = await watcher();
      const stream = await openStream(u.token);
      // Control: before the change the stream delivers A's changes and nothing of B's.
      await touch(w.A.requestId);
      await expect.poll(() => heard(stream.text(), w.A.requestId), { timeout: PROMPTLY_MS }).toBe(true);

      await change.run(u);
      const mark = stream.text().length;
      await touch(w.A.requestId);
      const after = () => stream.text().slice(mark);

      if (change.outcome === 'ends') {
        await expect.poll(() => stream.ended(), { timeout: PROMPTLY_MS }).toBe(true);
      } else {
        // A change the user still hears about comes after A's; when it has arrived, A's would have too.
        if (change.outcome === 'moves to B') {
          await touch(w.B.requestId);
          await expect.poll(() => heard(after(), w.B.requestId), { timeout: PROMPTLY_MS }).toBe(true);
        } else {
          ok(await post('/notifications/read_all', {}, u.token));
          await expect.poll(() => after().includes('event: notification'), { timeout: PROMPTLY_MS }).toBe(true);
        }
        expect(stream.ended()).toBe(false);
      }
      expect(heard(after(), w.A.requestId), after()).toBe(false);
      stream.close();
    });
  }

  it('control: without a change the same stream keeps delivering complex A', async () => {
    const u = await watcher();
    const stream = await openStream(u.token);
    await touch(w.A.requestId);
    await expect.poll(() => heard(stream.text(), w.A.requestId), { timeout: PROMPTLY_MS }).toBe(true);
    const mark = stream.text().length;
    ok(await t.call('PUT', `${API}/staff/${u.id}`, { token: w.admin, body: await staffBody(u.id, { name: 'Той самий доступ' }) }));
    await touch(w.A.requestId);
    await expect.poll(() => heard(stream.text().slice(mark), w.A.requestId), { timeout: PROMPTLY_MS }).toBe(true);
    expect(heard(stream.text(), w.B.requestId)).toBe(false);
    expect(stream.ended()).toBe(false);
    stream.close();
  });

  it('a stream opened after a complex was given sees it', async () => {
    const u = await watcher();
    ok(await t.call('PUT', `${API}/staff/${u.id}`, { token: w.admin, body: await staffBody(u.id, { complex_ids: [w.A.complexId, w.B.complexId] }) }));
    const stream = await openStream(u.token);
    await touch(w.B.requestId);
    await expect.poll(() => heard(stream.text(), w.B.requestId), { timeout: PROMPTLY_MS }).toBe(true);
    stream.close();
  });
});

describe('every write route: a change that takes complex A from a user also silences their open stream', () => {
  const title =
    'run as the admin against the colleague of complex A whom the routes name, each route leaves the open stream within the scope GET /user then shows';
  it(title, { timeout: 600_000 }, async () => {
    // The watcher is complex A's colleague: /staff/{id} names them, and /staff_role/{id} may name their role.
    const [me] = await rows<{ role_id: number }>(t, sql`select role_id from users where id = ${w.A.staffId}`);
    const password = 'пароль-спостерігача-2026';
    await t.db.execute(
      sql`update users set password_hash = ${await hashPassword(password, TEST_HASH_COST)}, password_set_at = now() where id = ${w.A.staffId}`,
    );
    const [role] = await rows<{ permissions: unknown }>(t, sql`select permissions from staff_roles where id = ${me.role_id}`);
    const { routes } = await collectRoutes(t);
    const writes = routes.filter((r) => !(r.key in PUBLIC_ROUTES) && r.method !== 'GET' && r.method !== 'DELETE');

    const wrong: string[] = [];
    let narrowed = 0;
    let unchanged = 0;
    for (const r of writes) {
      // The watcher as they started: their role with its rights, complex A only.
      await t.db.execute(sql`update staff_roles set permissions = ${JSON.stringify(role.permissions)}::jsonb where id = ${me.role_id}`);
      await t.db.execute(sql`update users set role_id = ${me.role_id}, is_admin = false where id = ${w.A.staffId}`);
      await t.db.execute(sql`delete from user_complexes where user_id = ${w.A.staffId}`);
      await t.db.execute(sql`insert into user_complexes (user_id, complex_id) values (${w.A.staffId}, ${w.A.complexId})`);
      // …and A's request still in complex A (POST /houses/unlink takes the house out of it).
      await t.db.execute(sql`update houses set complex_id = ${w.A.complexId} where id = ${w.A.houseId}`);
      const [{ email }] = await rows<{ email: string }>(t, sql`select email from users where id = ${w.A.staffId}`);
      const watcherToken = await t.login(email, password);
      const admin = await t.login(ADMIN.email, ADMIN.password);
      const stream = await openStream(watcherToken);

      const url = fillPath(r.path, w.A) ?? r.path.replace(/\{\w+\}/g, '1');
      const form = w.forms[r.key];
      const res = await t.call(r.method, url, form ? { token: admin, ...(await multipartBody(form)) } : { token: admin, body: w.bodies[r.key] });
      if (res.statusCode >= 500) wrong.push(`${r.key} → ${res.statusCode}`);

      const fresh = await t.call('GET', `${API}/user`, { token: watcherToken });
      const profile = fresh.statusCode === 200 ? fresh.json().data : undefined;
      // (Whether the request is still one of complex A's: POST /houses/unlink takes its house out.)
      const [{ inA }] = await rows<{ inA: boolean }>(
        t,
        sql`select h.complex_id = ${w.A.complexId} as "inA" from service_requests r join houses h on h.id = r.house_id where r.id = ${w.A.requestId}`,
      );
      const sees =
        profile !== undefined &&
        inA &&
        (profile.rules.service_requests ?? []).includes('view') &&
        profile.complexes.some((c: { id: number }) => c.id === w.A.complexId);
      const mark = stream.text().length;
      await touch(w.A.requestId, await t.login(ADMIN.email, ADMIN.password));
      const after = () => stream.text().slice(mark);
      if (!profile) {
        narrowed++;
        if (!(await within(() => stream.ended()))) wrong.push(`${r.key}: the session ended, the stream did not`);
      } else if (!sees) {
        narrowed++;
        ok(await post('/notifications/read_all', {}, watcherToken));
        if (!(await within(() => after().includes('event: notification')))) wrong.push(`${r.key}: the stream went quiet altogether`);
      } else {
        unchanged++;
        if (!(await within(() => heard(after(), w.A.requestId))))
          wrong.push(`${r.key} → ${res.statusCode}: the scope stayed, yet the stream did not deliver A`);
      }
      if (!sees && heard(after(), w.A.requestId)) wrong.push(`${r.key}: the stream still delivered complex A`);
      stream.close();
    }
    expect(wrong).toEqual([]);
    // The loop is not vacuous: some routes did narrow the watcher's scope, most left it.
    expect(narrowed).toBeGreaterThanOrEqual(2);
    expect(unchanged).toBeGreaterThan(50);
  });
});
