import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, API, setupApp, type Method, type TestApp } from '../api/helpers.ts';
import { multipartBody, PNG } from '../api/multipart.ts';
import { collectRoutes, fillPath, type Route } from './routes.ts';
import { buildWorld, type World } from './world.ts';

/**
 * No API answer may be kept by a browser's or a proxy's cache: a signed-in user's data, the
 * sign-in token itself, a private file or a link page's data would stay on a shared office
 * computer (or in a proxy) after sign-out. Every answer under /api carries `Cache-Control:
 * no-store`, whatever its route, status and type; checked across the whole route table.
 */
let t: TestApp;
let w: World;
let routes: Route[];
/** Every answer the app gave while the fixtures were built through the API (creates, uploads, updates). */
const building: { what: string; res: LightMyRequestResponse }[] = [];

beforeAll(async () => {
  t = await setupApp();
  const call = t.call;
  t.call = async (method, url, opts) => {
    const res = await call(method, url, opts);
    building.push({ what: `${method} ${url}`, res });
    return res;
  };
  w = await buildWorld(t);
  t.call = call;
  ({ routes } = await collectRoutes(t));
});
afterAll(() => t?.close());

function noStore(res: { headers: Record<string, unknown> }, what: string, wrong: string[]) {
  const value = String(res.headers['cache-control'] ?? '');
  if (
    !value
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .includes('no-store')
  )
    wrong.push(`${what} → Cache-Control: ${value || '(none)'}`);
}

describe('Cache-Control: no-store on every API answer', () => {
  it('every route, without a token (401 and the public routes alike)', async () => {
    const wrong: string[] = [];
    for (const r of routes) noStore(await t.call(r.method, r.path.replace(/\{\w+\}/g, '1')), r.key, wrong);
    expect(wrong).toEqual([]);
    expect(routes.length).toBeGreaterThan(150);
  });

  it('every read as the admin, on real records: lists, records, files, exports, PDFs', async () => {
    const wrong: string[] = [];
    const ok: string[] = [];
    for (const r of routes.filter((x) => x.method === 'GET' && !x.path.endsWith('/live'))) {
      const url = fillPath(r.path, w.B) ?? r.path.replace(/\{\w+\}/g, '1');
      const res = await t.call('GET', url, { token: w.admin });
      noStore(res, `${r.key} (${res.statusCode})`, wrong);
      if (res.statusCode === 200) ok.push(`${r.key} ${String(res.headers['content-type'])}`);
    }
    expect(wrong).toEqual([]);
    // The check saw real answers, of every kind.
    expect(ok.length).toBeGreaterThan(60);
    for (const url of [`${API}/members/export?format=xlsx`, `${API}/staff/export?format=xlsx`]) {
      const res = await t.call('GET', url, { token: w.admin });
      noStore(res, `${url} (${res.statusCode})`, wrong);
      if (res.statusCode === 200) ok.push(`GET ${url} ${String(res.headers['content-type'])}`);
    }
    expect(wrong).toEqual([]);
    for (const type of ['application/json', 'text/csv', 'application/pdf', 'image/png', 'spreadsheetml']) {
      expect(
        ok.some((k) => k.includes(type)),
        `a 200 answer of type ${type}`,
      ).toBe(true);
    }
  });

  it('every answer while the fixtures were created, changed and uploaded', () => {
    const wrong: string[] = [];
    for (const { what, res } of building) noStore(res, `${what} (${res.statusCode})`, wrong);
    expect(wrong).toEqual([]);
    expect(building.filter((b) => b.what.startsWith('POST') && b.res.statusCode === 200).length).toBeGreaterThan(40);
  });

  it.each<[string, Method, string, object]>([
    ['sign-in', 'POST', `${API}/login`, { body: { email: ADMIN.email, password: ADMIN.password } }],
    ['failed sign-in', 'POST', `${API}/login`, { body: { email: ADMIN.email, password: 'wrong-password' } }],
    ['password recovery', 'POST', `${API}/forgot_password`, { body: { email: ADMIN.email } }],
    ['malformed JSON', 'POST', `${API}/login`, { raw: '{"email":' }],
    ['body too large', 'POST', `${API}/login`, { raw: JSON.stringify({ email: 'a@b.ua', password: 'x'.repeat(1024 * 1024) }) }],
    ['unknown API path', 'GET', `${API}/no-such-thing`, {}],
    ['the bare /api', 'GET', '/api', {}],
    ['voting link page data', 'GET', '/api/public/voting/not-a-real-token', {}],
    ['staff chat link', 'GET', '/api/staff/chat/not-a-real-token', {}],
  ])('%s', async (what, method, url, opts) => {
    const wrong: string[] = [];
    noStore(await t.call(method, url, opts), what, wrong);
    expect(wrong).toEqual([]);
  });

  it('the API documentation and its files, which are served with caching of their own', async () => {
    const wrong: string[] = [];
    for (const url of [`${API}/docs`, `${API}/docs/static/index.css`, `${API}/docs/static/swagger-ui-bundle.js`, `${API}/openapi.json`]) {
      const res = await t.call('GET', url);
      expect(res.statusCode, url).toBeLessThan(400);
      noStore(res, url, wrong);
    }
    expect(wrong).toEqual([]);
  });

  it('an API answer reached by a path the router decodes (/%61pi/…)', async () => {
    const res = await t.call('GET', '/%61pi/admin/user', { token: w.admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toBeTruthy();
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('the token of a sign-in answer and the current user are not cacheable', async () => {
    const login = await t.call('POST', `${API}/login`, { body: { email: ADMIN.email, password: ADMIN.password } });
    expect(login.statusCode).toBe(200);
    expect(login.json().access_token).toBeTruthy();
    expect(login.headers['cache-control']).toBe('no-store');
    const user = await t.call('GET', `${API}/user`, { token: login.json().access_token });
    expect(user.statusCode).toBe(200);
    expect(user.headers['cache-control']).toBe('no-store');
  });

  it('an uploaded picture served back is not kept either', async () => {
    const up = await t.call('POST', `${API}/media`, { token: w.admin, ...(await multipartBody({ file: { file: PNG, name: 'фото.png', type: 'image/png' } })) });
    expect(up.statusCode, up.body).toBe(200);
    const res = await t.call('GET', up.json().data.url, { token: w.admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('the live stream (written past the hooks) says no-store too', async () => {
    const ticket = await t.call('POST', `${API}/live/ticket`, { token: w.admin });
    expect(ticket.statusCode).toBe(200);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const { status, headers } = await new Promise<{ status?: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: `${API}/live?ticket=${encodeURIComponent(ticket.json().ticket)}` }, (res) => {
        resolve({ status: res.statusCode, headers: res.headers });
        req.destroy();
      });
      req.on('error', reject);
    });
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/event-stream/);
    expect(
      String(headers['cache-control'])
        .split(',')
        .map((d) => d.trim()),
    ).toContain('no-store');
    // Written past the app's hooks, the stream still carries every answer's security headers.
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });
});
