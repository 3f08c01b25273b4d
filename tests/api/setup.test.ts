import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchForm } from '../../contract/reference.ts';
import { complexes, houses, outbox, settlements, staffRoles, streets, users } from '../../server/db/schema.ts';
import { ADMIN, API, createComplex, createOrganization, createRole, createUser, expectFieldError, setupApp, uid, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await setupApp();
});
afterAll(() => t?.close());

/** A street of its own in the first settlement of the reference: a house address no other test uses. */
async function houseAddress() {
  const [city] = await t.db.select({ id: settlements.id }).from(settlements).limit(1);
  const name = `Вулиця ${uid()}`;
  const [street] = await t.db
    .insert(streets)
    .values({ settlementId: city.id, name, type: 'вулиця', searchName: searchForm(name) })
    .returning();
  return { settlementId: city.id, streetId: street.id, number: '1' };
}

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
    expect(await steps(token)).toEqual({
      complex: false,
      houses: false,
      residents: false,
      staff_roles: false,
      staff: false,
      request_types: false,
      news: false,
    });

    await t.call('POST', `${API}/complexes`, { token, body: { name: `ЖК ${uid()}`, city: 'Київ' } });
    await createUser(t.db, { organizationId: org.id });
    await t.call('POST', `${API}/service-request-types`, { token, body: { name: 'Сантехніка' } });
    expect(await steps(token)).toEqual({
      complex: true,
      houses: false,
      residents: false,
      staff_roles: false,
      staff: true,
      request_types: true,
      news: false,
    });
    await createRole(t.db, org.id, { service_requests: ['view'] });
    expect(await steps(token)).toMatchObject({ staff_roles: true });
  });

  it('lists the steps in order, staff roles before the invitation', async () => {
    const org = await createOrganization(t.db);
    const admin = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const token = await t.login(admin.email, admin.password);
    const res = await t.call('GET', `${API}/setup`, { token });
    expect(res.json().data.steps.map((s: { key: string }) => s.key)).toEqual([
      'complex',
      'houses',
      'residents',
      'staff_roles',
      'staff',
      'request_types',
      'news',
    ]);
  });

  it('leads «До будинків» to the first complex without houses, else the first complex; none without a complex', async () => {
    const org = await createOrganization(t.db);
    const admin = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const token = await t.login(admin.email, admin.password);
    const housesStep = async () =>
      ((await t.call('GET', `${API}/setup`, { token })).json().data.steps as { key: string; complex_id?: number | null }[]).find((s) => s.key === 'houses');
    expect((await housesStep())?.complex_id).toBeNull();

    const first = await createComplex(t.db, { organizationId: org.id });
    const second = await createComplex(t.db, { organizationId: org.id });
    expect((await housesStep())?.complex_id).toBe(first.id);
    await t.db.insert(houses).values({ organizationId: org.id, complexId: first.id, ...(await houseAddress()) });
    expect((await housesStep())?.complex_id).toBe(second.id);
    await t.db.insert(houses).values({ organizationId: org.id, complexId: second.id, ...(await houseAddress()) });
    expect((await housesStep())?.complex_id).toBe(first.id);
  });

  it('leads a staff member only to a complex of theirs', async () => {
    const org = await createOrganization(t.db);
    const mine = await createComplex(t.db, { organizationId: org.id });
    const other = await createComplex(t.db, { organizationId: org.id });
    expect(other.id).toBeGreaterThan(mine.id);
    const clerk = await createUser(t.db, { organizationId: org.id, permissions: { houses: ['view'] }, complexIds: [other.id] });
    const token = await t.login(clerk.email, clerk.password);
    const res = await t.call('GET', `${API}/setup`, { token });
    expect(res.json().data.steps.find((s: { key: string }) => s.key === 'houses').complex_id).toBe(other.id);
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

describe('the seeded admin', () => {
  it('has finished «З чого почати?» in the demo, whose steps are all done, and not on a clean install', async () => {
    const demoToken = await t.login(ADMIN.email, ADMIN.password);
    const demo = (await t.call('GET', `${API}/setup`, { token: demoToken })).json().data;
    expect(demo.steps.every((s: { done: boolean }) => s.done)).toBe(true);
    expect(demo.tutorial_completed).toBe(true);

    const clean = await setupApp({ env: { SEED_DEMO: '0' } });
    try {
      const token = await clean.login(ADMIN.email, ADMIN.password);
      const data = (await clean.call('GET', `${API}/setup`, { token })).json().data;
      expect(data.steps.some((s: { done: boolean }) => s.done)).toBe(false);
      expect(data.tutorial_completed).toBe(false);
    } finally {
      await clean.close();
    }
  });
});
