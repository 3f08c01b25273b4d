import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS, AREAS, type Rules } from '../../contract/permissions.ts';
import { API, createOrganization, createUser, setupApp, uid, type CallOptions, type TestApp } from '../api/helpers.ts';
import { multipartBody } from '../api/multipart.ts';
import { changedTables, fingerprint } from './db.ts';
import { collectRoutes, fillPath, fillPaths, ORGANIZATION_WIDE, printedRoutes, PUBLIC_ROUTES, UNDOCUMENTED, type Route } from './routes.ts';
import { BULK_IDS, buildWorld, pointAt, type Side, type World } from './world.ts';

let t: TestApp;
let w: World;
let routes: Route[];
beforeAll(async () => {
  t = await setupApp();
  w = await buildWorld(t);
  ({ routes } = await collectRoutes(t));
});
afterAll(() => t?.close());

const isPublic = (r: Route) => r.key in PUBLIC_ROUTES;
const protectedRoutes = () => routes.filter((r) => !isPublic(r));
/** Order that keeps fixtures alive for as long as possible: reads, then writes, then deletions. */
const byMethod = (a: Route, b: Route) => rank(a) - rank(b);
const rank = (r: Route) => (r.method === 'GET' ? 0 : r.method === 'DELETE' ? 2 : 1);

/** The request a client of complex A would send to this route (valid body or form when known). */
async function requestFor(r: Route, token: string | undefined): Promise<CallOptions> {
  const form = w.forms[r.key];
  if (form) return { token, ...(await multipartBody(form)) };
  const body = w.bodies[r.key];
  return body === undefined ? { token } : { token, body };
}

async function callOn(r: Route, side: Side, token: string | undefined) {
  const url = fillPath(r.path, side) ?? r.path.replace(/\{\w+\}/g, '1');
  return t.call(r.method, url, await requestFor(r, token));
}

describe('the route table', () => {
  it('is fully documented in OpenAPI, so the matrices below see every route', () => {
    const documented = new Set(routes.map((r) => r.key.replace(/\{\w+\}/g, '{}')));
    const served = printedRoutes(t).filter((k) => !k.startsWith(`GET ${API}/docs`) && !(k in UNDOCUMENTED));
    expect(served.length).toBeGreaterThan(150);
    expect(served.filter((k) => !documented.has(k))).toEqual([]);
    expect([...documented].filter((k) => !served.includes(k))).toEqual([]);
  });

  it('lists only public exceptions that exist', () => {
    const documented = new Set(routes.map((r) => r.key));
    expect(Object.keys(PUBLIC_ROUTES).filter((k) => !documented.has(k))).toEqual([]);
  });
});

