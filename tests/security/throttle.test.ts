import { desc, eq, like, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAttempts, outbox } from '../../server/db/schema.ts';
import { clientNetwork, createThrottle, MINUTE_MS, tooManyAttempts } from '../../server/lib/throttle.ts';
import { API, createUser, nextIp, setupApp, uid, UKRAINIAN, type TestApp } from '../api/helpers.ts';
import { changedTables, fingerprint } from './db.ts';
import { collectRoutes, type OpenApiSchema, type Route } from './routes.ts';

/**
 * Password guessing is slowed down without letting anyone lock an account out (docs/security.md,
 * sections 6 and 11): sign-in limits per account and client, per account and per network for
 * clients the account does not know, with waits that double; a known browser (device cookie)
 * or network still signs in; every current-password check of the settings is throttled per user.
 */
let t: TestApp;
let routes: Route[];
beforeAll(async () => {
  t = await setupApp();
  ({ routes } = await collectRoutes(t));
});
afterAll(() => t?.close());

interface Client {
  ip?: string;
  /** the device cookie this browser holds */
  device?: string;
}

const signIn = (email: string, password: string, client: Client = {}) =>
  t.call('POST', `${API}/login`, { body: { email, password }, ip: client.ip, headers: client.device ? { cookie: `zhk_device=${client.device}` } : undefined });
const post = (path: string, body: unknown, opts: { token?: string; ip?: string; device?: string } = {}) =>
  t.call('POST', `${API}${path}`, { body, token: opts.token, ip: opts.ip, headers: opts.device ? { cookie: `zhk_device=${opts.device}` } : undefined });

/** The device cookie an answer sets, if any. */
const deviceOf = (res: LightMyRequestResponse) => /(?:^|,\s*)zhk_device=([^;]+)/.exec(String(res.headers['set-cookie'] ?? ''))?.[1];

const newAccount = async (overrides: { phone?: string } = {}) => createUser(t.db, { organizationId: t.organizationId, ...overrides });

/** Signs in from a client and returns the device cookie it was given (the client is known from now on). */
async function signInFrom(user: { email: string; password: string }, client: Client): Promise<string> {
  const res = await signIn(user.email, user.password, client);
  expect(res.statusCode, res.body).toBe(200);
  const device = deviceOf(res);
  expect(device).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return device!;
}

/** A 429 with a whole number of seconds to wait in Retry-After, at most 15 minutes, and a Ukrainian message. */
function expectWait(res: LightMyRequestResponse, what = ''): number {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(429);
  const wait = Number(res.headers['retry-after']);
  expect(Number.isInteger(wait) && wait > 0 && wait <= 15 * 60, `Retry-After ${res.headers['retry-after']}`).toBe(true);
  const { message } = res.json();
  expect(message).toMatch(UKRAINIAN);
  expect(message).toContain(`${Math.ceil(wait / 60)} хв`);
  expect(res.body).not.toContain('access_token');
  return wait;
}

/** Moves the failures under keys that contain `part` back in time, as if `ms` had passed. */
async function age(part: string, ms: number) {
  await t.db
    .update(authAttempts)
    .set({ at: sql`${authAttempts.at} - ${Math.round(ms)}::int * interval '1 millisecond'` })
    .where(like(authAttempts.key, `%${part}%`));
}

async function lastMessage(recipient: string) {
  const [m] = await t.db.select().from(outbox).where(eq(outbox.recipient, recipient)).orderBy(desc(outbox.id)).limit(1);
  expect(m?.body, `a readable message to ${recipient} (the development outbox)`).toBeTruthy();
  return m.body!;
}
const outboxCount = async () => (await t.db.select({ id: outbox.id }).from(outbox)).length;

const statuses = (answers: LightMyRequestResponse[]) => answers.map((r) => r.statusCode);
const countOf = (list: number[], status: number) => list.filter((s) => s === status).length;

