import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import type { Database } from '../../server/db/index.ts';
import { ADMIN, API, setupApp, type Method, type TestApp } from '../api/helpers.ts';
import { multipartBody, PNG } from '../api/multipart.ts';
import { collectRoutes, type Route } from './routes.ts';

/** Security headers on every kind of answer, API and SPA alike; cookies, if any, locked down. */
let t: TestApp;
let admin: string;
let routes: Route[];
let spa: Awaited<ReturnType<typeof buildApp>>;
let spaDir: string;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  ({ routes } = await collectRoutes(t));
  // The same application serving a (stand-in) SPA build, as the production start does.
  spaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-security-spa-'));
  fs.mkdirSync(path.join(spaDir, 'assets'));
  fs.writeFileSync(
    path.join(spaDir, 'index.html'),
    '<!doctype html><html><head><meta name="support-email" content="" /><script type="module" src="/assets/index.js"></script></head>' +
      '<body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(spaDir, 'assets', 'index.js'), 'console.log(1);');
  const database: Database = { db: t.db, driver: t.driver, close: async () => {} };
  spa = await buildApp({ config: t.config, database, spaDir });
  await spa.ready();
});
afterAll(async () => {
  await spa?.close();
  await t?.close();
  if (spaDir) fs.rmSync(spaDir, { recursive: true, force: true });
});

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name.toLowerCase(), values]),
  );
}

/** What every answer must carry, whatever its status and type. */
function expectSecure(res: LightMyRequestResponse, what: string) {
  const csp = String(res.headers['content-security-policy'] ?? '');
  expect(csp, `${what}: CSP`).not.toBe('');
  const d = directives(csp);
  expect(d.get('frame-ancestors'), `${what}: frame-ancestors`).toEqual(["'none'"]);
  expect(d.get('object-src'), `${what}: object-src`).toEqual(["'none'"]);
  expect(d.get('script-src') ?? d.get('default-src'), `${what}: script-src`).not.toContain("'unsafe-eval'");
  expect(res.headers['x-content-type-options'], `${what}: nosniff`).toBe('nosniff');
  expect(String(res.headers['referrer-policy'] ?? ''), `${what}: Referrer-Policy`).toMatch(
    /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/,
  );
  expect(res.headers['x-powered-by'], `${what}: X-Powered-By`).toBeUndefined();
  expectCookiesLocked(res, what);
}

function expectCookiesLocked(res: LightMyRequestResponse, what: string) {
  const raw = res.headers['set-cookie'];
  for (const cookie of raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
    expect(cookie, `${what}: cookie`).toMatch(/;\s*Secure/i);
    expect(cookie, `${what}: cookie`).toMatch(/;\s*HttpOnly/i);
    expect(cookie, `${what}: cookie`).toMatch(/;\s*SameSite=(Strict|Lax)/i);
  }
}

describe('API answers', () => {
  it('every route answers with the headers, with and without a token', async () => {
    let checked = 0;
    for (const r of routes) {
      const url = r.path.replace(/\{\w+\}/g, '1');
      expectSecure(await t.call(r.method, url), `${r.key} without a token`);
      if (r.method === 'GET' && !r.path.endsWith('/live')) expectSecure(await t.call(r.method, url, { token: admin }), `${r.key} as admin`);
      checked++;
    }
    expect(checked).toBeGreaterThan(150);
  });

  it.each<[string, Method, string, object]>([
    ['sign-in', 'POST', `${API}/login`, { body: { email: ADMIN.email, password: ADMIN.password } }],
    ['failed sign-in', 'POST', `${API}/login`, { body: { email: ADMIN.email, password: 'wrong-password' } }],
    ['malformed JSON', 'POST', `${API}/login`, { raw: '{"email":' }],
    ['body too large', 'POST', `${API}/login`, { raw: JSON.stringify({ email: 'a@b.ua', password: 'x'.repeat(1024 * 1024) }) }],
    ['unknown API path', 'GET', `${API}/no-such-thing`, {}],
    ['OpenAPI document', 'GET', `${API}/openapi.json`, {}],
    ['documentation page', 'GET', `${API}/docs`, {}],
    ['documentation page itself', 'GET', `${API}/docs/static/index.html`, {}],
    ['documentation script', 'GET', `${API}/docs/static/swagger-initializer.js`, {}],
    ['documentation JSON', 'GET', `${API}/docs/json`, {}],
    ['voting link', 'GET', '/api/public/voting/not-a-token', {}],
    ['staff chat link', 'GET', '/api/staff/chat/not-a-token', {}],
  ])('%s', async (what, method, url, opts) => {
    expectSecure(await t.call(method, url, opts), what);
  });

  it('files served back carry the headers and are never rendered in place as HTML', async () => {
    const up = await t.call('POST', `${API}/media`, { token: admin, ...(await multipartBody({ file: { file: PNG, name: 'фото.png', type: 'image/png' } })) });
    expect(up.statusCode, up.body).toBe(200);
    const res = await t.call('GET', up.json().data.url, { token: admin });
    expect(res.statusCode).toBe(200);
    expectSecure(res, 'a stored picture');
    expect(res.headers['content-type']).toBe('image/png');
  });

  it('exports carry the headers', async () => {
    for (const url of [`${API}/members/export`, `${API}/staff/export`]) {
      const res = await t.call('GET', url, { token: admin });
      expect(res.statusCode, url).toBe(200);
      expectSecure(res, url);
    }
  });

  it('no API answer sets a cookie but the sign-in device cookie, which is locked down and no credential', async () => {
    const login = await t.call('POST', `${API}/login`, { body: { email: ADMIN.email, password: ADMIN.password } });
    const token = login.json().access_token;
    // The device cookie only tells sign-in throttling that this browser signed in before.
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/^zhk_device=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toMatch(/;\s*Path=\/api\/admin\/login(;|$)/);
    expect(cookie).toMatch(/;\s*SameSite=Strict/i);
    expect(cookie).not.toContain(token);
    const device = /^zhk_device=([^;]+)/.exec(cookie)![1];
    expect((await t.call('GET', `${API}/user`, { token: device })).statusCode).toBe(401);
    expect((await t.call('GET', `${API}/user`, { headers: { cookie: `zhk_device=${device}` } })).statusCode).toBe(401);
    for (const res of [await t.call('GET', `${API}/user`, { token }), await t.call('POST', `${API}/logout`, { token })]) {
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });
});

describe('the SPA', () => {
  it.each(['/', '/Login', '/Requests/12', '/ResetPassword?token=x&email=a%40b.ua', '/assets/index.js', '/no/such/page'])(
    '%s carries the headers',
    async (url) => {
      const res = await spa.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expectSecure(res, url);
    },
  );

  it('the page allows only its own scripts', async () => {
    const res = await spa.inject({ method: 'GET', url: '/' });
    const d = directives(String(res.headers['content-security-policy']));
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('base-uri')).toEqual(["'self'"]);
    expect(d.get('form-action')).toEqual(["'self'"]);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  it('the API behind the SPA answers with the same headers', async () => {
    expectSecure(await spa.inject({ method: 'GET', url: `${API}/user` }), 'API through the SPA app');
  });
});