describe('authentication', () => {
  it('every protected route answers 401 without a token, with a made-up one and with a revoked one', async () => {
    const revoked = await t.login(w.staffA.email, w.staffA.password);
    expect((await t.call('POST', `${API}/logout`, { token: revoked })).statusCode).toBe(200);
    const wrong: string[] = [];
    const list = protectedRoutes();
    expect(list.length).toBeGreaterThan(150);
    for (const r of list) {
      for (const token of [undefined, `x${uid()}`, revoked]) {
        const res = await callOn(r, w.A, token);
        if (res.statusCode !== 401 || res.json().message !== 'Unauthenticated.')
          wrong.push(`${r.key} (${token === revoked ? 'revoked' : token ? 'made-up' : 'none'}) → ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

/** Reads that show organization-wide data on purpose, with the reason. */
const LIST_EXCEPTIONS: Record<string, string> = {
  [`GET ${API}/service_request-types/form`]: "request types are the organization's; their default handlers are picked from all its staff",
};

/** The same body with every reference to A's fixtures pointing at B's; undefined when it names none. */
function pointAtB(body: unknown, route: string): unknown {
  const out = pointAt(body, w.A, w.B, route);
  return out.replaced ? out.body : undefined;
}

describe('complex scoping: a staff user of complex A', () => {
  const itemRoutes = () =>
    protectedRoutes()
      .filter((r) => r.path.includes('{') && !ORGANIZATION_WIDE.test(r.path))
      .sort(byMethod);

  it('reads every item route of complex A (control: the token works), and a file route serves only the files it is for', async () => {
    // No ballot in A's meeting.
    const nothingThere = new Set([`GET ${API}/voting/{id}/ballots/{ballotId}/sheet`]);
    const wrong: string[] = [];
    let files = 0;
    for (const r of itemRoutes().filter((x) => x.method === 'GET' && !nothingThere.has(x.key))) {
      const variants = fillPaths(r.path, w.A);
      if (!variants) {
        wrong.push(`${r.key}: no fixture of A for its parameters`);
        continue;
      }
      for (const v of variants) {
        const res = await t.call(r.method, v.url, await requestFor(r, w.staffA.token));
        // A file of A that another record holds is served by that record's own route only.
        const expected = v.serves === false ? 404 : 200;
        if (res.statusCode !== expected)
          wrong.push(`${r.key} with ${v.file ?? 'its fixture'} → ${res.statusCode}, expected ${expected} ${res.body.slice(0, 200)}`);
        if (v.file) files++;
      }
    }
    expect(wrong).toEqual([]);
    // Each file route was tried with every kind of file.
    expect(files).toBeGreaterThanOrEqual(2 * 10);
  });

  it("gets 404 for every item route on complex B's rows (a file parameter: a file of every kind), and nothing changes", async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const r of itemRoutes()) {
      const variants = fillPaths(r.path, w.B);
      if (!variants) {
        wrong.push(`${r.key}: no fixture of B for its parameters`);
        continue;
      }
      for (const { url } of variants) {
        const before = await fingerprint(t);
        const res = await t.call(r.method, url, await requestFor(r, w.staffA.token));
        const changed = changedTables(before, await fingerprint(t));
        if (res.statusCode !== 404) wrong.push(`${r.method} ${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (changed.length) wrong.push(`${r.method} ${url} changed ${changed.join(', ')}`);
        checked++;
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(80);
  });

  it("cannot create or change anything that points at complex B's rows", async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const r of protectedRoutes().filter((x) => x.method === 'POST' || x.method === 'PUT' || x.method === 'PATCH')) {
      const json = w.bodies[r.key] === undefined ? undefined : pointAtB(w.bodies[r.key], r.key);
      const form = w.forms[r.key] === undefined ? undefined : (pointAtB(w.forms[r.key], r.key) as Record<string, never> | undefined);
      if (json === undefined && form === undefined) continue;
      const url = fillPath(r.path, w.A) ?? r.path;
      const before = await fingerprint(t);
      const res = await t.call(r.method, url, form ? { token: w.staffA.token, ...(await multipartBody(form)) } : { token: w.staffA.token, body: json });
      const changed = changedTables(before, await fingerprint(t));
      if (res.statusCode < 400 || res.statusCode >= 500) wrong.push(`${r.method} ${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      if (changed.length) wrong.push(`${r.method} ${url} changed ${changed.join(', ')}`);
      checked++;
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(25);
  });

  it('never sees a row of complex B in a list, form or summary', async () => {
    const reads = protectedRoutes().filter((r) => r.method === 'GET' && !r.path.includes('{'));
    const wrong: string[] = [];
    let meaningful = 0;
    for (const r of reads) {
      const url = `${r.path}?per_page=1000`;
      const mine = await t.call('GET', url, { token: w.staffA.token });
      if (mine.statusCode >= 500) wrong.push(`${r.key} → ${mine.statusCode}`);
      if (r.key in LIST_EXCEPTIONS) continue;
      if (mine.body.includes('Бета') || mine.body.includes(w.B.complexName)) wrong.push(`${r.key} shows B: ${mine.body.slice(0, 300)}`);
      // The admin sees B through the same call, so the check above is not vacuous.
      if ((await t.call('GET', url, { token: w.admin })).body.includes('Бета')) meaningful++;
    }
    expect(wrong).toEqual([]);
    expect(meaningful).toBeGreaterThanOrEqual(15);
  });
});

describe('bulk changes (PATCH of a list): each row is checked as its own update', () => {
  const bulkRoutes = () => protectedRoutes().filter((r) => r.method === 'PATCH');

  it('every bulk route is in BULK_IDS with a body, so the matrices above and below try it with B and another organization', () => {
    expect(bulkRoutes().length).toBeGreaterThanOrEqual(4);
    expect(bulkRoutes().filter((r) => !BULK_IDS[r.key] || w.bodies[r.key] === undefined)).toEqual([]);
  });

  it("answers complex B's row as one that does not exist (nothing of it leaks) and changes nothing", async () => {
    const wrong: string[] = [];
    for (const r of bulkRoutes()) {
      const ref = BULK_IDS[r.key];
      const body = w.bodies[r.key] as Record<string, unknown>;
      const before = await fingerprint(t);
      const res = await t.call('PATCH', r.path, { token: w.staffA.token, body: { ...body, ids: [w.B[ref] as number, 2147483000] } });
      const changed = changedTables(before, await fingerprint(t));
      const refused = res.json().data?.refused as { id: number; message: string }[] | undefined;
      if (res.statusCode !== 422) wrong.push(`${r.key} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      else if (refused?.length !== 2 || refused[0].message !== refused[1].message) wrong.push(`${r.key} tells B's row apart: ${res.body.slice(0, 300)}`);
      if (res.body.includes('Бета') || res.body.includes(w.B.complexName)) wrong.push(`${r.key} shows B: ${res.body.slice(0, 300)}`);
      if (changed.length) wrong.push(`${r.key} changed ${changed.join(', ')}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('organizations', () => {
  it("an admin of another organization reads and deletes none of this one's rows (404)", async () => {
    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const token = await t.login(other.email, other.password);
    const wrong: string[] = [];
    let checked = 0;
    for (const r of protectedRoutes()
      .filter((x) => (x.method === 'GET' || x.method === 'DELETE') && x.path.includes('{'))
      .sort(byMethod)) {
      for (const { url } of fillPaths(r.path, w.A) ?? []) {
        const before = await fingerprint(t);
        const res = await t.call(r.method, url, { token });
        if (res.statusCode !== 404) wrong.push(`${r.method} ${url} → ${res.statusCode} ${res.body.slice(0, 160)}`);
        const changed = changedTables(before, await fingerprint(t));
        if (changed.length) wrong.push(`${r.method} ${url} changed ${changed.join(', ')}`);
        checked++;
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });
});

/** Routes that no permission area guards, with the reason. */
const PERSONAL: Record<string, string> = {
  [`GET ${API}/user`]: 'own profile',
  [`POST ${API}/user`]: 'own profile',
  [`POST ${API}/logout`]: 'own session',
  [`POST ${API}/setting/request-code/phone`]: 'own settings',
  [`POST ${API}/setting/change/phone`]: 'own settings',
  [`POST ${API}/setting/request-code/email`]: 'own settings',
  [`POST ${API}/setting/change/email`]: 'own settings',
  [`POST ${API}/setting/change/password`]: 'own settings',
  [`POST ${API}/setting/enable-two-factor/phone`]: 'own settings',
  [`POST ${API}/setting/enable-two-factor/email`]: 'own settings',
  [`GET ${API}/notifications`]: 'own notifications',
  [`GET ${API}/notifications/unread_count`]: 'own notifications',
  [`POST ${API}/notifications/{id}/read`]: 'own notifications',
  [`POST ${API}/notifications/read_all`]: 'own notifications',
  [`POST ${API}/live/ticket`]: 'own live stream (events are filtered by scope and rights)',
  [`GET ${API}/chat`]: 'own conversation with support',
  [`GET ${API}/find/city`]: 'address reference (settlements), the same for everyone',
  [`GET ${API}/find/street`]: 'address reference (streets), the same for everyone',
  [`GET ${API}/setup`]: 'first-steps checklist: counts only, each step links to a guarded screen',
  [`GET ${API}/dashboard`]: 'each tile is filled only for the areas the role may view',
  [`GET ${API}/media/{key}`]: "a file is served through the record that holds it (that area's view right applies), or to its uploader while nothing holds it",
  [`POST ${API}/chat`]: 'own conversation with support',
  [`GET ${API}/saved-views`]: "own saved views (the list's area is checked once the list is named)",
  [`POST ${API}/saved-views`]: "own saved views (the list's area is checked once the list is named)",
  [`PUT ${API}/saved-views/{id}`]: 'own saved views',
  [`DELETE ${API}/saved-views/{id}`]: 'own saved views',
};

describe('permissions', () => {
  async function tokenWith(rules: Rules) {
    const user = await createUser(t.db, { organizationId: t.organizationId, permissions: rules, complexIds: [w.A.complexId] });
    return t.login(user.email, user.password);
  }

  it('a role without rights gets 403 on every guarded route', async () => {
    const token = await tokenWith({});
    const wrong: string[] = [];
    for (const r of protectedRoutes()
      .filter((x) => !(x.key in PERSONAL))
      .sort(byMethod)) {
      const res = await callOn(r, w.A, token);
      if (res.statusCode !== 403) wrong.push(`${r.key} → ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a role without rights reads no file of any kind, of its own complex or another, through any route', async () => {
    const token = await tokenWith({});
    const wrong: string[] = [];
    let checked = 0;
    for (const r of protectedRoutes().filter((x) => x.method === 'GET' && x.path.includes('{key}'))) {
      for (const side of [w.A, w.B]) {
        for (const v of fillPaths(r.path, side) ?? []) {
          const res = await t.call('GET', v.url, { token });
          // 403 where a right guards the route, 404 where the holder's right is asked.
          if (res.statusCode !== (r.key in PERSONAL ? 404 : 403)) wrong.push(`${r.key} with ${v.file} → ${res.statusCode}`);
          checked++;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(4 * 10);
  });

  it('a view-only role gets 403 on every write of a guarded route', async () => {
    const token = await tokenWith(Object.fromEntries(AREAS.map((a) => [a, ['view']])));
    const wrong: string[] = [];
    for (const r of protectedRoutes()
      .filter((x) => x.method !== 'GET' && !(x.key in PERSONAL))
      .sort(byMethod)) {
      const res = await callOn(r, w.A, token);
      if (res.statusCode !== 403) wrong.push(`${r.key} → ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('personal routes answer a user without rights', async () => {
    const token = await tokenWith({});
    for (const key of [`GET ${API}/user`, `GET ${API}/notifications`, `GET ${API}/chat`]) {
      const [method, path] = key.split(' ');
      expect((await t.call(method as 'GET', path, { token })).statusCode, key).toBe(200);
    }
    expect(ACTIONS.length).toBe(4);
  });
});

describe("saved views are their owner's own", () => {
  const view = () => `${API}/saved-views/${w.A.savedViewId}`;
  const calls = (token?: string) => [
    t.call('PUT', view(), { token, body: { name: 'Перехоплений', query: 'stage=done' } }),
    t.call('DELETE', view(), { token }),
  ];

  it("a colleague with every right and another organization's admin get 404 on the admin's view, and nothing changes", async () => {
    const org = await createOrganization(t.db);
    const otherAdmin = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    for (const token of [w.staffA.token, await t.login(otherAdmin.email, otherAdmin.password)]) {
      const listed = await t.call('GET', `${API}/saved-views?list=requests`, { token });
      expect(listed.statusCode).toBe(200);
      expect(listed.json().data.map((v: { id: number }) => v.id)).not.toContain(w.A.savedViewId);
      const before = await fingerprint(t);
      for (const res of await Promise.all(calls(token))) expect([res.statusCode, res.json().message]).toEqual([404, 'Збережений вид не знайдено.']);
      expect(changedTables(before, await fingerprint(t))).toEqual([]);
    }
    const own = (await t.call('GET', `${API}/saved-views?list=requests`, { token: w.admin })).json().data;
    expect(own.find((v: { id: number }) => v.id === w.A.savedViewId)).toMatchObject({ query: 'stage=new' });
  });

  it('no sign-in answers 401; a role that may not open the list gets 403 for its views', async () => {
    for (const res of [await t.call('GET', `${API}/saved-views?list=requests`), ...(await Promise.all(calls()))]) expect(res.statusCode).toBe(401);
    const user = await createUser(t.db, { organizationId: t.organizationId, permissions: { members: ['view'] }, complexIds: [w.A.complexId] });
    const token = await t.login(user.email, user.password);
    const before = await fingerprint(t);
    expect((await t.call('GET', `${API}/saved-views?list=requests`, { token })).statusCode).toBe(403);
    expect((await t.call('POST', `${API}/saved-views`, { token, body: { list: 'requests', name: 'Мій', query: '' } })).statusCode).toBe(403);
    expect(changedTables(before, await fingerprint(t))).toEqual([]);
  });
});

describe('regressions', () => {
  it('the request form lists a staff user only colleagues of their own complexes', async () => {
    const form = (await t.call('GET', `${API}/service_request/form`, { token: w.staffA.token })).json().form;
    const ids = form.responsible.map((s: { id: number }) => s.id);
    expect(ids).toContain(w.A.staffId);
    expect(ids).not.toContain(w.B.staffId);
    for (const s of form.responsible as { complex_ids: number[] | null }[]) if (s.complex_ids) expect(s.complex_ids).toEqual([w.A.complexId]);
  });

  it('deleting a complex whose contact section still holds contacts answers 409 in Ukrainian, not 500', async () => {
    const before = await fingerprint(t);
    const res = await t.call('DELETE', `${API}/complexes/${w.B.complexId}`, { token: w.admin });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/контакт/);
    expect(changedTables(before, await fingerprint(t))).toEqual([]);
  });
});
