import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, passwordResets, users } from '../../server/db/schema.ts';
import { ADMIN, API, createUser, expectErrorBody, expectFieldError, STAFF, uid, UKRAINIAN, type TestApp, setupApp } from './helpers.ts';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  t = await setupApp();
  adminToken = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

const SENT = 'Якщо цей e-mail зареєстровано, ми надіслали на нього посилання для відновлення пароля.';
const CHANGED = 'Пароль змінено. Увійдіть з новим паролем.';

const newUser = (overrides: Partial<Parameters<typeof createUser>[1]> = {}) => createUser(t.db, { organizationId: t.organizationId, ...overrides });
const forgot = (email: unknown) => t.call('POST', `${API}/forgot_password`, { body: { email } });
const reset = (body: Record<string, unknown>) => t.call('POST', `${API}/reset_password`, { body });
const login = (email: string, password: string) => t.call('POST', `${API}/login`, { body: { email, password } });

interface OutboxMessage {
  id: number;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  created_at: string;
  sent_at: string | null;
  error: string | null;
}

/** Mail to `recipient`, newest first, as the admin reads it through the API. */
async function mailTo(recipient: string): Promise<OutboxMessage[]> {
  const res = await t.call('GET', `${API}/outbox?per_page=100`, { token: adminToken });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as OutboxMessage[]).filter((m) => m.recipient === recipient);
}

/** Requests a reset for `email` and returns the link from the mail it produced. */
async function resetLink(email: string): Promise<URL> {
  const res = await forgot(email);
  expect(res.statusCode, res.body).toBe(200);
  const [mail] = await mailTo(email.trim().toLowerCase());
  expect(mail, `a mail to ${email}`).toBeDefined();
  const match = /https?:\/\/\S+/.exec(mail.body);
  expect(match, mail.body).not.toBeNull();
  return new URL(match![0]);
}

async function resetToken(email: string): Promise<string> {
  return (await resetLink(email)).searchParams.get('token')!;
}

const NEW_PASSWORD = 'a-brand-new-password';

describe('POST /forgot_password', () => {
  it('answers the same for a known and an unknown e-mail', async () => {
    const user = await newUser();
    const known = await forgot(user.email);
    const unknown = await forgot(`nobody-${uid()}@test.ua`);
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: SENT });
    expect(unknown.json()).toEqual(known.json());
  });

  it('puts a mail with a reset link into the outbox', async () => {
    const user = await newUser({ name: 'Марія Шевчук' });
    const res = await forgot(user.email);
    expect(res.statusCode).toBe(200);
    const mails = await mailTo(user.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail).toMatchObject({ channel: 'email', recipient: user.email, subject: 'Відновлення пароля', sent_at: null, error: null });
    expect(mail.body).toContain('Марія Шевчук');
    const link = new URL(/https?:\/\/\S+/.exec(mail.body)![0]);
    expect(link.origin).toBe('https://zhk.test');
    expect(link.pathname).toBe('/ResetPassword');
    expect(link.searchParams.get('email')).toBe(user.email);
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it('sends nothing for an unknown e-mail', async () => {
    const email = `nobody-${uid()}@test.ua`;
    await forgot(email);
    expect(await mailTo(email)).toEqual([]);
    const rows = await t.db.select().from(outbox).where(eq(outbox.recipient, email));
    expect(rows).toEqual([]);
  });

  it('finds the account whatever the case of the e-mail, and links the stored address', async () => {
    const user = await newUser();
    const link = await resetLink(`  ${user.email.toUpperCase()}`);
    expect(link.searchParams.get('email')).toBe(user.email);
  });

  it('sends at most three links an hour, still answering the same', async () => {
    const user = await newUser();
    for (let i = 0; i < 4; i++) {
      const res = await forgot(user.email);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: SENT });
    }
    expect(await mailTo(user.email)).toHaveLength(3);
  });

  it('validates the e-mail', async () => {
    expectFieldError(await forgot('not-an-email'), 'email');
    expectFieldError(await forgot(''), 'email');
    expectFieldError(await t.call('POST', `${API}/forgot_password`, { body: {} }), 'email');
  });
});

