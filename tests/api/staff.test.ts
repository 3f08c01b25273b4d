import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complexes, outbox, users } from '../../server/db/schema.ts';
import {
  ADMIN,
  API,
  createComplex,
  createOrganization,
  createRole,
  createUser,
  expectErrorBody,
  expectFieldError,
  STAFF,
  uid,
  type TestApp,
  setupApp,
} from './helpers.ts';

let t: TestApp;
let admin: string;
let adminId: number;
let demoComplexes: { id: number; name: string }[];

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  adminId = (await t.call('GET', `${API}/user`, { token: admin })).json().data.id;
  demoComplexes = await t.db
    .select({ id: complexes.id, name: complexes.name })
    .from(complexes)
    .where(eq(complexes.organizationId, t.organizationId))
    .orderBy(complexes.id);
});
afterAll(() => t?.close());

const S = `${API}/staff`;

interface StaffRec {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  is_admin: boolean;
  role_id: number | null;
  role: string | null;
  departure_id: number | null;
  departure: string | null;
  complex_ids: number[];
  complexes: { id: number; name: string }[];
}

const newEmail = () => `staff-${uid()}@test.ua`;
const ids = (res: { json(): { data: { data: { id: number }[] } } }) => res.json().data.data.map((r) => r.id);

async function createOk(body: Record<string, unknown>, token = admin): Promise<StaffRec> {
  const res = await t.call('POST', S, { token, body: { name: 'Петро Бондар', email: newEmail(), ...body } });
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json())).toEqual(['data']);
  return res.json().data;
}

/** The invitation link the (development) outbox holds for an address. */
async function invitationLink(email: string): Promise<string> {
  const [mail] = await t.db.select().from(outbox).where(eq(outbox.recipient, email)).orderBy(desc(outbox.id)).limit(1);
  expect(mail, `an invitation to ${email}`).toBeDefined();
  expect(mail.subject).toMatch(/Запрошення/);
  const link = /https:\/\/zhk\.test\/ResetPassword\?\S+/.exec(mail.body ?? '')?.[0];
  expect(link).toBeDefined();
  return link!;
}

async function staffUser(permissions: Record<string, string[]>, complexIds: number[]) {
  const user = await createUser(t.db, { organizationId: t.organizationId, permissions, complexIds });
  return { ...user, token: await t.login(user.email, user.password) };
}