describe('sign-in: guessing is slowed down, the owner is not locked out', () => {
  const title =
    'an attacker with 50 wrong passwords from other clients: the owner still signs in from a known browser or network; the attacker gets 429 with Retry-After';
  it(title, async () => {
    const owner = await newAccount();
    const home = nextIp();
    const device = await signInFrom(owner, { ip: home });

    const attacker = nextIp();
    const answers: LightMyRequestResponse[] = [];
    // Half from one address, half from addresses that change every time (a botnet).
    for (let i = 0; i < 50; i++) answers.push(await signIn(owner.email, `guess-${i}`, { ip: i % 2 ? attacker : nextIp() }));
    const seen = statuses(answers);
    expect(countOf(seen, 200)).toBe(0);
    expect(countOf(seen, 422) + countOf(seen, 429)).toBe(50);
    // Only the first five were even checked: the rest had to wait.
    expect(countOf(seen, 422)).toBeLessThanOrEqual(5);

    expectWait(await signIn(owner.email, 'one-more-guess', { ip: attacker }), "the attacker's client");
    expectWait(await signIn(owner.email, owner.password, { ip: attacker }), "the attacker's client, even with the right password");

    // The owner: from the home network (no cookie), and with the browser's device cookie from anywhere.
    expect((await signIn(owner.email, owner.password, { ip: home })).statusCode).toBe(200);
    expect((await signIn(owner.email, owner.password, { ip: nextIp(), device })).statusCode).toBe(200);
  });

  it('a client the account does not know waits too, and gets in by a password-reset link, which makes it known', async () => {
    const owner = await newAccount();
    await signInFrom(owner, { ip: nextIp() });
    for (let i = 0; i < 5; i++) expect((await signIn(owner.email, `guess-${i}`)).statusCode).toBe(422);
    const laptop = nextIp();
    expectWait(await signIn(owner.email, owner.password, { ip: laptop }), 'a new client of the owner');

    expect((await post('/forgot_password', { email: owner.email })).statusCode).toBe(200);
    const token = new URL(/https?:\/\/\S+/.exec(await lastMessage(owner.email))![0]).searchParams.get('token')!;
    const password = `новий-пароль-${uid()}`;
    const reset = await post('/reset_password', { token, email: owner.email, password, password_confirmation: password }, { ip: nextIp() });
    expect(reset.statusCode, reset.body).toBe(200);
    const device = deviceOf(reset);
    expect(device).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The browser that used the link signs in at once, wherever it is.
    expect((await signIn(owner.email, password, { ip: laptop, device })).statusCode).toBe(200);
  });

  it('a brute force on one account from rotating clients waits twice as long after every further failure, up to 15 minutes', async () => {
    const victim = await newAccount();
    for (let i = 0; i < 5; i++) expect((await signIn(victim.email, `guess-${i}`)).statusCode).toBe(422);
    let wait = expectWait(await signIn(victim.email, 'guess-5'), 'after five failures');
    expect(wait).toBeLessThanOrEqual(60);
    const waits: number[] = [];
    for (let round = 1; round <= 6; round++) {
      await age(victim.email, (wait + 1) * 1000);
      // The wait is over: one more guess is checked, from yet another address...
      expect((await signIn(victim.email, `guess-after-${round}`)).statusCode).toBe(422);
      // ...and the next one waits twice as long as before.
      wait = expectWait(await signIn(victim.email, `guess-again-${round}`), `round ${round}`);
      waits.push(wait);
    }
    const expected = [120, 240, 480, 900, 900, 900];
    waits.forEach((w, i) => {
      expect(w, `wait ${i + 1} of ${waits.join(', ')}`).toBeLessThanOrEqual(expected[i]);
      expect(w, `wait ${i + 1} of ${waits.join(', ')}`).toBeGreaterThan(expected[i] - 10);
    });
  });

  it('guesses sent in parallel cannot slip past the limit', async () => {
    const victim = await newAccount();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(victim.email, `parallel-${i}`)));
    const seen = statuses(answers);
    expect(countOf(seen, 422), seen.join(' ')).toBeLessThanOrEqual(5);
    expect(countOf(seen, 429), seen.join(' ')).toBeGreaterThanOrEqual(15);
    // From one client too (the limit per account and client).
    const other = await newAccount();
    const ip = nextIp();
    await signInFrom(other, { ip });
    const fromOne = statuses(await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(other.email, `parallel-${i}`, { ip }))));
    expect(countOf(fromOne, 422), fromOne.join(' ')).toBeLessThanOrEqual(5);
  });

  it('the whole office behind one proxy (TRUST_PROXY=false): spraying through it is stopped, colleagues who signed in before keep signing in', async () => {
    const proxy = nextIp();
    const [withCookie, withoutCookie, targeted, newcomer] = [await newAccount(), await newAccount(), await newAccount(), await newAccount()];
    const device = await signInFrom(withCookie, { ip: proxy });
    await signInFrom(withoutCookie, { ip: proxy });
    const targetedDevice = await signInFrom(targeted, { ip: proxy });
    // A new colleague sets the first password through the invitation (reset) link, in the office.
    expect((await post('/forgot_password', { email: newcomer.email })).statusCode).toBe(200);
    const token = new URL(/https?:\/\/\S+/.exec(await lastMessage(newcomer.email))![0]).searchParams.get('token')!;
    const password = `перший-пароль-${uid()}`;
    expect((await post('/reset_password', { token, email: newcomer.email, password, password_confirmation: password }, { ip: proxy })).statusCode).toBe(200);

    // Someone in the office (or anyone, as all arrive from the proxy's address) sprays passwords.
    const spray: number[] = [];
    for (let i = 0; i < 30; i++) spray.push((await signIn(`staff-${uid()}@test.ua`, 'Password1', { ip: proxy })).statusCode);
    for (let i = 0; i < 10; i++) spray.push((await signIn(targeted.email, `guess-${i}`, { ip: proxy })).statusCode);
    expect(spray.slice(0, 20).every((s) => s === 422)).toBe(true);
    expect(spray.slice(20, 30).every((s) => s === 429)).toBe(true);
    expect(countOf(spray.slice(30), 422)).toBeLessThanOrEqual(5);
    expectWait(await signIn(`staff-${uid()}@test.ua`, 'Password2', { ip: proxy }), 'the next sprayed guess');

    // Colleagues sign in through the same proxy: by the office network, by the browser, by the link.
    expect((await signIn(withoutCookie.email, withoutCookie.password, { ip: proxy })).statusCode).toBe(200);
    expect((await signIn(withCookie.email, withCookie.password, { ip: proxy, device })).statusCode).toBe(200);
    expect((await signIn(newcomer.email, password, { ip: proxy })).statusCode).toBe(200);
    // Even the colleague under attack, from the browser they used before.
    expect((await signIn(targeted.email, targeted.password, { ip: proxy, device: targetedDevice })).statusCode).toBe(200);
  });

  it('an IPv6 client cannot escape the network limit by rotating addresses within its /64', async () => {
    const hex = () => ((Math.random() * 0xffff) | 0).toString(16);
    const prefix = `2001:db8:${hex()}:${hex()}`;
    for (let i = 1; i <= 20; i++) expect((await signIn(`v6-${uid()}@test.ua`, 'Password1', { ip: `${prefix}::${i.toString(16)}` })).statusCode).toBe(422);
    expectWait(await signIn(`v6-${uid()}@test.ua`, 'Password1', { ip: `${prefix}:ab:cd:ef:1` }), 'another address of the same /64');
    expect(clientNetwork(`${prefix}::1`)).toBe(clientNetwork(`${prefix}:ffff:ffff:ffff:ffff`));
    expect(clientNetwork('2001:0db8:0000:0001:0000:0000:0000:0001')).toBe('2001:db8:0:1::/64');
    expect(clientNetwork('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientNetwork('192.0.2.7')).toBe('192.0.2.7');
  });

  it('a device cookie the server never issued makes no client known', async () => {
    const victim = await newAccount();
    await signInFrom(victim, { ip: nextIp() });
    for (let i = 0; i < 5; i++) expect((await signIn(victim.email, `guess-${i}`, { device: 'A'.repeat(43) })).statusCode).toBe(422);
    for (const device of ['B'.repeat(43), `${'x'.repeat(42)}!`, 'A'.repeat(43)]) {
      expectWait(await signIn(victim.email, `guess-${device}`, { device }), `made-up cookie ${device}`);
    }
    // And a failed sign-in hands out no cookie.
    expect(deviceOf(await signIn(victim.email, 'wrong', { ip: nextIp() }))).toBeUndefined();
  });

  it('a known and an unknown e-mail answer alike, also when the account has known clients', async () => {
    const owner = await newAccount();
    await signInFrom(owner, { ip: nextIp() });
    const ghost = `ghost-${uid()}@test.ua`;
    const answers = async (email: string) => {
      const out: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await signIn(email, `guess-${i}`);
        out.push(`${res.statusCode} ${res.headers['retry-after'] ? 'wait' : ''} ${res.body}`);
      }
      return out;
    };
    const [known, unknown] = [await answers(owner.email), await answers(ghost)];
    expect(unknown).toEqual(known);
    expect(known.filter((a) => a.startsWith('429')).length).toBeGreaterThan(0);
  });

  it('the two-step sign-in stays throttled: the code is sent only within the limits, resent once a minute, and guessed at most 5 times', async () => {
    const owner = await newAccount();
    const home = nextIp();
    const token = (await signIn(owner.email, owner.password, { ip: home })).json().access_token as string;
    expect((await post('/setting/enable-two-factor/email', { enable: true, current_password: owner.password }, { token })).statusCode).toBe(200);
    const code = /\b(\d{6})\b/.exec(await lastMessage(owner.email))![1];
    expect((await post('/setting/enable-two-factor/email', { enable: true, code }, { token })).statusCode).toBe(200);

    // Wrong passwords from unknown clients: the password step waits, and no code goes out.
    for (let i = 0; i < 5; i++) expect((await signIn(owner.email, `guess-${i}`)).statusCode).toBe(422);
    const mails = await outboxCount();
    expectWait(await signIn(owner.email, owner.password), 'the password step from an unknown client');
    expect(await outboxCount()).toBe(mails);

    // The owner's known network still gets the code; the code step is limited by itself.
    const first = await signIn(owner.email, owner.password, { ip: home });
    expect(first.statusCode, first.body).toBe(200);
    expect(deviceOf(first)).toBeUndefined();
    const { challenge } = first.json();
    const resend = await post('/login/code/resend', { challenge });
    expect(resend.statusCode).toBe(429);
    expect(Number(resend.headers['retry-after'])).toBeGreaterThan(0);
    const right = /\b(\d{6})\b/.exec(await lastMessage(owner.email))![1];
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) expect((await post('/login/code', { challenge, code: wrong })).statusCode).toBe(422);
    const spent = await post('/login/code', { challenge, code: right });
    expect(spent.statusCode).toBe(422);
    expect(spent.body).not.toContain('access_token');

    // The code step that succeeds makes its browser known, as a sign-in does.
    const again = await signIn(owner.email, owner.password, { ip: home });
    const ok = await post('/login/code', { challenge: again.json().challenge, code: /\b(\d{6})\b/.exec(await lastMessage(owner.email))![1] }, { ip: nextIp() });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(deviceOf(ok)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('the throttling mechanism (server/lib/throttle.ts)', () => {
  it('of attempts that all start before any is booked, only those within the limit go on (across processes too: the booking is in the database)', async () => {
    // Two throttles on one database stand for two processes.
    const [one, two] = [createThrottle(t.db), createThrottle(t.db)];
    const key = `test:${uid()}`;
    const limit = { windowMs: 60 * MINUTE_MS, free: 5, firstWaitMs: MINUTE_MS, maxWaitMs: 15 * MINUTE_MS };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).begin([{ key, limit }], (seconds) => tooManyAttempts(seconds, 'Забагато спроб.'))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refused = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => r.reason as { statusCode: number; headers: Record<string, string> });
    expect(refused).toHaveLength(15);
    for (const e of refused) {
      expect(e.statusCode).toBe(429);
      expect(Number(e.headers['Retry-After'])).toBeGreaterThan(0);
    }
    // The refused ones left nothing behind: five failures are on record, not twenty.
    expect(await t.db.select().from(authAttempts).where(eq(authAttempts.key, key))).toHaveLength(5);
  });
});

// ── personal settings ──

/** Whether a JSON schema (through unions and intersections) has a `current_password` property. */
function asksCurrentPassword(schema: OpenApiSchema | undefined): boolean {
  if (!schema) return false;
  if (schema.properties && 'current_password' in schema.properties) return true;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].some(asksCurrentPassword);
}

