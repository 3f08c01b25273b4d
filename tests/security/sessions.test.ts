import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAttempts, authTokens, liveTickets, outbox, passwordResets, users, verificationCodes } from '../../server/db/schema.ts';
import { hashToken } from '../../server/lib/secrets.ts';
import { PURGE_RULES, PURGED_TABLES, purgeExpired, SESSIONS_PER_USER } from '../../server/lib/sessions.ts';
import { API, createUser, nextIp, setupApp, uid, type TestApp } from '../api/helpers.ts';
import { rows } from './db.ts';

/**
 * Sessions per user and expired rows (docs/security.md): a user keeps at most SESSIONS_PER_USER
 * sessions, however they sign in; ended and expired sessions, tickets, links, codes and old
 * failed sign-ins are purged by a periodic background job, and the purge never takes anything
 * still in use.
 */
let t: TestApp;
beforeAll(async () => {
  t = await setupApp();
});
afterAll(() => t?.close());

const post = (path: string, body: unknown, opts: { token?: string; ip?: string } = {}) => t.call('POST', `${API}${path}`, { body, ...opts });
const alive = async (token: string) => (await t.call('GET', `${API}/user`, { token })).statusCode === 200;
const liveSessions = async (userId: number) =>
  (
    await t.db
      .select({ id: authTokens.id })
      .from(authTokens)
      .where(and(eq(authTokens.userId, userId), isNull(authTokens.revokedAt), gt(authTokens.expiresAt, new Date())))
  ).length;

async function account() {
  const user = await createUser(t.db, { organizationId: t.organizationId });
  return { id: user.id, email: user.email, password: user.password };
}
type Account = Awaited<ReturnType<typeof account>>;

async function lastCode(recipient: string) {
  const [m] = await rows<{ body: string }>(t, sql`select body from outbox where recipient = ${recipient} order by id desc limit 1`);
  return /\b(\d{6})\b/.exec(m.body)![1];
}

/** Every way to open a session: each signs in once and answers the bearer token. */
const SIGN_INS: Record<string, { prepare: (me: Account, token: string) => Promise<void>; signIn: (me: Account) => Promise<string> }> = {
  password: {
    prepare: async () => {},
    signIn: (me) => t.login(me.email, me.password),
  },
  'password and a code (two-step sign-in)': {
    prepare: async (me, token) => {
      expect((await post('/setting/enable-two-factor/email', { enable: true, current_password: me.password }, { token })).statusCode).toBe(200);
      expect((await post('/setting/enable-two-factor/email', { enable: true, code: await lastCode(me.email) }, { token })).statusCode).toBe(200);
    },
    signIn: async (me) => {
      const first = await post('/login', { email: me.email, password: me.password });
      expect(first.statusCode, first.body).toBe(200);
      const res = await post('/login/code', { challenge: first.json().challenge, code: await lastCode(me.email) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().access_token as string;
    },
  },
};

describe(`a user keeps at most ${SESSIONS_PER_USER} sessions`, () => {
  for (const [name, way] of Object.entries(SIGN_INS)) {
    it(`two more sign-ins by ${name} end the two oldest sessions`, async () => {
      const me = await account();
      const tokens: string[] = [];
      for (let i = 0; i < SESSIONS_PER_USER; i++) tokens.push(await t.login(me.email, me.password));
      await way.prepare(me, tokens[tokens.length - 1]);
      for (let i = 0; i < 2; i++) tokens.push(await way.signIn(me));
      const [oldest, second, ...newest] = tokens;
      expect(await alive(oldest)).toBe(false);
      expect(await alive(second)).toBe(false);
      for (const token of newest) expect(await alive(token)).toBe(true);
      expect(await liveSessions(me.id)).toBe(SESSIONS_PER_USER);
    });
  }

  it('the cap is per user: another account signing in ends none of these', async () => {
    const me = await account();
    const mine: string[] = [];
    for (let i = 0; i < SESSIONS_PER_USER; i++) mine.push(await t.login(me.email, me.password));
    const other = await account();
    for (let i = 0; i < 3; i++) await t.login(other.email, other.password);
    for (const token of mine) expect(await alive(token)).toBe(true);
  });
});

const HOUR = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms);

/** One row of each kind that the purge must delete, and one of each that it must keep. */
async function plant(me: Account) {
  const token = (label: string) => hashToken(`${label}-${uid()}`);
  const session = (values: Partial<typeof authTokens.$inferInsert>) =>
    t.db
      .insert(authTokens)
      .values({ userId: me.id, tokenHash: token('s'), expiresAt: new Date(Date.now() + HOUR), ...values })
      .returning({ id: authTokens.id })
      .then((r) => r[0].id);
  const link = (values: Partial<typeof passwordResets.$inferInsert>) =>
    t.db
      .insert(passwordResets)
      .values({ userId: me.id, tokenHash: token('l'), expiresAt: new Date(Date.now() + HOUR), ...values })
      .returning({ id: passwordResets.id })
      .then((r) => r[0].id);
  const code = (createdAt: Date) =>
    t.db
      .insert(verificationCodes)
      .values({
        userId: me.id,
        purpose: 'email',
        channel: 'email',
        target: me.email,
        salt: 's',
        codeHash: 'h',
        createdAt,
        expiresAt: new Date(createdAt.getTime() + 600_000),
      })
      .returning({ id: verificationCodes.id })
      .then((r) => r[0].id);
  const attempt = (at: Date) =>
    t.db
      .insert(authAttempts)
      .values({ key: `email:${me.email}`, at })
      .returning({ id: authAttempts.id })
      .then((r) => r[0].id);
  const liveSession = await session({});
  const ticket = (expiresAt: Date) =>
    t.db
      .insert(liveTickets)
      .values({ tokenId: liveSession, ticketHash: token('t'), expiresAt })
      .returning({ id: liveTickets.id })
      .then((r) => r[0].id);
  return {
    gone: {
      sessions: [await session({ expiresAt: ago(1000) }), await session({ revokedAt: ago(1000) })],
      links: [await link({ createdAt: ago(2 * HOUR), expiresAt: ago(HOUR) }), await link({ createdAt: ago(2 * HOUR), usedAt: ago(HOUR) })],
      codes: [await code(ago(PURGE_RULES.codesKeptMs + HOUR))],
      attempts: [await attempt(ago(PURGE_RULES.attemptsKeptMs + HOUR))],
      tickets: [await ticket(ago(1000))],
    },
    kept: {
      sessions: [liveSession],
      // A link still valid, and one used within the hour (the hourly mail limits count it).
      links: [await link({}), await link({ createdAt: ago(HOUR / 2), usedAt: ago(HOUR / 4) })],
      codes: [await code(ago(HOUR / 2))],
      attempts: [await attempt(ago(HOUR))],
      tickets: [await ticket(new Date(Date.now() + 60_000))],
    },
  };
}

async function present(planted: Awaited<ReturnType<typeof plant>>['gone']) {
  const ids = async (
    table: typeof authTokens | typeof passwordResets | typeof verificationCodes | typeof authAttempts | typeof liveTickets,
    wanted: number[],
  ) => (await t.db.select({ id: table.id }).from(table).where(inArray(table.id, wanted))).map((r) => r.id).sort();
  return {
    sessions: await ids(authTokens, planted.sessions),
    links: await ids(passwordResets, planted.links),
    codes: await ids(verificationCodes, planted.codes),
    attempts: await ids(authAttempts, planted.attempts),
    tickets: await ids(liveTickets, planted.tickets),
  };
}
const sorted = (p: Record<string, number[]>) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, [...v].sort()]));
const none = { sessions: [], links: [], codes: [], attempts: [], tickets: [] };

