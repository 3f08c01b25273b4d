import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../../contract/permissions.ts';
import { authTokens } from '../../server/db/schema.ts';
import { hashToken } from '../../server/lib/secrets.ts';
import {
  ADMIN,
  API,
  createComplex,
  createOrganization,
  createUser,
  expectErrorBody,
  expectFieldError,
  nextIp,
  STAFF,
  UKRAINIAN,
  uid,
  type TestApp,
  setupApp,
} from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await setupApp();
});
afterAll(() => t?.close());

const WRONG = 'Невірний e-mail або пароль.';

const newUser = (overrides: Partial<Parameters<typeof createUser>[1]> = {}) => createUser(t.db, { organizationId: t.organizationId, ...overrides });
const login = (email: unknown, password: unknown, ip?: string) => t.call('POST', `${API}/login`, { body: { email, password }, ip });
const me = (token: string) => t.call('GET', `${API}/user`, { token });

describe('POST /login', () => {
  it('answers a bearer token for the right password', async () => {
    const res = await login(ADMIN.email, ADMIN.password);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(body.token_type).toBe('bearer');
    expect(body.expires_in).toBe(12 * 3600);
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect((await me(body.access_token)).statusCode).toBe(200);
  });

  it('issues a different token on every sign-in', async () => {
    const a = await t.login(ADMIN.email, ADMIN.password);
    const b = await t.login(ADMIN.email, ADMIN.password);
    expect(a).not.toBe(b);
  });

  it('does not store the token in clear', async () => {
    const token = await t.login(ADMIN.email, ADMIN.password);
    const rows = await t.db.select().from(authTokens).where(eq(authTokens.tokenHash, token));
    expect(rows).toHaveLength(0);
    const hashed = await t.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.tokenHash, hashToken(token)));
    expect(hashed).toHaveLength(1);
  });

  it('ignores the case of the e-mail and surrounding spaces', async () => {
    const res = await login(`  ${ADMIN.email.toUpperCase()} `, ADMIN.password);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses a wrong password with 422 and errors.email', async () => {
    const res = await login(ADMIN.email, 'not-the-password');
    const body = expectFieldError(res, 'email');
    expect(body).toEqual({ message: WRONG, errors: { email: [WRONG] } });
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const user = await newUser();
    const wrongPassword = await login(user.email, 'wrong-password');
    const unknown = await login(`nobody-${uid()}@test.ua`, 'wrong-password');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(wrongPassword.statusCode);
    expect(unknown.json()).toEqual(wrongPassword.json());
  });

  it('is case-sensitive about the password', async () => {
    const user = await newUser({ password: 'Secret-Pass-1' });
    expect((await login(user.email, 'secret-pass-1')).statusCode).toBe(422);
    expect((await login(user.email, 'Secret-Pass-1')).statusCode).toBe(200);
  });

  it('validates the fields with Ukrainian messages', async () => {
    const empty = await t.call('POST', `${API}/login`, { body: {} });
    const body = expectFieldError(empty, 'email');
    expect(body.errors!.password[0]).toMatch(UKRAINIAN);
    expectFieldError(await login('not-an-email', 'whatever'), 'email');
    expectFieldError(await login(ADMIN.email, ''), 'password');
    expectFieldError(await login(ADMIN.email, 'x'.repeat(201)), 'password');
    expectFieldError(await login(12345, ['a']), 'email');
  });
});