describe('CRUD', () => {
  it('creates a staff member, invites them by e-mail, and the link sets the password', async () => {
    const role = await createRole(t.db, t.organizationId, { complexes: ['view'] });
    const email = newEmail();
    const created = await createOk({
      name: ' Марія Шевчук ',
      email: email.toUpperCase(),
      phone: '+380501112233',
      role_id: role.id,
      complex_ids: [demoComplexes[0].id],
    });
    expect(created).toMatchObject({
      name: 'Марія Шевчук',
      email,
      phone: '+380501112233',
      is_admin: false,
      role_id: role.id,
      role: role.name,
      complex_ids: [demoComplexes[0].id],
      complexes: [demoComplexes[0]],
    });

    // Nobody can sign in before the invitation is accepted…
    const link = new URL(await invitationLink(email));
    expect(link.searchParams.get('email')).toBe(email);
    // …and the link works like a reset link.
    const reset = await t.call('POST', `${API}/reset_password`, {
      body: { token: link.searchParams.get('token'), email, password: 'new-colleague-2026', password_confirmation: 'new-colleague-2026' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const token = await t.login(email, 'new-colleague-2026');
    const me = (await t.call('GET', `${API}/user`, { token })).json().data;
    expect(me.rules).toEqual({ complexes: ['view'] });
    expect(me.complexes).toEqual([demoComplexes[0]]);
  });

  it('sends the invitation again on request, at most three times an hour', async () => {
    const role = await createRole(t.db, t.organizationId, {});
    const created = await createOk({ role_id: role.id });
    const first = await invitationLink(created.email);
    const again = await t.call('POST', `${S}/${created.id}/invite`, { token: admin });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().message).toContain(created.email);
    const second = await invitationLink(created.email);
    expect(second).not.toBe(first);
    expect((await t.call('POST', `${S}/${created.id}/invite`, { token: admin })).statusCode).toBe(200);
    const limited = expectErrorBody(await t.call('POST', `${S}/${created.id}/invite`, { token: admin }), 429);
    expect(limited.message).toMatch(/тричі/);
    expectErrorBody(await t.call('POST', `${S}/${adminId}/invite`, { token: admin }), 409);
    expectErrorBody(await t.call('POST', `${S}/${created.id}/invite`, { token: await t.login(STAFF.email, STAFF.password) }), 403);
  });

  it('lists with pagination in data and the form (roles, departures) beside it', async () => {
    const res = await t.call('GET', `${S}?per_page=2&page=1`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'form']);
    expect(body.data).toMatchObject({ current_page: 1, per_page: 2, from: 1, to: 2 });
    expect(body.data.data).toHaveLength(2);
    expect(body.data.total).toBeGreaterThanOrEqual(2);
    expect(body.form.roles.map((r: { name: string }) => r.name)).toContain('Диспетчер');
    expect(body.form).toHaveProperty('departures');
    const dispatcher = (await t.call('GET', `${S}?search_query=dispatcher@demo`, { token: admin })).json().data.data;
    expect(dispatcher).toHaveLength(1);
    expect(dispatcher[0]).toMatchObject({ name: 'Оксана Коваленко', role: 'Диспетчер', is_admin: false });
  });

  it('filters by role, department and complex; sorts by name in Ukrainian order', async () => {
    const [dep] = (await t.call('POST', `${API}/staff_departure`, { token: admin, body: { name: `Відділ ${uid()}` } })).json().data;
    const roleRes = await t.call('POST', `${API}/staff_role`, { token: admin, body: { name: `Роль ${uid()}`, departure_id: dep.id } });
    const roleId = roleRes.json().id;
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    const a = await createOk({ name: 'Євген Ящук', role_id: roleId, complex_ids: [complex.id] });
    const b = await createOk({ name: 'Ґанна Іваненко', role_id: roleId, complex_ids: [complex.id] });
    const c = await createOk({ name: 'Анна Гнатюк', role_id: roleId, complex_ids: [complex.id] });
    expect(ids(await t.call('GET', `${S}?role_id=${roleId}&sort=name`, { token: admin }))).toEqual([c.id, b.id, a.id]);
    expect(ids(await t.call('GET', `${S}?departure_id=${dep.id}&sort=name&order=desc`, { token: admin }))).toEqual([a.id, b.id, c.id]);
    expect(ids(await t.call('GET', `${S}?complex_id=${complex.id}`, { token: admin })).sort()).toEqual([a.id, b.id, c.id].sort());
    const one = (await t.call('GET', `${S}?role_id=${roleId}`, { token: admin })).json().data.data[0];
    expect(one).toMatchObject({ departure_id: dep.id, departure: dep.name });
  });

  it('reads one with the form, updates and deletes', async () => {
    const role = await createRole(t.db, t.organizationId, { houses: ['view'] });
    const created = await createOk({ role_id: role.id, complex_ids: [demoComplexes[0].id, demoComplexes[1].id] });
    const got = await t.call('GET', `${S}/${created.id}`, { token: admin });
    expect(got.statusCode).toBe(200);
    expect(Object.keys(got.json()).sort()).toEqual(['data', 'form']);
    expect(got.json().data.complex_ids.sort()).toEqual([demoComplexes[0].id, demoComplexes[1].id].sort());

    const updated = await t.call('PUT', `${S}/${created.id}`, {
      token: admin,
      body: { name: 'Нове Імʼя', email: created.email, phone: null, role_id: role.id, complex_ids: [demoComplexes[2].id] },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ name: 'Нове Імʼя', phone: null, complex_ids: [demoComplexes[2].id] });

    // Made an admin: complexes no longer matter (admins see all).
    const promoted = await t.call('PUT', `${S}/${created.id}`, {
      token: admin,
      body: { name: 'Нове Імʼя', email: created.email, is_admin: true, complex_ids: [demoComplexes[0].id] },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json().data).toMatchObject({ is_admin: true, role_id: null, complex_ids: [] });

    const removed = await t.call('DELETE', `${S}/${created.id}`, { token: admin });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().message).toMatch(/видалено/);
    expectErrorBody(await t.call('GET', `${S}/${created.id}`, { token: admin }), 404);
  });

  it('cannot delete yourself or the last admin (409)', async () => {
    const self = expectErrorBody(await t.call('DELETE', `${S}/${adminId}`, { token: admin }), 409);
    expect(self.message).toMatch(/власний/);
    // In an organization with one admin, that admin can be neither deleted nor demoted by anyone.
    const org = await createOrganization(t.db);
    const only = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const second = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const token = await t.login(second.email, second.password);
    expect((await t.call('DELETE', `${S}/${only.id}`, { token })).statusCode).toBe(200);
    const last = expectErrorBody(await t.call('DELETE', `${S}/${second.id}`, { token }), 409);
    expect(last.message).toMatch(/власний|останній/);
    const demote = expectFieldError(
      await t.call('PUT', `${S}/${second.id}`, { token, body: { name: second.name, email: second.email, is_admin: false } }),
      'is_admin',
    );
    expect(demote.message).toMatch(/адміністратора/);
    expect((await t.db.select().from(users).where(eq(users.id, second.id)))[0].isAdmin).toBe(true);
  });
});

describe('validation', () => {
  it('answers 422 per field with Ukrainian messages and changes nothing', async () => {
    const before = (await t.call('GET', S, { token: admin })).json().data.total;
    expectFieldError(await t.call('POST', S, { token: admin, body: { email: newEmail() } }), 'name');
    expectFieldError(await t.call('POST', S, { token: admin, body: { name: 'Ім', email: 'not-an-email' } }), 'email');
    expectFieldError(await t.call('POST', S, { token: admin, body: { name: 'Іван', email: newEmail(), phone: 'дзвоніть' } }), 'phone');
    expectFieldError(await t.call('POST', S, { token: admin, body: { name: 'Іван', email: newEmail(), is_admin: 'так' } }), 'is_admin');
    expectFieldError(await t.call('POST', S, { token: admin, body: { name: 'Іван', email: newEmail(), role_id: 'x' } }), 'role_id');
    expectFieldError(await t.call('POST', S, { token: admin, body: { name: 'Іван', email: newEmail(), complex_ids: 'all' } }), 'complex_ids');
    expectFieldError(await t.call('POST', S, { token: admin, body: { name: 'Іван', email: newEmail() } }), 'role_id');
    expectFieldError(await t.call('POST', S, { token: admin, body: { name: 'Іван', email: STAFF.email, is_admin: true } }), 'email');
    const foreignRole = await createRole(t.db, (await createOrganization(t.db)).id, {});
    expectFieldError(await t.call('POST', S, { token: admin, body: { name: 'Іван', email: newEmail(), role_id: foreignRole.id } }), 'role_id');
    expect((await t.call('GET', S, { token: admin })).json().data.total).toBe(before);
    expectFieldError(await t.call('GET', `${S}?sort=password_hash`, { token: admin }), 'sort');
    expectFieldError(await t.call('GET', `${S}?role_id=abc`, { token: admin }), 'role_id');
    expectFieldError(await t.call('GET', `${S}/0`, { token: admin }), 'id');
  });

  it('assigns only complexes of the organization', async () => {
    const role = await createRole(t.db, t.organizationId, {});
    const foreign = await createComplex(t.db, { organizationId: (await createOrganization(t.db)).id });
    const body = expectFieldError(
      await t.call('POST', S, { token: admin, body: { name: 'Іван', email: newEmail(), role_id: role.id, complex_ids: [demoComplexes[0].id, foreign.id] } }),
      'complex_ids',
    );
    expect(body.errors!.complex_ids[0]).toContain(String(foreign.id));
  });

  it('you cannot change your own role or admin rights', async () => {
    const staff = await staffUser({ staff: ['view', 'edit'] }, [demoComplexes[0].id]);
    const other = await createRole(t.db, t.organizationId, {});
    expectFieldError(
      await t.call('PUT', `${S}/${staff.id}`, {
        token: staff.token,
        body: { name: staff.name, email: staff.email, role_id: other.id, complex_ids: [demoComplexes[0].id] },
      }),
      'role_id',
    );
    // Other fields of one's own record can be changed.
    const ok = await t.call('PUT', `${S}/${staff.id}`, {
      token: staff.token,
      body: { name: 'Сам Собі', email: staff.email, role_id: staff.roleId, complex_ids: [demoComplexes[0].id] },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('permissions and scoping', () => {
  it('the dispatcher (no staff rights) gets 403 on every staff call', async () => {
    const token = await t.login(STAFF.email, STAFF.password);
    for (const [method, url] of [
      ['GET', S],
      ['GET', `${S}/${adminId}`],
      ['POST', S],
      ['PUT', `${S}/${adminId}`],
      ['DELETE', `${S}/${adminId}`],
    ] as const) {
      expectErrorBody(await t.call(method, url, { token, body: {} }), 403);
    }
  });

  it('a staff user sees only colleagues of their complexes, never admins, and only those complexes of them', async () => {
    const [c0, c1, c2] = demoComplexes;
    const viewer = await staffUser({ staff: ['view'] }, [c0.id]);
    const colleague = await createUser(t.db, { organizationId: t.organizationId, permissions: {}, complexIds: [c0.id, c2.id] });
    const stranger = await createUser(t.db, { organizationId: t.organizationId, permissions: {}, complexIds: [c1.id] });
    const list = ids(await t.call('GET', `${S}?per_page=1000`, { token: viewer.token }));
    expect(list).toContain(colleague.id);
    expect(list).toContain(viewer.id);
    expect(list).not.toContain(stranger.id);
    expect(list).not.toContain(adminId);
    // The colleague's other complex is outside the viewer's sight.
    const seen = (await t.call('GET', `${S}/${colleague.id}`, { token: viewer.token })).json().data;
    expect(seen.complexes).toEqual([c0]);
    expectErrorBody(await t.call('GET', `${S}/${stranger.id}`, { token: viewer.token }), 404);
    expectErrorBody(await t.call('GET', `${S}/${adminId}`, { token: viewer.token }), 404);
  });

  it("another organization's staff answer 404", async () => {
    const foreign = await createUser(t.db, { organizationId: (await createOrganization(t.db)).id, isAdmin: true });
    expectErrorBody(await t.call('GET', `${S}/${foreign.id}`, { token: admin }), 404);
    expectErrorBody(await t.call('PUT', `${S}/${foreign.id}`, { token: admin, body: { name: 'Х Х', email: newEmail(), is_admin: true } }), 404);
    expectErrorBody(await t.call('DELETE', `${S}/${foreign.id}`, { token: admin }), 404);
  });

  it('a staff user cannot grant more than they have: admin rights, stronger roles, other complexes', async () => {
    const [c0, c1, c2] = demoComplexes;
    const manager = await staffUser({ staff: ['view', 'create', 'edit', 'delete'], complexes: ['view'] }, [c0.id, c1.id]);
    const weak = await createRole(t.db, t.organizationId, { complexes: ['view'] });
    const strong = await createRole(t.db, t.organizationId, { complexes: ['view', 'delete'] });
    const base = { name: 'Новий Колега', role_id: weak.id, complex_ids: [c0.id] };

    expectFieldError(await t.call('POST', S, { token: manager.token, body: { ...base, email: newEmail(), is_admin: true } }), 'is_admin');
    const tooStrong = expectFieldError(await t.call('POST', S, { token: manager.token, body: { ...base, email: newEmail(), role_id: strong.id } }), 'role_id');
    expect(tooStrong.errors!.role_id[0]).toMatch(/Комплекси — видалення/);
    expectFieldError(await t.call('POST', S, { token: manager.token, body: { ...base, email: newEmail(), complex_ids: [c2.id] } }), 'complex_ids');
    expectFieldError(await t.call('POST', S, { token: manager.token, body: { ...base, email: newEmail(), complex_ids: [] } }), 'complex_ids');
    const form = (await t.call('GET', S, { token: manager.token })).json().form;
    expect(form.roles.map((r: { id: number }) => r.id)).toContain(weak.id);
    expect(form.roles.map((r: { id: number }) => r.id)).not.toContain(strong.id);

    // Editing keeps the complexes the manager cannot see.
    const colleague = await createUser(t.db, { organizationId: t.organizationId, roleId: weak.id, complexIds: [c0.id, c2.id] });
    const res = await t.call('PUT', `${S}/${colleague.id}`, { token: manager.token, body: { ...base, email: colleague.email, complex_ids: [c1.id] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.complex_ids).toEqual([c1.id]);
    const adminView = (await t.call('GET', `${S}/${colleague.id}`, { token: admin })).json().data;
    expect(adminView.complex_ids.sort()).toEqual([c1.id, c2.id].sort());

    const created = await createOk({ ...base, email: newEmail() }, manager.token);
    expect(created.complex_ids).toEqual([c0.id]);
    expect((await t.call('DELETE', `${S}/${created.id}`, { token: manager.token })).statusCode).toBe(200);
  });

  it('a staff user may not change or delete a colleague whose role is stronger than theirs', async () => {
    const [c0] = demoComplexes;
    const manager = await staffUser({ staff: ['view', 'create', 'edit', 'delete'] }, [c0.id]);
    const strong = await createRole(t.db, t.organizationId, { staff: ['view'], houses: ['view'] });
    const weak = await createRole(t.db, t.organizationId, { staff: ['view'] });
    const senior = await createUser(t.db, { organizationId: t.organizationId, roleId: strong.id, complexIds: [c0.id] });
    const junior = await createUser(t.db, { organizationId: t.organizationId, roleId: weak.id, complexIds: [c0.id] });
    // A long page (mapped in Node on the embedded database) and a short one (built in SQL) say the same.
    for (const perPage of [1000, 25]) {
      const list = (await t.call('GET', `${S}?per_page=${perPage}&sort=created_at&order=desc`, { token: manager.token })).json().data.data as (StaffRec & {
        can_manage: boolean;
      })[];
      expect(list.find((r) => r.id === senior.id)?.can_manage).toBe(false);
      expect(list.find((r) => r.id === junior.id)?.can_manage).toBe(true);
      expect(list.find((r) => r.id === manager.id)?.can_manage).toBe(true);
    }
    expect((await t.call('GET', `${S}/${senior.id}`, { token: admin })).json().data.can_manage).toBe(true);
    const body = { name: 'Інше Імʼя', email: senior.email, role_id: weak.id, complex_ids: [c0.id] };
    expect(expectErrorBody(await t.call('PUT', `${S}/${senior.id}`, { token: manager.token, body }), 403).message).toMatch(/лише адміністратор/);
    expectErrorBody(await t.call('DELETE', `${S}/${senior.id}`, { token: manager.token }), 403);
    expect((await t.db.select().from(users).where(eq(users.id, senior.id)))[0].roleId).toBe(strong.id);
    expect((await t.call('DELETE', `${S}/${junior.id}`, { token: manager.token })).statusCode).toBe(200);
  });

  it('a role without staff.delete gets 403 on delete, and so does one without houses.delete', async () => {
    const editor = await staffUser({ staff: ['view', 'edit'], houses: ['view', 'edit'] }, [demoComplexes[0].id]);
    const colleague = await createUser(t.db, { organizationId: t.organizationId, permissions: {}, complexIds: [demoComplexes[0].id] });
    const body = expectErrorBody(await t.call('DELETE', `${S}/${colleague.id}`, { token: editor.token }), 403);
    expect(body.message).toMatch(/Недостатньо прав/);
    expectErrorBody(await t.call('DELETE', `${API}/house-types/1`, { token: editor.token }), 403);
    expect((await t.db.select().from(users).where(eq(users.id, colleague.id))).length).toBe(1);
  });
});
