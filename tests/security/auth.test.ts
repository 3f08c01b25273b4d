import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, passwordResets, verificationCodes } from '../../server/db/schema.ts';
import { API, createUser, nextIp, setupApp, uid, UKRAINIAN, type TestApp } from '../api/helpers.ts';

/**
 * Auth abuse in matrix form: guessing is throttled, one-time secrets work once and expire,
 * ended sessions stay ended, and sign-in and recovery do not tell which e-mails exist.
 */
let t: TestApp;
beforeAll(async () => {
  t = await setupApp();
});
afterAll(() => t?.close());

const post = (path: string, body: unknown, opts: { token?: string; ip?: string } = {}) => t.call('POST', `${API}${path}`, { body, ...opts });

async function account(overrides: { phone?: string } = {}) {
  const user = await createUser(t.db, { organizationId: t.organizationId, ...overrides });
  return { id: user.id, email: user.email, password: user.password, token: await t.login(user.email, user.password) };
}
type Account = Awaited<ReturnType<typeof account>>;

/** The newest mail or SMS to `recipient`, as the development outbox keeps it. */
async function lastMessage(recipient: string) {
  const [m] = await t.db.select().from(outbox).where(eq(outbox.recipient, recipient)).orderBy(desc(outbox.id)).limit(1);
  expect(m, `a message to ${recipient}`).toBeDefined();
  return m.body ?? '';
}
const lastCode = async (recipient: string) => /\b(\d{6})\b/.exec(await lastMessage(recipient))![1];
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function enableTwoFactor(me: Account) {
  expect((await post('/setting/enable-two-factor/email', { enable: true, current_password: me.password }, { token: me.token })).statusCode).toBe(200);
  const res = await post('/setting/enable-two-factor/email', { enable: true, code: await lastCode(me.email) }, { token: me.token });
  expect(res.statusCode, res.body).toBe(200);
}

/** Reads a reset link's token from the mail that /forgot_password sent. */
async function resetToken(email: string) {
  expect((await post('/forgot_password', { email })).statusCode).toBe(200);
  const url = /https?:\/\/\S+/.exec(await lastMessage(email))![0];
  return new URL(url).searchParams.get('token')!;
}

const NEW_PASSWORD = 'зовсім-новий-пароль-2026';

describe('guessing is throttled', () => {
  it('the 6th wrong password for one e-mail from clients it does not know answers 429, and then even the right one does', async () => {
    const me = await account();
    for (let i = 0; i < 5; i++) expect((await post('/login', { email: me.email, password: `wrong-${i}` })).statusCode).toBe(422);
    for (const password of ['wrong-again', me.password]) {
      const res = await post('/login', { email: me.email, password });
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.json().message).toMatch(UKRAINIAN);
      expect(res.body).not.toContain('access_token');
    }
  });

  it('locks an unknown e-mail the same way, so the lock tells nothing', async () => {
    const ghost = `ghost-${uid()}@test.ua`;
    const me = await account();
    const answers = async (email: string) => {
      const out: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await post('/login', { email, password: `wrong-${i}` });
        out.push(`${res.statusCode} ${res.body.replace(/"retry_after":\d+/, '')}`);
      }
      return out;
    };
    expect(await answers(ghost)).toEqual(await answers(me.email));
  });

  it('one address guessing many e-mails is stopped too', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await post('/login', { email: `spray-${uid()}@test.ua`, password: 'Password1' }, { ip })).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 422)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
  });

  it('a second-step code survives only 5 wrong guesses, after which the right one is refused too', async () => {
    const me = await account();
    await enableTwoFactor(me);
    const { challenge } = (await post('/login', { email: me.email, password: me.password })).json();
    const code = await lastCode(me.email);
    for (let i = 0; i < 5; i++) expect((await post('/login/code', { challenge, code: wrong(code) })).statusCode).toBe(422);
    const res = await post('/login/code', { challenge, code });
    expect(res.statusCode).toBe(422);
    expect(res.body).not.toContain('access_token');
  });
});