type Me = Awaited<ReturnType<typeof newAccount>>;
/**
 * A body each current-password route accepts from a fresh user (with a phone), given the
 * password to send. A new route that asks for the current password must be added here.
 */
const BODIES: Record<string, (me: Me, password: string) => unknown> = {
  [`POST ${API}/setting/request-code/phone`]: (_me, password) => ({
    phone: `+38067${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
    current_password: password,
  }),
  [`POST ${API}/setting/request-code/email`]: (_me, password) => ({ email: `new-${uid()}@test.ua`, current_password: password }),
  [`POST ${API}/setting/change/password`]: (_me, password) => ({
    current_password: password,
    password: 'Зовсім-інший-пароль-2026',
    password_confirmation: 'Зовсім-інший-пароль-2026',
  }),
  [`POST ${API}/setting/enable-two-factor/phone`]: (_me, password) => ({ enable: true, current_password: password }),
  [`POST ${API}/setting/enable-two-factor/email`]: (_me, password) => ({ enable: true, current_password: password }),
};

const phone = () => `+38050${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

/** A user with a phone and a session (the session is all someone who stole it would have). */
async function sessionUser() {
  const me = await newAccount({ phone: phone() });
  return { me, token: await t.login(me.email, me.password) };
}

const ageSettings = (userId: number, ms: number) => age(`settings:${userId}`, ms);

describe('settings: the current password cannot be guessed with a stolen session', () => {
  const currentPasswordRoutes = () => routes.filter((r) => asksCurrentPassword(r.op.requestBody?.content?.['application/json']?.schema));

  it('every route that asks for the current password is known to this suite (found in the OpenAPI document)', () => {
    const found = currentPasswordRoutes().map((r) => r.key);
    expect(found.length).toBeGreaterThanOrEqual(5);
    for (const key of found) expect(BODIES, `${key} asks for the current password: add a body for it to BODIES`).toHaveProperty([key]);
  });

  const title =
    'each of them: 5 wrong current passwords, then 429 with Retry-After even for the right one, changing nothing; after the wait the right one works';
  it(title, async () => {
    for (const route of currentPasswordRoutes()) {
      const { me, token } = await sessionUser();
      const call = (password: string) => t.call(route.method, route.path, { token, body: BODIES[route.key](me, password) });
      for (let i = 0; i < 5; i++) {
        const res = await call(`wrong-${i}`);
        expect(res.statusCode, `${route.key} guess ${i + 1}: ${res.body}`).toBe(422);
        expect(res.json().errors.current_password[0]).toMatch(UKRAINIAN);
      }
      const before = await fingerprint(t);
      const refused = await call(me.password);
      expectWait(refused, route.key);
      expect(refused.json().message).toMatch(/поточний пароль/);
      expect(changedTables(before, await fingerprint(t)), route.key).toEqual([]);
      expectWait(await call('wrong-again'), `${route.key}, a wrong one`);

      await ageSettings(me.id, 61_000);
      const allowed = await call(me.password);
      expect(allowed.statusCode, `${route.key} after the wait: ${allowed.body}`).toBe(200);
    }
  });

  it('failures add up across the routes, per user: another user is not affected', async () => {
    const { me, token } = await sessionUser();
    const list = currentPasswordRoutes();
    for (let i = 0; i < 5; i++) {
      const route = list[i % list.length];
      expect((await t.call(route.method, route.path, { token, body: BODIES[route.key](me, `wrong-${i}`) })).statusCode).toBe(422);
    }
    for (const route of list) expectWait(await t.call(route.method, route.path, { token, body: BODIES[route.key](me, me.password) }), route.key);

    const other = await sessionUser();
    const route = list.find((r) => r.key.endsWith('/setting/request-code/email'))!;
    expect((await t.call(route.method, route.path, { token: other.token, body: BODIES[route.key](other.me, other.me.password) })).statusCode).toBe(200);
  });

  it('the right current password forgives the typos before it', async () => {
    const { me, token } = await sessionUser();
    const route = `${API}/setting/request-code/email`;
    const body = (password: string) => ({ email: `new-${uid()}@test.ua`, current_password: password });
    for (let i = 0; i < 4; i++) expect((await t.call('POST', route, { token, body: body(`typo-${i}`) })).statusCode).toBe(422);
    expect((await t.call('POST', route, { token, body: body(me.password) })).statusCode).toBe(200);
    // Without the reset, the second of these would be the sixth failure.
    for (let i = 0; i < 5; i++) expect((await t.call('POST', route, { token, body: body(`typo-again-${i}`) })).statusCode).toBe(422);
    expectWait(await t.call('POST', route, { token, body: body(me.password) }), 'after five more');
  });

  it('guesses sent in parallel cannot slip past the limit', async () => {
    const { token } = await sessionUser();
    const route = `${API}/setting/request-code/email`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.call('POST', route, { token, body: { email: `new-${uid()}@test.ua`, current_password: `parallel-${i}` } })),
    );
    const seen = statuses(answers);
    expect(countOf(seen, 422), seen.join(' ')).toBeLessThanOrEqual(5);
    expect(countOf(seen, 429), seen.join(' ')).toBeGreaterThanOrEqual(15);
  });
});