describe('sign-in throttling', () => {
  it('refuses the 6th attempt for one e-mail from clients it does not know with 429, Retry-After and a Ukrainian message', async () => {
    const user = await newUser();
    for (let i = 0; i < 5; i++) {
      // Different addresses each time: this is the per-account limit for unknown clients.
      const res = await login(user.email, `wrong-${i}`, nextIp());
      expect(res.statusCode, `attempt ${i + 1}: ${res.body}`).toBe(422);
    }
    // Even the right password is refused to a client the account does not know, for now.
    const res = await login(user.email, user.password, nextIp());
    const body = expectErrorBody(res, 429);
    expect(body.message).toMatch(UKRAINIAN);
    expect(body.message).toMatch(/Забагато/);
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    // The first wait is a minute; it doubles with every further failure.
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(body.message).toContain(`${Math.ceil(retryAfter / 60)} хв`);
  });

  it('counts the e-mail regardless of its case', async () => {
    const user = await newUser();
    for (let i = 0; i < 5; i++) {
      const email = i % 2 ? user.email.toUpperCase() : user.email;
      expect((await login(email, 'wrong-password', nextIp())).statusCode).toBe(422);
    }
    expect((await login(user.email.toUpperCase(), user.password, nextIp())).statusCode).toBe(429);
  });

  it('locks only the e-mail that was attacked', async () => {
    const victim = await newUser();
    const other = await newUser();
    const ip = nextIp();
    for (let i = 0; i < 5; i++) await login(victim.email, 'wrong-password', ip);
    expect((await login(victim.email, victim.password, ip)).statusCode).toBe(429);
    expect((await login(other.email, other.password, ip)).statusCode).toBe(200);
  });

  it("forgives a client's failures once it signs in with the right password", async () => {
    const user = await newUser();
    const ip = nextIp();
    for (let i = 0; i < 4; i++) expect((await login(user.email, 'wrong-password', ip)).statusCode).toBe(422);
    expect((await login(user.email, user.password, ip)).statusCode).toBe(200);
    // Without the reset, the second of these would already be the 6th failure.
    for (let i = 0; i < 5; i++) {
      const res = await login(user.email, 'wrong-password', ip);
      expect(res.statusCode, `failure ${i + 1} after the reset: ${res.body}`).toBe(422);
    }
    expect((await login(user.email, user.password, ip)).statusCode).toBe(429);
  });

  it('refuses an address after 20 failures with different e-mails', async () => {
    const ip = nextIp();
    const user = await newUser();
    for (let i = 0; i < 20; i++) {
      const res = await login(`unknown-${uid()}@test.ua`, 'wrong-password', ip);
      expect(res.statusCode, `attempt ${i + 1}: ${res.body}`).toBe(422);
    }
    const locked = await login(user.email, user.password, ip);
    expectErrorBody(locked, 429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The same account from elsewhere is fine: the e-mail itself was never attacked.
    expect((await login(user.email, user.password, nextIp())).statusCode).toBe(200);
  });

  // BUG (server/app.ts `trustProxy: true`): every client-supplied X-Forwarded-For is believed, so the
  // per-IP limit is bypassed by sending a new X-Forwarded-For value on each attempt.
  // Remove `.fails` once trustProxy is limited to the real reverse proxy.
  it('does not let X-Forwarded-For reset the per-address limit', async () => {
    const ip = nextIp();
    for (let i = 0; i < 20; i++) await login(`unknown-${uid()}@test.ua`, 'wrong-password', ip);
    const user = await newUser();
    const res = await t.call('POST', `${API}/login`, {
      body: { email: user.email, password: user.password },
      ip,
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(res.statusCode).toBe(429);
  });
});

describe('tokens', () => {
  it('logout revokes the token it was called with, and only that one', async () => {
    const user = await newUser();
    const a = await t.login(user.email, user.password);
    const b = await t.login(user.email, user.password);
    const res = await t.call('POST', `${API}/logout`, { token: a });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Ви вийшли із системи.' });

    const after = await me(a);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: 'Unauthenticated.' });
    expect((await t.call('POST', `${API}/logout`, { token: a })).statusCode).toBe(401);
    expect((await me(b)).statusCode).toBe(200);
  });

  it('refuses an expired token with 401', async () => {
    const user = await newUser();
    const token = await t.login(user.email, user.password);
    expect((await me(token)).statusCode).toBe(200);
    await t.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authTokens.tokenHash, hashToken(token)));
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('sets the expiry from TOKEN_TTL_HOURS', async () => {
    const before = Date.now();
    const token = await t.login(ADMIN.email, ADMIN.password);
    const [row] = await t.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.tokenHash, hashToken(token)));
    const ttl = row.expiresAt.getTime() - before;
    expect(ttl).toBeGreaterThan(12 * 3600_000 - 60_000);
    expect(ttl).toBeLessThan(12 * 3600_000 + 60_000);
  });

  it.each([
    ['no header', undefined],
    ['an unknown token', 'Bearer aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ['an empty bearer', 'Bearer '],
    ['another scheme', 'Basic YWRtaW46cGFzcw=='],
    ['a huge token', `Bearer ${'a'.repeat(10_000)}`],
    ['two tokens', 'Bearer abc def'],
  ])('answers 401 for %s', async (_label, authorization) => {
    const res = await t.call('GET', `${API}/user`, { headers: authorization === undefined ? {} : { authorization } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('accepts the scheme name in any case', async () => {
    const token = await t.login(ADMIN.email, ADMIN.password);
    const res = await t.call('GET', `${API}/user`, { headers: { authorization: `bearer ${token}` } });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /user', () => {
  it('describes the admin: full rules with complexes first, every complex of the organization', async () => {
    const token = await t.login(ADMIN.email, ADMIN.password);
    const res = await me(token);
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    for (const key of ['id', 'name', 'email', 'phone', 'reset_token', 'tutorial_completed', 'rules', 'complexes', 'two_factor']) {
      expect(data, `data.${key}`).toHaveProperty(key);
    }
    expect(data).toMatchObject({
      name: 'Адміністратор',
      email: ADMIN.email,
      phone: null,
      reset_token: null,
      // The demo's first steps are all done: its admin has finished «З чого почати?» (server/seed.ts).
      tutorial_completed: true,
      two_factor: null,
    });
    expect(typeof data.id).toBe('number');
    expect(Object.keys(data.rules)[0]).toBe('complexes');
    expect(Object.keys(data.rules)).toEqual([...AREAS]);
    expect(data.rules.complexes).toEqual(['view', 'create', 'edit', 'delete']);
    const names = data.complexes.map((c: { name: string }) => c.name);
    for (const seeded of ['ЖК «Липовий гай»', 'ЖК «Сонячна гавань»', 'ЖК «Приморський»', 'ЖК «Слобожанський»', 'ЖК «Дніпровські вогні»']) {
      expect(names).toContain(seeded);
    }
    for (const c of data.complexes) expect(Object.keys(c).sort()).toEqual(['id', 'name']);
    expect(res.body).not.toMatch(/password|hash/i);
  });

  it('shows the demo dispatcher only the two complexes assigned to them', async () => {
    const token = await t.login(STAFF.email, STAFF.password);
    const { data } = (await me(token)).json();
    expect(data).toMatchObject({ email: STAFF.email, phone: '+380671234567', tutorial_completed: true, reset_token: null });
    expect(data.complexes.map((c: { name: string }) => c.name)).toEqual(['ЖК «Липовий гай»', 'ЖК «Сонячна гавань»']);
    expect(Object.keys(data.rules)[0]).toBe('complexes');
    expect(data.rules.complexes).toEqual(['view']);
    expect(data.rules).not.toHaveProperty('staff');
  });

  it("normalises a role's rules: canonical area and action order, unknown entries dropped", async () => {
    const user = await newUser({
      permissions: { members: ['view'], houses: ['edit', 'view'], bogus: ['view'], articles: ['fly', 'view'] } as never,
    });
    const { data } = (await me(await t.login(user.email, user.password))).json();
    expect(data.rules).toEqual({ houses: ['view', 'edit'], articles: ['view'], members: ['view'] });
    expect(Object.keys(data.rules)[0]).toBe('houses');
  });

  it('gives a staff user without a role no rules and no complexes', async () => {
    const user = await newUser();
    const { data } = (await me(await t.login(user.email, user.password))).json();
    expect(data.rules).toEqual({});
    expect(data.complexes).toEqual([]);
  });

  it('lists a staff user exactly the complexes linked to them', async () => {
    const mine = await createComplex(t.db, { organizationId: t.organizationId });
    await createComplex(t.db, { organizationId: t.organizationId });
    const user = await newUser({ permissions: { complexes: ['view'] }, complexIds: [mine.id] });
    const { data } = (await me(await t.login(user.email, user.password))).json();
    expect(data.complexes).toEqual([{ id: mine.id, name: mine.name }]);
  });

  it("never shows an admin another organization's complexes", async () => {
    const org = await createOrganization(t.db);
    const own = await createComplex(t.db, { organizationId: org.id });
    const admin = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const { data } = (await me(await t.login(admin.email, admin.password))).json();
    expect(data.complexes).toEqual([{ id: own.id, name: own.name }]);
  });
});