describe('expired rows are purged', () => {
  it('deletes ended and expired sessions, expired tickets, spent links, old codes and old failed sign-ins — and nothing still in use', async () => {
    const me = await account();
    const planted = await plant(me);
    const counts = await purgeExpired(t.db);
    expect(await present(planted.gone)).toEqual(none);
    expect(await present(planted.kept)).toEqual(sorted(planted.kept));
    expect(counts.sessions).toBeGreaterThanOrEqual(2);
    expect(counts.passwordLinks).toBeGreaterThanOrEqual(2);
    expect(counts.signInAttempts).toBeGreaterThanOrEqual(1);
  });

  it('a purge in the middle of a guessing run does not reset the sign-in throttle', async () => {
    const me = await account();
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expect((await post('/login', { email: me.email, password: `wrong-${i}` }, { ip })).statusCode).toBe(422);
    await purgeExpired(t.db);
    expect((await post('/login', { email: me.email, password: 'wrong-again' }, { ip })).statusCode).toBe(429);
  });

  it('a purge keeps the hourly limit of reset mails', async () => {
    const me = await account();
    for (let i = 0; i < 3; i++) expect((await post('/forgot_password', { email: me.email })).statusCode).toBe(200);
    // The links are used up meanwhile (another reset marks every other link used).
    await t.db.update(passwordResets).set({ usedAt: new Date() }).where(eq(passwordResets.userId, me.id));
    await purgeExpired(t.db);
    const mails = async () => (await t.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.recipient, me.email))).length;
    const before = await mails();
    await post('/forgot_password', { email: me.email });
    expect(await mails()).toBe(before);
  });

  it('runs by itself as a background job once the process works on jobs', async () => {
    const me = await account();
    const planted = await plant(me);
    await t.app.jobs.work();
    await expect.poll(async () => present(planted.gone), { timeout: 20_000, interval: 250 }).toEqual(none);
    expect(await present(planted.kept)).toEqual(sorted(planted.kept));
    // The user row itself is untouched.
    expect(await t.db.select({ id: users.id }).from(users).where(eq(users.id, me.id))).toHaveLength(1);
  });
});

/** Tables of short-lived rows that the purge leaves alone on purpose, with the reason. */
const KEPT_ON_PURPOSE: Record<string, string> = {
  service_request_chat_links: 'a request lists its chat links with their history (expired or revoked ones too); they go with the request',
};

describe('every kind of short-lived row is purged', () => {
  it('each table with an expiry, a use or a revocation time (or of attempts, tickets, sessions, codes) is purged or kept on purpose', async () => {
    const candidates = await rows<{ name: string }>(
      t,
      sql`select distinct table_name as name from information_schema.columns
          where table_schema = 'public' and (column_name in ('expires_at', 'used_at', 'revoked_at') or table_name ~ '(attempts|tickets|sessions|codes)$')
          order by 1`,
    );
    const names = candidates.map((c) => c.name);
    expect(names).toContain('auth_tokens');
    expect(names.filter((n) => !PURGED_TABLES.includes(n) && !(n in KEPT_ON_PURPOSE))).toEqual([]);
    expect(Object.keys(KEPT_ON_PURPOSE).filter((n) => !names.includes(n))).toEqual([]);
  });
});
