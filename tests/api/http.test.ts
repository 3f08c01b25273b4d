import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQueryString } from '../../server/lib/pagination.ts';
import { ADMIN, API, expectErrorBody, expectFieldError, UKRAINIAN, uid, type Method, type TestApp, setupApp } from './helpers.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

const PUBLIC = new Set([`${API}/login`, `${API}/login/code`, `${API}/login/code/resend`, `${API}/forgot_password`, `${API}/reset_password`]);
// The staff chat by link: its token is the credential (tested in serviceRequests.test.ts).
for (const path of ['/api/staff/chat/{token}', '/api/staff/chat/{token}/media/{key}']) PUBLIC.add(path);

const PROTECTED: [Method, string][] = [
  ['GET', `${API}/user`],
  ['POST', `${API}/logout`],
  ['GET', `${API}/complexes`],
  ['POST', `${API}/complexes`],
  ['GET', `${API}/complexes/1`],
  ['PUT', `${API}/complexes/1`],
  ['DELETE', `${API}/complexes/1`],
  ['GET', `${API}/outbox`],
];

async function openapi() {
  const res = await t.call('GET', `${API}/openapi.json`);
  expect(res.statusCode).toBe(200);
  return res.json() as { openapi: string; paths: Record<string, Record<string, unknown>>; components: { securitySchemes: Record<string, unknown> } };
}