describe('one-time secrets are single-use and expire', () => {
  /** Each secret: issue it, use it (expecting success), and age it in the database. */
  const SECRETS = {
    'password reset link': {
      async issue() {
        const me = await account();
        return { me, secret: await resetToken(me.email) };
      },
      use: (me: Account, token: string) => post('/reset_password', { token, email: me.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD }),
      age: (me: Account) =>
        t.db
          .update(passwordResets)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(passwordResets.userId, me.id)),
    },
    'sign-in code (2FA)': {
      async issue() {
        const me = await account();
        await enableTwoFactor(me);
        const { challenge } = (await post('/login', { email: me.email, password: me.password })).json();
        return { me, secret: `${challenge} ${await lastCode(me.email)}` };
      },
      use: (_me: Account, secret: string) => {
        const [challenge, code] = secret.split(' ');
        return post('/login/code', { challenge, code });
      },
      age: (me: Account) =>
        t.db
          .update(verificationCodes)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(verificationCodes.userId, me.id)),
    },
    'e-mail change code': {
      async issue() {
        const me = await account();
        const email = `new-${uid()}@test.ua`;
        expect((await post('/setting/request-code/email', { email, current_password: me.password }, { token: me.token })).statusCode).toBe(200);
        return { me, secret: `${email} ${await lastCode(email)}` };
      },
      use: (me: Account, secret: string) => {
        const [email, code] = secret.split(' ');
        return post('/setting/change/email', { email, code }, { token: me.token });
      },
      age: (me: Account) =>
        t.db
          .update(verificationCodes)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(verificationCodes.userId, me.id)),
    },
  };

  for (const [name, s] of Object.entries(SECRETS)) {
    it(`${name}: works once, then is refused`, async () => {
      const { me, secret } = await s.issue();
      const first = await s.use(me, secret);
      expect(first.statusCode, first.body).toBe(200);
      const second = await s.use(me, secret);
      expect(second.statusCode).toBe(422);
      expect(second.json().message).toMatch(UKRAINIAN);
    });

    it(`${name}: is refused once expired`, async () => {
      const { me, secret } = await s.issue();
      await s.age(me);
      const res = await s.use(me, secret);
      expect(res.statusCode).toBe(422);
      expect(res.body).not.toContain('access_token');
    });
  }
});

describe('ended sessions stay ended', () => {
  const probes = [
    ['GET', `${API}/user`],
    ['GET', `${API}/notifications/unread_count`],
    ['POST', `${API}/live/ticket`],
    ['POST', `${API}/user`],
  ] as const;

  async function expectDead(token: string) {
    for (const [method, url] of probes) {
      const res = await t.call(method, url, { token, body: method === 'POST' ? { name: 'Новe імʼя' } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  }

  it('after logout', async () => {
    const me = await account();
    expect((await post('/logout', {}, { token: me.token })).statusCode).toBe(200);
    await expectDead(me.token);
  });

  it('after a password change in the settings (other sessions)', async () => {
    const me = await account();
    const other = await t.login(me.email, me.password);
    const res = await post(
      '/setting/change/password',
      { current_password: me.password, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      { token: me.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    await expectDead(other);
    expect((await post('/login', { email: me.email, password: me.password })).statusCode).toBe(422);
  });

  it('after a password reset by link (every session)', async () => {
    const me = await account();
    const token = await resetToken(me.email);
    expect((await post('/reset_password', { token, email: me.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD })).statusCode).toBe(200);
    await expectDead(me.token);
  });

  it('a live-stream ticket is single-use and dies with the session', async () => {
    const me = await account();
    const ticket = (await post('/live/ticket', {}, { token: me.token })).json();
    expect(ticket).toHaveProperty('ticket');
    await post('/logout', {}, { token: me.token });
    const res = await t.call('GET', `${API}/live?ticket=${encodeURIComponent(ticket.ticket)}`);
    expect(res.statusCode).toBe(401);
  });
});

describe('no user enumeration', () => {
  /** Median times of two calls measured in alternation, so that load on the machine hits both alike. */
  async function medians(a: () => Promise<unknown>, b: () => Promise<unknown>, n: number): Promise<[number, number]> {
    const times: [number[], number[]] = [[], []];
    const time = async (fn: () => Promise<unknown>) => {
      const start = process.hrtime.bigint();
      await fn();
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    for (let i = 0; i < n; i++) {
      times[0].push(await time(a));
      times[1].push(await time(b));
    }
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    return [median(times[0]), median(times[1])];
  }

  /** Known accounts used in turn, so that none reaches the sign-in lock while being measured. */
  async function accounts(n: number) {
    const list: Account[] = [];
    for (let i = 0; i < n; i++) list.push(await account());
    let next = 0;
    return () => list[next++ % n];
  }

  /** Same status and body for a known and an unknown e-mail, and median timings within a factor of 3. */
  async function expectIndistinguishable(known: () => ReturnType<typeof post>, unknown: () => ReturnType<typeof post>, status: number) {
    const [a, b] = [await known(), await unknown()];
    expect(a.statusCode).toBe(status);
    expect(a.statusCode).toBe(b.statusCode);
    expect(a.body).toBe(b.body);
    const [k, u] = await medians(known, unknown, 9);
    expect(k / u, `known ${k} ms, unknown ${u} ms`).toBeGreaterThan(1 / 3);
    expect(k / u, `known ${k} ms, unknown ${u} ms`).toBeLessThan(3);
  }

  it('sign-in answers a wrong password and an unknown e-mail identically, in similar time', async () => {
    const pick = await accounts(4);
    await expectIndistinguishable(
      () => post('/login', { email: pick().email, password: `wrong-${uid()}` }),
      () => post('/login', { email: `nobody-${uid()}@test.ua`, password: `wrong-${uid()}` }),
      422,
    );
  });

  it('password recovery answers a known and an unknown e-mail identically, in similar time', async () => {
    const pick = await accounts(5);
    await expectIndistinguishable(
      () => post('/forgot_password', { email: pick().email }),
      () => post('/forgot_password', { email: `nobody-${uid()}@test.ua` }),
      200,
    );
  });
});
