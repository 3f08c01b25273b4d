import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, users, verificationCodes } from '../../server/db/schema.ts';
import { API, createUser, expectErrorBody, expectFieldError, setupApp, uid, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await setupApp();
});
afterAll(() => t?.close());

interface Account {
  id: number;
  email: string;
  password: string;
  token: string;
}

async function account(overrides: { phone?: string | null } = {}): Promise<Account> {
  const user = await createUser(t.db, { organizationId: t.organizationId, ...overrides });
  return { id: user.id, email: user.email, password: user.password, token: await t.login(user.email, user.password) };
}

const post = (path: string, body: unknown, token?: string) => t.call('POST', `${API}${path}`, { token, body });

/** The newest code sent to `recipient`, read from the message body in the (development) outbox. */
async function lastCode(recipient: string): Promise<string> {
  const [m] = await t.db.select().from(outbox).where(eq(outbox.recipient, recipient)).orderBy(desc(outbox.id)).limit(1);
  const code = m?.body?.match(/\b(\d{6})\b/)?.[1];
  expect(code, `no code in the outbox for ${recipient}`).toBeDefined();
  return code!;
}

/** Lets the next code be asked for at once (the once-a-minute limit is tested on its own). */
const ageCodes = (userId: number, minutes = 2) =>
  t.db
    .update(verificationCodes)
    .set({ createdAt: sql`${verificationCodes.createdAt} - make_interval(mins => ${minutes})` })
    .where(eq(verificationCodes.userId, userId));

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('phone', () => {
  it('changes the phone with a code sent to the new number, normalised to +380', async () => {
    const me = await account();
    const res = await post('/setting/request-code/phone', { phone: '067 123 45 67', current_password: me.password }, me.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ sent_to: '+38067*****67', resend_after: 60, expires_in: 600 });
    const [sms] = await t.db.select().from(outbox).where(eq(outbox.recipient, '+380671234567'));
    expect(sms.channel).toBe('sms');

    const changed = await post('/setting/change/phone', { phone: '+38 (067) 123-45-67', code: await lastCode('+380671234567') }, me.token);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.phone).toBe('+380671234567');
  });

  it('asks for the current password, and refuses a number that is not a phone', async () => {
    const me = await account();
    expectFieldError(await post('/setting/request-code/phone', { phone: '0671234567', current_password: 'wrong-password' }, me.token), 'current_password');
    expectFieldError(await post('/setting/request-code/phone', { phone: '12345', current_password: me.password }, me.token), 'phone');
    expectFieldError(await post('/setting/request-code/phone', { phone: '0671234567' }, me.token), 'current_password');
    expect(await t.db.select().from(verificationCodes).where(eq(verificationCodes.userId, me.id))).toHaveLength(0);
  });

  it('refuses a code sent for another number', async () => {
    const me = await account();
    await post('/setting/request-code/phone', { phone: '0501112233', current_password: me.password }, me.token);
    const code = await lastCode('+380501112233');
    expectFieldError(await post('/setting/change/phone', { phone: '0501112234', code }, me.token), 'code');
    const [row] = await t.db.select().from(users).where(eq(users.id, me.id));
    expect(row.phone).toBeNull();
  });
});

