import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, supportMessages } from '../../server/db/schema.ts';
import { API, createUser, expectErrorBody, expectFieldError, setupApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await setupApp();
});
afterAll(() => t?.close());

async function account() {
  const user = await createUser(t.db, { organizationId: t.organizationId, name: 'Олена Коваль' });
  return { ...user, token: await t.login(user.email, user.password) };
}

describe('POST /chat', () => {
  it('keeps the message and mails it to support with the user to reply to', async () => {
    const me = await account();
    const res = await t.call('POST', `${API}/chat`, { token: me.token, body: { message: 'Як імпортувати мешканців з Excel?' } });
    expect(res.statusCode, res.body).toBe(200);
    const [mail] = await t.db.select().from(outbox).where(eq(outbox.recipient, t.config.supportEmail)).orderBy(desc(outbox.id)).limit(1);
    expect(mail.subject).toContain('Олена Коваль');
    expect(mail.body).toContain('Як імпортувати мешканців з Excel?');
    expect(mail.body).toContain(me.email);
    const list = await t.call('GET', `${API}/chat`, { token: me.token });
    expect(list.json().data.map((m: { message: string }) => m.message)).toEqual(['Як імпортувати мешканців з Excel?']);
    expect(list.json().support_email).toBe(t.config.supportEmail);
  });

  it('shows each user only their own messages', async () => {
    const a = await account();
    const b = await account();
    await t.call('POST', `${API}/chat`, { token: a.token, body: { message: 'Питання від А' } });
    expect((await t.call('GET', `${API}/chat`, { token: b.token })).json().data).toEqual([]);
  });

  it.each([[{}], [{ message: '' }], [{ message: 'x'.repeat(5001) }], [{ message: 42 }]])('refuses %j with 422 and sends nothing', async (body) => {
    const me = await account();
    expectFieldError(await t.call('POST', `${API}/chat`, { token: me.token, body }), 'message');
    expect(await t.db.select().from(supportMessages).where(eq(supportMessages.userId, me.id))).toHaveLength(0);
  });

  it('allows 10 messages an hour', async () => {
    const me = await account();
    for (let i = 0; i < 10; i++) expect((await t.call('POST', `${API}/chat`, { token: me.token, body: { message: `Питання ${i}` } })).statusCode).toBe(200);
    expectErrorBody(await t.call('POST', `${API}/chat`, { token: me.token, body: { message: 'Ще одне' } }), 429);
  });
});