describe('GET /outbox', () => {
  it('is for admins only', async () => {
    const token = await t.login(STAFF.email, STAFF.password);
    const res = await t.call('GET', `${API}/outbox`, { token });
    const body = expectErrorBody(res, 403);
    expect(body.message).toMatch(UKRAINIAN);
  });

  it('pages the messages newest first', async () => {
    const user = await newUser();
    await forgot(user.email);
    const res = await t.call('GET', `${API}/outbox?per_page=1`, { token: adminToken });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(1);
    // The tests run as a development installation without transports: the development outbox shows the text.
    expect(body.data[0]).toMatchObject({
      recipient: user.email,
      kind: 'password_reset',
      status: 'held',
      body: expect.stringContaining('/ResetPassword?token='),
    });
    expect(body.pagination).toMatchObject({ current_page: 1, per_page: 1, from: 1, to: 1 });
    expect(body.pagination.total).toBeGreaterThanOrEqual(1);
  });
});

describe('POST /reset_password', () => {
  it('sets the new password once; the old password and old sessions stop working', async () => {
    const user = await newUser();
    const oldSession = await t.login(user.email, user.password);
    const token = await resetToken(user.email);

    const res = await reset({ token, email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: CHANGED });

    expect((await login(user.email, user.password)).statusCode).toBe(422);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    const old = await t.call('GET', `${API}/user`, { token: oldSession });
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual({ message: 'Unauthenticated.' });

    const again = await reset({ token, email: user.email, password: 'yet-another-password', password_confirmation: 'yet-another-password' });
    expectFieldError(again, 'token');
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses the token with another e-mail, without using it up', async () => {
    const user = await newUser();
    const other = await newUser();
    const token = await resetToken(user.email);
    const wrong = await reset({ token, email: other.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expectFieldError(wrong, 'token');
    expect((await login(other.email, NEW_PASSWORD)).statusCode).toBe(422);
    expect((await login(other.email, other.password)).statusCode).toBe(200);

    const right = await reset({ token, email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(right.statusCode, right.body).toBe(200);
  });

  it('accepts the e-mail in any case', async () => {
    const user = await newUser();
    const token = await resetToken(user.email);
    const res = await reset({ token, email: user.email.toUpperCase(), password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses an expired token', async () => {
    const user = await newUser();
    const token = await resetToken(user.email);
    await t.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, user.id));
    const res = await reset({ token, email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expectFieldError(res, 'token');
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it('refuses an unknown token', async () => {
    const user = await newUser();
    const res = await reset({ token: 'x'.repeat(43), email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expectFieldError(res, 'token');
  });

  it('invalidates the other links of the user once one is used', async () => {
    const user = await newUser();
    const first = await resetToken(user.email);
    const second = await resetToken(user.email);
    expect(first).not.toBe(second);
    expect((await reset({ token: second, email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD })).statusCode).toBe(200);
    const res = await reset({ token: first, email: user.email, password: 'other-password-1', password_confirmation: 'other-password-1' });
    expectFieldError(res, 'token');
  });

  it('refuses a confirmation that does not match', async () => {
    const user = await newUser();
    const token = await resetToken(user.email);
    const res = await reset({ token, email: user.email, password: NEW_PASSWORD, password_confirmation: `${NEW_PASSWORD}!` });
    const body = expectFieldError(res, 'password_confirmation');
    expect(body.errors!.password_confirmation).toEqual(['Паролі не збігаються.']);
    // Nothing happened: the link still works.
    expect((await reset({ token, email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it.each([
    ['too short', 'short'],
    ['too long', 'x'.repeat(65)],
    ['with a NUL character', 'abc\u0000defghij'],
  ])('refuses a password %s', async (_label, password) => {
    const user = await newUser();
    const token = await resetToken(user.email);
    const res = await reset({ token, email: user.email, password, password_confirmation: password });
    expectFieldError(res, 'password');
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it('accepts exactly 8 and 64 characters', async () => {
    for (const password of ['к7ш-2вц1', 'y'.repeat(63) + '7']) {
      const user = await newUser();
      const token = await resetToken(user.email);
      const res = await reset({ token, email: user.email, password, password_confirmation: password });
      expect(res.statusCode, res.body).toBe(200);
      expect((await login(user.email, password)).statusCode).toBe(200);
    }
  });

  it('refuses a common password, whatever its case', async () => {
    const user = await newUser();
    const token = await resetToken(user.email);
    for (const password of ['12345678', 'Password1', 'QWERTY123']) {
      const res = await reset({ token, email: user.email, password, password_confirmation: password });
      expectFieldError(res, 'password');
      expect(res.json().errors.password[0]).toMatch(/поширений/);
    }
    expect((await reset({ token, email: user.email, password: 'к7ш-2вц1', password_confirmation: 'к7ш-2вц1' })).statusCode).toBe(200);
  });

  it('lists every missing field', async () => {
    const res = await reset({});
    const body = expectFieldError(res, 'token');
    for (const field of ['email', 'password', 'password_confirmation']) {
      expect(body.errors![field]?.[0], field).toMatch(UKRAINIAN);
    }
  });
});

describe('forced password change', () => {
  it('hands out a reset token in GET /user until the password is changed', async () => {
    const user = await newUser({ mustChangePassword: true });
    const session = await t.login(user.email, user.password);
    const res = await t.call('GET', `${API}/user`, { token: session });
    expect(res.statusCode, res.body).toBe(200);
    const resetTokenValue = res.json().data.reset_token;
    expect(typeof resetTokenValue).toBe('string');
    expect(resetTokenValue.length).toBeGreaterThanOrEqual(40);

    const changed = await reset({ token: resetTokenValue, email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ message: CHANGED });

    // The session that carried the change is over, like every other one.
    expect((await t.call('GET', `${API}/user`, { token: session })).statusCode).toBe(401);
    expect((await login(user.email, user.password)).statusCode).toBe(422);
    const fresh = await t.login(user.email, NEW_PASSWORD);
    const after = await t.call('GET', `${API}/user`, { token: fresh });
    expect(after.json().data.reset_token).toBeNull();
    const [row] = await t.db.select({ must: users.mustChangePassword }).from(users).where(eq(users.id, user.id));
    expect(row.must).toBe(false);
  });

  it('does not hand the token to anyone but the user', async () => {
    const user = await newUser({ mustChangePassword: true });
    const session = await t.login(user.email, user.password);
    const token = (await t.call('GET', `${API}/user`, { token: session })).json().data.reset_token as string;
    const other = await newUser();
    const res = await reset({ token, email: other.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expectFieldError(res, 'token');
  });

  it('keeps the same token across GET /user calls and refuses it once used', async () => {
    const user = await newUser({ mustChangePassword: true });
    const session = await t.login(user.email, user.password);
    const first = (await t.call('GET', `${API}/user`, { token: session })).json().data.reset_token as string;
    const second = (await t.call('GET', `${API}/user`, { token: session })).json().data.reset_token as string;
    expect(second).toBe(first);
    const res = await reset({ token: first, email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    const again = await reset({ token: first, email: user.email, password: 'another-pass-2026', password_confirmation: 'another-pass-2026' });
    expectFieldError(again, 'token');
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses every other API call until the password is changed', async () => {
    const user = await newUser({ mustChangePassword: true });
    const session = await t.login(user.email, user.password);
    const res = await t.call('GET', `${API}/complexes`, { token: session });
    expectErrorBody(res, 403);
    expect(res.json().message).toMatch(UKRAINIAN);
    expect((await t.call('GET', `${API}/user`, { token: session })).statusCode).toBe(200);
  });

  it('a user without the flag gets reset_token null', async () => {
    const user = await newUser();
    const session = await t.login(user.email, user.password);
    expect((await t.call('GET', `${API}/user`, { token: session })).json().data.reset_token).toBeNull();
  });
});