describe('codes', () => {
  async function requested() {
    const me = await account();
    const phone = `+38063${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const res = await post('/setting/request-code/phone', { phone, current_password: me.password }, me.token);
    expect(res.statusCode, res.body).toBe(200);
    return { me, phone, code: await lastCode(phone) };
  }

  it('is single-use', async () => {
    const { me, phone, code } = await requested();
    expect((await post('/setting/change/phone', { phone, code }, me.token)).statusCode).toBe(200);
    expectFieldError(await post('/setting/change/phone', { phone, code }, me.token), 'code');
  });

  it('expires after 10 minutes', async () => {
    const { me, phone, code } = await requested();
    await t.db
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verificationCodes.userId, me.id));
    const res = await post('/setting/change/phone', { phone, code }, me.token);
    expectFieldError(res, 'code');
    expect(res.json().errors.code[0]).toMatch(/застарів/);
  });

  it('is void after 5 wrong attempts, even the right code after them', async () => {
    const { me, phone, code } = await requested();
    for (let left = 4; left >= 1; left--) {
      const res = await post('/setting/change/phone', { phone, code: wrongCode(code) }, me.token);
      expect(res.json().errors.code[0]).toBe(`Невірний код. Залишилось спроб: ${left}.`);
    }
    expect((await post('/setting/change/phone', { phone, code: wrongCode(code) }, me.token)).json().errors.code[0]).toMatch(/анульовано/);
    expectFieldError(await post('/setting/change/phone', { phone, code }, me.token), 'code');
  });

  it('a new code replaces the old one; at most one a minute and five an hour', async () => {
    const { me, phone, code } = await requested();
    const again = await post('/setting/request-code/phone', { phone, current_password: me.password }, me.token);
    expectErrorBody(again, 429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);

    await ageCodes(me.id);
    expect((await post('/setting/request-code/phone', { phone, current_password: me.password }, me.token)).statusCode).toBe(200);
    const second = await lastCode(phone);
    if (second !== code) expectFieldError(await post('/setting/change/phone', { phone, code }, me.token), 'code');

    for (let i = 0; i < 3; i++) {
      await ageCodes(me.id);
      expect((await post('/setting/request-code/phone', { phone, current_password: me.password }, me.token)).statusCode).toBe(200);
    }
    await ageCodes(me.id);
    const sixth = await post('/setting/request-code/phone', { phone, current_password: me.password }, me.token);
    expectErrorBody(sixth, 429);
    expect(sixth.json().message).toMatch(/за годину/);
  });

  it('never keeps the code in clear', async () => {
    const { me, code } = await requested();
    const rows = await t.db.select().from(verificationCodes).where(eq(verificationCodes.userId, me.id));
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it.each([['12345'], ['abcdef'], ['1234567'], [123456]])('refuses code %s with 422', async (code) => {
    const me = await account();
    expectFieldError(await post('/setting/change/phone', { phone: '0671234567', code }, me.token), 'code');
  });
});

describe('e-mail', () => {
  it('changes the e-mail with a code sent to the new address, which then signs in', async () => {
    const me = await account();
    const email = `new-${uid()}@test.ua`;
    expect((await post('/setting/request-code/email', { email: email.toUpperCase(), current_password: me.password }, me.token)).statusCode).toBe(200);
    const res = await post('/setting/change/email', { email, code: await lastCode(email) }, me.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.email).toBe(email);
    expect(await t.login(email, me.password)).toBeTruthy();
  });

  it('refuses an address another account uses', async () => {
    const me = await account();
    const other = await account();
    expectFieldError(await post('/setting/request-code/email', { email: other.email, current_password: me.password }, me.token), 'email');
  });
});

describe('password', () => {
  it('changes the password and ends the other sessions, not this one', async () => {
    const me = await account();
    const other = await t.login(me.email, me.password);
    const res = await post(
      '/setting/change/password',
      { current_password: me.password, password: 'Тиха-вода-2026', password_confirmation: 'Тиха-вода-2026' },
      me.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.call('GET', `${API}/user`, { token: me.token })).statusCode).toBe(200);
    expect((await t.call('GET', `${API}/user`, { token: other })).statusCode).toBe(401);
    expect((await post('/login', { email: me.email, password: me.password })).statusCode).toBe(422);
    expect(await t.login(me.email, 'Тиха-вода-2026')).toBeTruthy();
  });

  it.each([
    [{ current_password: 'wrong', password: 'Тиха-вода-2026', password_confirmation: 'Тиха-вода-2026' }, 'current_password'],
    [{ current_password: undefined, password: 'Тиха-вода-2026', password_confirmation: 'Тиха-вода-2026' }, 'current_password'],
    [{ password: 'short', password_confirmation: 'short' }, 'password'],
    [{ password: 'x'.repeat(65), password_confirmation: 'x'.repeat(65) }, 'password'],
    [{ password: 'Тиха-вода-2026', password_confirmation: 'Тиха-вода-2027' }, 'password_confirmation'],
    [{ password: 'qwertyuiop', password_confirmation: 'qwertyuiop' }, 'password'],
    [{ password: 'Password1', password_confirmation: 'Password1' }, 'password'],
  ])('refuses %j (%s)', async (body, field) => {
    const me = await account();
    const res = await post('/setting/change/password', { current_password: me.password, ...body }, me.token);
    expectFieldError(res, field);
    expect(await t.login(me.email, me.password)).toBeTruthy();
  });
});

describe('two-factor sign-in', () => {
  async function enable(me: Account, channel: 'email' | 'phone', target: string) {
    const first = await post(`/setting/enable-two-factor/${channel}`, { enable: true, current_password: me.password }, me.token);
    expect(first.statusCode, first.body).toBe(200);
    const second = await post(`/setting/enable-two-factor/${channel}`, { enable: true, code: await lastCode(target) }, me.token);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.two_factor).toBe(channel);
  }

  it.each(['email', 'phone'] as const)('by %s: the password answers a challenge, the code a token', async (channel) => {
    const phone = `+38097${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const me = await account({ phone });
    const target = channel === 'email' ? me.email : phone;
    await enable(me, channel, target);

    const first = await post('/login', { email: me.email, password: me.password });
    expect(first.statusCode, first.body).toBe(200);
    const step = first.json();
    expect(step).toMatchObject({ two_factor: channel, resend_after: 60 });
    expect(step).not.toHaveProperty('access_token');

    const code = await lastCode(target);
    expectFieldError(await post('/login/code', { challenge: step.challenge, code: wrongCode(code) }), 'code');
    expectFieldError(await post('/login/code', { challenge: 'x'.repeat(43), code }), 'code');
    const second = await post('/login/code', { challenge: step.challenge, code });
    expect(second.statusCode, second.body).toBe(200);
    const token = second.json().access_token;
    expect((await t.call('GET', `${API}/user`, { token })).json().data.email).toBe(me.email);
    expectFieldError(await post('/login/code', { challenge: step.challenge, code }), 'code');
  });

  it('resends the sign-in code with a new challenge, once a minute', async () => {
    const me = await account();
    await enable(me, 'email', me.email);
    const step = (await post('/login', { email: me.email, password: me.password })).json();
    expectErrorBody(await post('/login/code/resend', { challenge: step.challenge }), 429);
    await ageCodes(me.id);
    const again = await post('/login/code/resend', { challenge: step.challenge });
    expect(again.statusCode, again.body).toBe(200);
    const code = await lastCode(me.email);
    expectFieldError(await post('/login/code', { challenge: step.challenge, code }), 'code');
    expect((await post('/login/code', { challenge: again.json().challenge, code })).statusCode).toBe(200);
  });

  it('turns off with a code, and then the password alone signs in', async () => {
    const me = await account();
    await enable(me, 'email', me.email);
    await ageCodes(me.id);
    expect((await post('/setting/enable-two-factor/email', { enable: false, current_password: me.password }, me.token)).statusCode).toBe(200);
    const off = await post('/setting/enable-two-factor/email', { enable: false, code: await lastCode(me.email) }, me.token);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data.two_factor).toBeNull();
    expect((await post('/login', { email: me.email, password: me.password })).json()).toHaveProperty('access_token');
  });

  it('needs a phone for SMS, the current password, and a body of one of the two shapes', async () => {
    const me = await account();
    expectFieldError(await post('/setting/enable-two-factor/phone', { enable: true, current_password: me.password }, me.token), 'phone');
    expectFieldError(await post('/setting/enable-two-factor/email', { enable: true, current_password: 'wrong' }, me.token), 'current_password');
    for (const body of [
      {},
      { enable: 'yes', current_password: me.password },
      { enable: true },
      { enable: true, code: '123456', current_password: me.password },
      [],
    ]) {
      const res = await post('/setting/enable-two-factor/email', body, me.token);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
    const [row] = await t.db
      .select()
      .from(users)
      .where(and(eq(users.id, me.id)));
    expect(row.twoFactor).toBeNull();
  });
});

describe('name and other settings', () => {
  it('saves the name and the tutorial flag', async () => {
    const me = await account();
    const res = await post('/user', { name: '  Олена Коваль ', tutorial_completed: true }, me.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Олена Коваль', tutorial_completed: true });
    expectFieldError(await post('/user', { name: 'О' }, me.token), 'name');
    expect((await post('/user', { name: 'Олена' })).statusCode).toBe(401);
  });
});
