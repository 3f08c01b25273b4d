import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complexes, outbox, staffRoles, users } from '../../server/db/schema.ts';
import { API, createOrganization, createUser, expectFieldError, setupApp, uid, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await setupApp();
});
afterAll(() => t?.close());

const steps = async (token: string) => {
  const res = await t.call('GET', `${API}/setup`, { token });
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries((res.json().data.steps as { key: string; done: boolean }[]).map((s) => [s.key, s.done]));
};

describe('GET /setup', () => {
  it('ticks each step when its data exists in the organization', async () => {
    const org = await createOrganization(t.db);
    const admin = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const token = await t.login(admin.email, admin.password);
    expect(await steps(token)).toEqual({ complex: false, houses: false, residents: false, staff: false, request_types: false, news: false });

    await t.call('POST', `${API}/complexes`, { token, body: { name: `ЖК ${uid()}`, city: 'Київ' } });
    await createUser(t.db, { organizationId: org.id });
    await t.call('POST', `${API}/service-request-types`, { token, body: { name: 'Сантехніка' } });
    expect(await steps(token)).toEqual({ complex: true, houses: false, residents: false, staff: true, request_types: true, news: false });
  });

  it('counts the demo organization’s data as done, and reports the tutorial flag', async () => {
    const admin = await createUser(t.db, { organizationId: t.organizationId, isAdmin: true, tutorialCompleted: false });
    const token = await t.login(admin.email, admin.password);
    expect(await steps(token)).toMatchObject({ complex: true, houses: true, residents: true, request_types: true, news: true });
    expect((await t.call('POST', `${API}/user`, { token, body: { name: 'Адмін', tutorial_completed: true } })).statusCode).toBe(200);
    expect((await t.call('GET', `${API}/setup`, { token })).json().data.tutorial_completed).toBe(true);
  });
});

describe('POST /setup/step/sendInvite', () => {
  it('creates the colleague and mails the invitation, like POST /staff', async () => {
    const admin = await createUser(t.db, { organizationId: t.organizationId, isAdmin: true });
    const token = await t.login(admin.email, admin.password);
    const [complex] = await t.db.select().from(complexes).where(eq(complexes.organizationId, t.organizationId)).limit(1);
    const [role] = await t.db.select().from(staffRoles).where(eq(staffRoles.organizationId, t.organizationId)).limit(1);
    const email = `colleague-${uid()}@test.ua`;
    const res = await t.call('POST', `${API}/setup/step/sendInvite`, {
      token,
      body: { name: 'Ірина Шевчук', email, role_id: role.id, complex_ids: [complex.id] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ email, name: 'Ірина Шевчук' });
    const [created] = await t.db.select().from(users).where(eq(users.email, email));
    expect(created).toBeDefined();
    const mail = await t.db.select().from(outbox).where(eq(outbox.recipient, email));
    expect(mail).toHaveLength(1);
    expect(mail[0].body).toContain('/ResetPassword?token=');
  });

  it('refuses bad input with the field errors of POST /staff, and a user without staff rights with 403', async () => {
    const admin = await createUser(t.db, { organizationId: t.organizationId, isAdmin: true });
    const token = await t.login(admin.email, admin.password);
    expectFieldError(await t.call('POST', `${API}/setup/step/sendInvite`, { token, body: { name: 'Ірина', email: 'not-an-email' } }), 'email');
    const taken = await t.call('POST', `${API}/setup/step/sendInvite`, { token, body: { name: 'Ірина', email: admin.email } });
    expectFieldError(taken, 'email');

    const clerk = await createUser(t.db, { organizationId: t.organizationId, permissions: { complexes: ['view'] } });
    const clerkToken = await t.login(clerk.email, clerk.password);
    const refused = await t.call('POST', `${API}/setup/step/sendInvite`, { token: clerkToken, body: { name: 'Ірина', email: `x-${uid()}@test.ua` } });
    expect(refused.statusCode).toBe(403);
  });
});