describe('authentication is required', () => {
  it.each(PROTECTED)('%s %s answers 401 without a token', async (method, url) => {
    const res = await t.call(method, url, { body: method === 'POST' || method === 'PUT' ? { name: 'ЖК', city: 'Київ' } : undefined });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it.each(PROTECTED)('%s %s answers 401 with a made-up token', async (method, url) => {
    const res = await t.call(method, url, { token: `fake-${uid()}` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('checks the token before the input, so nothing about the API leaks', async () => {
    for (const [method, url] of [
      ['PUT', `${API}/complexes/abc`],
      ['GET', `${API}/complexes?per_page=-5`],
      ['POST', `${API}/complexes`],
    ] as const) {
      const res = await t.call(method, url, { raw: '{not json' });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('protects every documented route except sign-in and password recovery', async () => {
    const doc = await openapi();
    let checked = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      const url = path.replace(/\{[^}]+\}/g, '1');
      for (const method of Object.keys(operations)) {
        const res = await t.call(method.toUpperCase() as Method, url);
        // The co-owners' voting page is public by design: its link token and a one-time code grant it.
        if (PUBLIC.has(path) || path.startsWith('/api/public/voting/')) {
          expect(res.statusCode, `${method} ${path}`).not.toBe(401);
        } else {
          expect(res.statusCode, `${method} ${path}`).toBe(401);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(PROTECTED.length);
  });

  it('answers HEAD on a protected route with 401 too', async () => {
    expect((await t.call('HEAD', `${API}/user`)).statusCode).toBe(401);
    expect((await t.call('HEAD', `${API}/user`, { token: admin })).statusCode).toBe(200);
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', `${API}/nope`],
    ['GET', `${API}/complexes/1/houses`],
    ['POST', `${API}/users`],
    ['PATCH', `${API}/complexes/1`],
    ['DELETE', `${API}/complexes`],
    ['GET', '/api'],
    ['GET', '/api/other'],
  ] as [Method, string][])('%s %s answers a JSON 404', async (method, url) => {
    for (const token of [undefined, admin]) {
      const res = await t.call(method, url, { token });
      const body = expectErrorBody(res, 404);
      expect(body).toEqual({ message: 'Такого методу API не існує.' });
    }
  });

  it('answers a JSON 404 outside the API when no SPA is served', async () => {
    const body = expectErrorBody(await t.call('GET', '/some/page'), 404);
    expect(body.message).toMatch(UKRAINIAN);
  });
});

describe('request bodies', () => {
  it.each([
    ['a malformed object', '{"name": "ЖК",'],
    ['single quotes', "{'name': 'ЖК'}"],
    ['an empty body', ''],
    ['a trailing comma', '{"name":"ЖК","city":"Київ",}'],
  ])('refuses %s with 400 and a Ukrainian message', async (_label, raw) => {
    for (const url of [`${API}/complexes`, `${API}/login`]) {
      const res = await t.call('POST', url, { token: admin, raw });
      const body = expectErrorBody(res, 400);
      expect(body).toEqual({ message: 'Тіло запиту не є коректним JSON.' });
    }
  });

  it('refuses prototype pollution attempts with 400', async () => {
    for (const raw of ['{"__proto__":{"isAdmin":true},"name":"Proto","city":"Київ"}', '{"constructor":{"prototype":{"x":1}},"name":"Ctor","city":"Київ"}']) {
      const res = await t.call('POST', `${API}/complexes`, { token: admin, raw });
      expectErrorBody(res, 400);
    }
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const raw = JSON.stringify({ name: 'ЖК', city: 'Київ', description: 'x'.repeat(1024 * 1024) });
    const res = await t.call('POST', `${API}/complexes`, { token: admin, raw });
    const body = expectErrorBody(res, 413);
    expect(body).toEqual({ message: 'Запит завеликий.' });
    const login = await t.call('POST', `${API}/login`, { raw: JSON.stringify({ email: ADMIN.email, password: 'p'.repeat(1024 * 1024 + 1) }) });
    expectErrorBody(login, 413);
  });

  it('accepts a body just under 1 MiB and validates it', async () => {
    const raw = JSON.stringify({ name: 'ЖК', city: 'Київ', description: 'x'.repeat(1000 * 1000) });
    expectFieldError(await t.call('POST', `${API}/complexes`, { token: admin, raw }), 'description');
  });

  it.each(['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'])(
    'refuses content type %s with 415',
    async (contentType) => {
      const res = await t.call('POST', `${API}/complexes`, { token: admin, raw: 'name=x', contentType });
      const body = expectErrorBody(res, 415);
      expect(body.message).toMatch(UKRAINIAN);
    },
  );

  it.each([
    ['an array', '[{"name":"ЖК","city":"Київ"}]'],
    ['a number', '42'],
    ['a string', '"ЖК"'],
    ['null', 'null'],
    ['true', 'true'],
  ])('refuses %s instead of an object with 422, never 500', async (_label, raw) => {
    for (const url of [`${API}/complexes`, `${API}/login`, `${API}/forgot_password`, `${API}/reset_password`]) {
      const res = await t.call('POST', url, { token: admin, raw });
      const body = expectErrorBody(res, 422);
      expect(body.errors, url).toBeDefined();
    }
  });

  it('refuses text/plain with 422, never 500', async () => {
    const res = await t.call('POST', `${API}/complexes`, { token: admin, raw: 'name=ЖК', contentType: 'text/plain' });
    expectErrorBody(res, 422);
  });

  // BUG: zod's default English messages leak out for a wrong top-level shape ("Invalid input:
  // expected object, received array") under the key "_"; every other message is Ukrainian.
  // Remove `.fails` once object schemas carry a Ukrainian error (or the error handler maps them).
  it('answers a wrong top-level shape in Ukrainian', async () => {
    const res = await t.call('POST', `${API}/complexes`, { token: admin, raw: '[]' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(UKRAINIAN);
  });

  // Same BUG for a wrong type where the schema has no message of its own (z.string() in listQuery).
  it('answers an array query parameter in Ukrainian', async () => {
    const res = await t.call('GET', `${API}/complexes?search_query[]=a`, { token: admin });
    expectFieldError(res, 'search_query');
  });

  it('refuses deeply nested values with 4xx', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const res = await t.call('POST', `${API}/complexes`, { token: admin, raw: `{"name":${deep},"city":"Київ"}` });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it.each([
    ['login', `${API}/login`, { email: 'x'.repeat(300_000) + '@test.ua', password: 'y'.repeat(300_000) }, 'email'],
    ['forgot_password', `${API}/forgot_password`, { email: `${'x'.repeat(300_000)}@test.ua` }, 'email'],
    [
      'reset_password',
      `${API}/reset_password`,
      { token: 't'.repeat(300_000), email: 'a@test.ua', password: 'p'.repeat(300_000), password_confirmation: 'p'.repeat(300_000) },
      'token',
    ],
    ['complexes', `${API}/complexes`, { name: 'N'.repeat(300_000), city: 'C'.repeat(300_000) }, 'name'],
  ])('refuses huge strings on %s with 422', async (_label, url, body, field) => {
    expectFieldError(await t.call('POST', url, { token: admin, body }), field);
  });

  it('refuses a huge search query with 422', async () => {
    expectFieldError(await t.call('GET', `${API}/complexes?search_query=${'x'.repeat(100_000)}`, { token: admin }), 'search_query');
  });

  it('refuses array query parameters with 422', async () => {
    for (const [query, field] of [
      ['search_query[]=a&search_query[]=b', 'search_query'],
      ['page[]=1&page[]=2', 'page'],
      ['sort[]=name', 'sort'],
    ]) {
      const body = expectErrorBody(await t.call('GET', `${API}/complexes?${query}`, { token: admin }), 422);
      expect(body.errors?.[field], query).toHaveLength(1);
    }
  });

  it('ignores a malformed percent escape in the query string', async () => {
    const res = await t.call('GET', `${API}/complexes?search_query=%E0%A4%A&per_page=2`, { token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().main_data.per_page).toBe(2);
  });
});

describe('query strings as the lists read them', () => {
  it('decodes escapes and plus signs, keeps arrays in order, and drops NUL and malformed escapes', () => {
    expect(parseQueryString('search_query=%D0%BB%D1%96%D1%84%D1%82+2&house_ids[]=3&house_ids[]=1&house_ids[0]=2&page=2')).toEqual({
      search_query: 'ліфт 2',
      house_ids: ['3', '1', '2'],
      page: '2',
    });
    expect(parseQueryString('q=%2B380&a=1&a=2&b=%E0%A4%A&c=x%00y&d&r=a+b')).toEqual({ q: '+380', a: '2', c: 'xy', d: '', r: 'a b' });
    expect(parseQueryString('ids=5&ids[]=6&ids[]=7')).toEqual({ ids: ['5', '6', '7'] });
    expect(parseQueryString('house_ids%5B%5D=4&house_ids%5B%5D=9')).toEqual({ house_ids: ['4', '9'] });
  });

  it('leaves every other object as it was for a key named like a prototype', () => {
    parseQueryString('__proto__[]=1&__proto__[]=2&constructor[]=3&polluted=no');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('0');
  });
});

describe('NUL characters', () => {
  it('are refused in sign-in and recovery input', async () => {
    expectFieldError(await t.call('POST', `${API}/login`, { body: { email: `adm\u0000in@test.ua`, password: 'x' } }), 'email');
    expectFieldError(await t.call('POST', `${API}/forgot_password`, { body: { email: `adm\u0000in@test.ua` } }), 'email');
    const pw = 'abc\u0000defghijk';
    expectFieldError(
      await t.call('POST', `${API}/reset_password`, { body: { token: 't'.repeat(43), email: ADMIN.email, password: pw, password_confirmation: pw } }),
      'password',
    );
  });

  it('in a sign-in password are just a wrong password', async () => {
    const res = await t.call('POST', `${API}/login`, { body: { email: ADMIN.email, password: `${ADMIN.password}\u0000` } });
    expectFieldError(res, 'email');
  });

  it('are refused in complex fields', async () => {
    expectFieldError(await t.call('POST', `${API}/complexes`, { token: admin, body: { name: 'ЖК\u0000', city: 'Київ' } }), 'name');
  });

  // NUL is dropped from query strings: it can never match stored text, and PostgreSQL cannot take it.
  it('in search_query are dropped, not a 500', async () => {
    const res = await t.call('GET', `${API}/complexes?search_query=%00`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const all = await t.call('GET', `${API}/complexes`, { token: admin });
    expect(res.json().main_data.total).toBe(all.json().main_data.total);
  });

  it('in the city filter are dropped, not a 500', async () => {
    const res = await t.call('GET', `${API}/complexes?city=ab%00`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().main_data.total).toBe(0);
  });
});

describe('responses', () => {
  it('carry security headers', async () => {
    const res = await t.call('GET', `${API}/user`, { token: admin });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('keep internals out of a 500', async () => {
    // A handler that fails the way a database does: the client sees only the generic message.
    const boom = await setupApp({
      extraRoutes: (app) =>
        app.get(`${API}/__boom`, async () => {
          throw Object.assign(new Error('relation "secret_table" does not exist'), { code: '42P01' });
        }),
    });
    try {
      const res = await boom.call('GET', `${API}/__boom`);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Внутрішня помилка сервера. Спробуйте пізніше.' });
      expect(res.body).not.toContain('secret_table');
    } finally {
      await boom.close();
    }
  });
});

describe('OpenAPI', () => {
  it('publishes the document without a token, listing the complexes routes', async () => {
    const doc = await openapi();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([`${API}/complexes`, `${API}/complexes/{id}`, `${API}/login`, `${API}/user`]));
    expect(Object.keys(doc.paths[`${API}/complexes`]).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths[`${API}/complexes/{id}`]).sort()).toEqual(['delete', 'get', 'put']);
    expect(doc.components.securitySchemes).toHaveProperty('bearer');
    expect(doc.paths).not.toHaveProperty(`${API}/openapi.json`);
  });

  it('serves the documentation page', async () => {
    const res = await t.call('GET', `${API}/docs`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});
