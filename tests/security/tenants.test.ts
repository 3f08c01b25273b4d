import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, setupApp, type CallOptions, type TestApp } from '../api/helpers.ts';
import { multipartBody } from '../api/multipart.ts';
import { changedTables, rows } from './db.ts';
import { collectRoutes, fillPath, PUBLIC_ROUTES, type Route } from './routes.ts';
import { organizationFingerprint, unownedTables } from './tenancy.ts';
import { buildOrganization, buildWorld, pointAt, type OtherOrganization, type Side, type World } from './world.ts';

/**
 * Tenants: a second management company (organization) with its own admin and data, and the
 * first one's admin trying every write route of the app. Nothing the first writes may change a
 * row the second can see — its own rows, or shared reference data such as streets — and nothing
 * of the second shows in the first's reads.
 */

let t: TestApp;
let w: World;
let other: OtherOrganization;
let routes: Route[];
/** A reference street (Київ, Хрещатик) that houses of both organizations are on. */
let sharedStreetId: number;
/** A street of the second organization's own. */
let otherStreet: { id: number; name: string };
let kyivId: number;

const MARK = 'Гамма';

beforeAll(async () => {
  t = await setupApp();
  w = await buildWorld(t);
  other = await buildOrganization(t, w.cityId, MARK);
  ({ routes } = await collectRoutes(t));
  [{ id: kyivId }] = await rows<{ id: number }>(t, sql`select id from settlements where name = 'Київ' and category = 'К'`);
  [{ id: sharedStreetId }] = await rows<{ id: number }>(
    t,
    sql`select id from streets where settlement_id = ${kyivId} and search_name = 'хрещатик' and organization_id is null order by id limit 1`,
  );
  // The street the second organization typed for its house: its own.
  [otherStreet] = await rows<{ id: number; name: string }>(
    t,
    sql`select s.id, s.name from streets s join houses h on h.street_id = s.id where h.id = ${other.side.houseId}`,
  );
  // Each organization moves a house (with its requests, meeting and protocol) onto the shared street.
  for (const [token, side, number] of [
    [w.admin, w.A, '101'],
    [other.admin, other.side, '102'],
  ] as const) {
    const res = await t.call('PUT', `${API}/houses/${side.houseId}`, {
      token,
      body: { city_id: kyivId, street_id: sharedStreetId, number, complex_id: side.complexId },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}, 300_000);
afterAll(() => t?.close());

const fingerprint = () => organizationFingerprint(t, other.organizationId);
/** Reads, then writes, then deletions: fixtures live as long as possible. */
const rank = (r: Route) => (r.method === 'GET' ? 0 : r.method === 'DELETE' ? 2 : 1);
/** Ends the session it is called with: called last, with a token of its own. */
const SESSION_ENDING = new Set([`POST ${API}/logout`]);
const writes = () => routes.filter((r) => r.method !== 'GET' && !(r.key in PUBLIC_ROUTES) && !SESSION_ENDING.has(r.key)).sort((a, b) => rank(a) - rank(b));

/** The request the first organization's admin sends: its world's body or form for the route. */
async function request(r: Route, body: unknown = w.bodies[r.key]): Promise<CallOptions> {
  const form = w.forms[r.key];
  if (form) return { token: w.admin, ...(await multipartBody(form)) };
  return body === undefined ? { token: w.admin } : { token: w.admin, body };
}

/** Path parameters of the first organization's fixtures; streets: the shared reference street. */
const ownPath = (r: Route) =>
  r.path.endsWith('/streets/{id}') ? r.path.replace('{id}', String(sharedStreetId)) : (fillPath(r.path, w.A) ?? r.path.replace(/\{\w+\}/g, '1'));

describe('a second organization', () => {
  it('is there, with its own admin and data, and sees the shared street its house is on', async () => {
    expect(other.organizationId).not.toBe(t.organizationId);
    const house = (await t.call('GET', `${API}/houses/${other.side.houseId}`, { token: other.admin })).json().data;
    expect(house).toMatchObject({ street_id: sharedStreetId, street: 'Хрещатик' });
    // Every table but the address reference is tied to an organization, so the fingerprint below
    // follows the second organization's rows wherever they are.
    expect(await unownedTables(t)).toEqual(['settlements']);
  });

  it('no list, look-up or form of the first organization shows a row of the second (streets included)', { timeout: 300_000 }, async () => {
    const reads = routes.filter((r) => r.method === 'GET' && !r.path.includes('{') && !(r.key in PUBLIC_ROUTES));
    const wrong: string[] = [];
    let meaningful = 0;
    const query = (r: Route) =>
      r.path.endsWith('/find/street')
        ? `?city_id=${w.cityId}&search_query=${encodeURIComponent(otherStreet.name)}`
        : r.path.endsWith('/find/city')
          ? ''
          : '?per_page=1000';
    const theirStreets = new Set([
      otherStreet.id,
      ...(await rows<{ id: number }>(t, sql`select id from streets where organization_id = ${other.organizationId}`)).map((s) => s.id),
    ]);
    for (const r of reads) {
      const url = `${r.path}${query(r)}`;
      const mine = await t.call('GET', url, { token: w.admin });
      if (mine.statusCode >= 500) wrong.push(`${r.key} → ${mine.statusCode}`);
      if (r.path.endsWith('/find/street')) {
        // Streets of the same name may exist in both organizations: they are told apart by id.
        const ids = (mine.json().data as { id: number }[]).map((s) => s.id);
        if (ids.some((id) => theirStreets.has(id))) wrong.push(`${r.key} shows the second organization's street: ${mine.body.slice(0, 300)}`);
      } else if (mine.body.includes(MARK)) wrong.push(`${r.key} shows the second organization: ${mine.body.slice(0, 300)}`);
      // Its own admin sees its rows through the same call, so the check above is not vacuous.
      if ((await t.call('GET', url, { token: other.admin })).body.includes(MARK)) meaningful++;
    }
    expect(wrong).toEqual([]);
    expect(meaningful).toBeGreaterThanOrEqual(15);
  });

  it("a phone search, looked up among every organization's members by its digit runs, finds the second's member only for its admin", async () => {
    // Seven digits of this run after the operator: no other member has them.
    const digits = String(1_000_000 + Math.floor(Math.random() * 8_999_999));
    const member = (await t.call('GET', `${API}/members/${other.side.memberId}`, { token: other.admin })).json().data as { name: string };
    const put = await t.call('PUT', `${API}/members/${other.side.memberId}`, { token: other.admin, body: { name: member.name, phone: `+38093${digits}` } });
    expect(put.statusCode, put.body).toBe(200);
    const found = async (token: string, query: string, complexId?: number) => {
      const where = complexId === undefined ? '' : `&complex_id=${complexId}&sort=name`;
      const res = await t.call('GET', `${API}/members?per_page=100&search_query=${encodeURIComponent(query)}${where}`, { token });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { id: number }[]).map((m) => m.id);
    };
    for (const query of [`093 ${digits}`, `+38093${digits}`, digits]) {
      expect(await found(other.admin, query), query).toEqual([other.side.memberId]);
      expect(await found(other.admin, query, other.side.complexId), query).toEqual([other.side.memberId]);
      expect(await found(w.admin, query), query).toEqual([]);
      expect(await found(w.admin, query, w.A.complexId), query).toEqual([]);
      // Another organization's complex named in the filter: an empty page, not its members.
      expect(await found(w.admin, query, other.side.complexId), query).toEqual([]);
    }
  });

  it("a requests list that names the second organization's house among its own (each named house is read on its own) shows none of its requests", async () => {
    const listed = async (token: string, query: string) => {
      const res = await t.call('GET', `${API}/service_request?sort=created_at&order=desc&per_page=100&${query}`, { token });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().main_data.data as { id: number }[]).map((r) => r.id);
    };
    const houses = (ids: number[]) => ids.map((id) => `house_ids[]=${id}`).join('&');
    for (const search of ['', `&search_query=${encodeURIComponent('а')}`]) {
      // Its own admin finds its request through the same call, so the checks below are not vacuous.
      expect(await listed(other.admin, `${houses([other.side.houseId])}${search}`)).toContain(other.side.requestId);
      for (const query of [
        `complex_id=${w.A.complexId}&${houses([w.A.houseId, other.side.houseId])}`,
        houses([w.A.houseId, other.side.houseId]),
        houses([other.side.houseId]),
        `complex_id=${other.side.complexId}&${houses([other.side.houseId])}`,
      ]) {
        const ids = await listed(w.admin, `${query}${search}`);
        expect(ids, query).not.toContain(other.side.requestId);
        expect(ids.includes(w.A.requestId), query).toBe(query.includes(`house_ids[]=${w.A.houseId}`) && !query.includes(`complex_id=${other.side.complexId}`));
      }
      // A staff member of complex A names complex B's house beside A's: B's requests stay out.
      const staffIds = await listed(w.staffA.token, `complex_id=${w.A.complexId}&${houses([w.A.houseId, w.B.houseId])}${search}`);
      expect(staffIds).toContain(w.A.requestId);
      expect(staffIds).not.toContain(w.B.requestId);
      const named = await listed(w.staffA.token, `${houses([w.B.houseId, w.A.houseId])}${search}`);
      expect(named).toContain(w.A.requestId);
      expect(named).not.toContain(w.B.requestId);
    }
  });

  it("no write route, called by the first organization's admin on its own data, changes a row the second can see", { timeout: 600_000 }, async () => {
    const wrong: string[] = [];
    let succeeded = 0;
    const streetBody = { city_id: w.cityId, name: otherStreet.name };
    for (const r of writes()) {
      const url = ownPath(r);
      const before = await fingerprint();
      // A street of the same name as the second organization's own: the first gets a street of its own.
      const res = await t.call(r.method, url, await request(r, r.key === `POST ${API}/streets` ? streetBody : undefined));
      const changed = changedTables(before, await fingerprint());
      if (res.statusCode >= 500) wrong.push(`${r.method} ${url} → ${res.statusCode}`);
      if (res.statusCode < 300) succeeded++;
      if (changed.length) wrong.push(`${r.method} ${url} (${res.statusCode}) changed the second organization's ${changed.join(', ')}`);
      if (r.key === `PUT ${API}/streets/{id}`) expect(res.statusCode, `renaming the shared street: ${res.body}`).toBe(200);
    }
    // Finally the session-ending routes, with a token of their own.
    for (const key of SESSION_ENDING) {
      const before = await fingerprint();
      const token = await t.login((await rows<{ email: string }>(t, sql`select email from users where id = ${w.staffA.id}`))[0].email, w.staffA.password);
      const res = await t.call('POST', key.split(' ')[1], { token });
      expect(res.statusCode).toBe(200);
      expect(changedTables(before, await fingerprint())).toEqual([]);
    }
    expect(wrong).toEqual([]);
    // The checks above are not vacuous: most writes did what they were asked.
    expect(succeeded).toBeGreaterThan(60);
    // The second organization's house still reads its old address, on the reference street.
    const house = (await t.call('GET', `${API}/houses/${other.side.houseId}`, { token: other.admin })).json().data;
    expect(house).toMatchObject({ street_id: sharedStreetId, street: 'Хрещатик' });
  });

  it("every write route on the second organization's rows answers 4xx and changes nothing of it", { timeout: 600_000 }, async () => {
    const wrong: string[] = [];
    let checked = 0;
    const theirs: Side = other.side;
    for (const r of writes().filter((x) => x.path.includes('{'))) {
      const url = r.path.endsWith('/streets/{id}') ? r.path.replace('{id}', String(otherStreet.id)) : fillPath(r.path, theirs);
      if (!url) continue;
      const before = await fingerprint();
      const res = await t.call(r.method, url, await request(r));
      const changed = changedTables(before, await fingerprint());
      if (res.statusCode < 400 || res.statusCode >= 500) wrong.push(`${r.method} ${url} → ${res.statusCode} ${res.body.slice(0, 160)}`);
      if (changed.length) wrong.push(`${r.method} ${url} changed the second organization's ${changed.join(', ')}`);
      checked++;
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });

  it("no write whose body names the second organization's rows gets through", { timeout: 600_000 }, async () => {
    // The street of a house: the second organization's own street.
    const bodies: Record<string, unknown> = {
      ...w.bodies,
      [`POST ${API}/houses`]: { city_id: w.cityId, street_id: otherStreet.id, number: '77', complex_id: w.A.complexId },
    };
    const wrong: string[] = [];
    let checked = 0;
    for (const r of writes().filter((x) => x.method === 'POST' || x.method === 'PUT' || x.method === 'PATCH')) {
      const json = bodies[r.key] === undefined ? undefined : pointAt(bodies[r.key], w.A, other.side, r.key);
      const form = w.forms[r.key] === undefined ? undefined : pointAt(w.forms[r.key], w.A, other.side, r.key);
      if (r.key !== `POST ${API}/houses` && !json?.replaced && !form?.replaced) continue;
      const url = fillPath(r.path, w.A) ?? r.path;
      const before = await fingerprint();
      const res = await t.call(
        r.method,
        url,
        form ? { token: w.admin, ...(await multipartBody(form.body as Record<string, never>)) } : { token: w.admin, body: json?.body },
      );
      const changed = changedTables(before, await fingerprint());
      if (res.statusCode < 400 || res.statusCode >= 500) wrong.push(`${r.method} ${url} → ${res.statusCode} ${res.body.slice(0, 160)}`);
      if (changed.length) wrong.push(`${r.method} ${url} changed the second organization's ${changed.join(', ')}`);
      checked++;
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});
