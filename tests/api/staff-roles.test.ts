import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREA_LABELS } from '../../contract/permissions.ts';
import { ADMIN, API, createOrganization, createRole, createUser, expectErrorBody, expectFieldError, STAFF, uid, type TestApp, setupApp } from './helpers.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

const D = `${API}/staff_departure`;
const R = `${API}/staff_role`;

interface DepartureRec {
  id: number;
  name: string;
  roles_count: number;
}
interface RoleRec {
  id: number;
  name: string;
  departure_id: number | null;
  departure: string | null;
  permissions: Record<string, string[]>;
  staff_count: number;
}

async function addDeparture(name = `Відділ ${uid()}`, token = admin): Promise<DepartureRec> {
  const res = await t.call('POST', D, { token, body: { name } });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { data: DepartureRec[]; id: number };
  return body.data.find((d) => d.id === body.id)!;
}

async function addRole(body: Record<string, unknown>, token = admin): Promise<RoleRec> {
  const res = await t.call('POST', R, { token, body: { name: `Роль ${uid()}`, ...body } });
  expect(res.statusCode, res.body).toBe(200);
  const json = res.json() as { data: RoleRec[]; id: number };
  return json.data.find((r) => r.id === json.id)!;
}

/** A staff user of the demo organization with these rights; returns their token. */
async function staffWith(permissions: Record<string, string[]>) {
  const user = await createUser(t.db, { organizationId: t.organizationId, permissions });
  return t.login(user.email, user.password);
}

describe('staff departures', () => {
  it('creates, lists, renames and deletes a department, answering with the new list each time', async () => {
    const name = `Диспетчерська ${uid()}`;
    const created = await t.call('POST', D, { token: admin, body: { name: `  ${name} ` } });
    expect(created.statusCode, created.body).toBe(200);
    const body = created.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'id']);
    const mine = body.data.find((d: DepartureRec) => d.id === body.id);
    expect(mine).toMatchObject({ name, roles_count: 0 });
    expect(typeof mine.created_at).toBe('string');

    const list = await t.call('GET', D, { token: admin });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((d: DepartureRec) => d.id)).toContain(body.id);

    const renamed = await t.call('PUT', `${D}/${body.id}`, { token: admin, body: { name: `${name} (нова)` } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data.find((d: DepartureRec) => d.id === body.id).name).toBe(`${name} (нова)`);

    const removed = await t.call('DELETE', `${D}/${body.id}`, { token: admin });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data.map((d: DepartureRec) => d.id)).not.toContain(body.id);
    expectErrorBody(await t.call('DELETE', `${D}/${body.id}`, { token: admin }), 404);
  });

  it('refuses an empty, too long or duplicate name with 422 on name', async () => {
    expectFieldError(await t.call('POST', D, { token: admin, body: { name: ' ' } }), 'name');
    expectFieldError(await t.call('POST', D, { token: admin, body: { name: 'x'.repeat(101) } }), 'name');
    expectFieldError(await t.call('POST', D, { token: admin, body: {} }), 'name');
    const dep = await addDeparture();
    expectFieldError(await t.call('POST', D, { token: admin, body: { name: dep.name.toUpperCase() } }), 'name');
    const other = await addDeparture();
    expectFieldError(await t.call('PUT', `${D}/${other.id}`, { token: admin, body: { name: dep.name } }), 'name');
    // Renaming to its own name (another case) is fine.
    expect((await t.call('PUT', `${D}/${dep.id}`, { token: admin, body: { name: dep.name.toLowerCase() } })).statusCode).toBe(200);
  });

  it('refuses to delete a department that holds roles (409, Ukrainian message)', async () => {
    const dep = await addDeparture();
    await addRole({ departure_id: dep.id });
    const res = await t.call('DELETE', `${D}/${dep.id}`, { token: admin });
    const body = expectErrorBody(res, 409);
    expect(body.message).toMatch(/1 роль/);
    expect((await t.call('GET', D, { token: admin })).json().data.find((d: DepartureRec) => d.id === dep.id).roles_count).toBe(1);
  });

  it("answers 404 for another organization's department and for bad ids", async () => {
    const org = await createOrganization(t.db);
    const foreignAdmin = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const foreign = await addDeparture(`Чужий ${uid()}`, await t.login(foreignAdmin.email, foreignAdmin.password));
    expectErrorBody(await t.call('PUT', `${D}/${foreign.id}`, { token: admin, body: { name: 'Новий' } }), 404);
    expectErrorBody(await t.call('DELETE', `${D}/${foreign.id}`, { token: admin }), 404);
    expect((await t.call('GET', D, { token: admin })).json().data.map((d: DepartureRec) => d.id)).not.toContain(foreign.id);
    expectFieldError(await t.call('PUT', `${D}/abc`, { token: admin, body: { name: 'Новий' } }), 'id');
    expectFieldError(await t.call('DELETE', `${D}/99999999999`, { token: admin }), 'id');
  });
});

describe('staff roles', () => {
  it('creates a role with a department and a permission matrix; list answers data and form.departures', async () => {
    const dep = await addDeparture();
    const res = await t.call('POST', R, {
      token: admin,
      body: { name: 'Старший диспетчер', departure_id: dep.id, permissions: { houses: ['edit'], complexes: ['view', 'create'] } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'form', 'id']);
    expect(body.form.departures).toContainEqual({ id: dep.id, name: dep.name });
    const role = body.data.find((r: RoleRec) => r.id === body.id);
    // Canonical order of areas and actions; an action other than view implies view.
    expect(role).toMatchObject({ name: 'Старший диспетчер', departure_id: dep.id, departure: dep.name, staff_count: 0 });
    expect(role.permissions).toEqual({ complexes: ['view', 'create'], houses: ['view', 'edit'] });
    expect(Object.keys(role.permissions)).toEqual(['complexes', 'houses']);

    const list = await t.call('GET', R, { token: admin });
    expect(list.statusCode).toBe(200);
    expect(Object.keys(list.json()).sort()).toEqual(['data', 'form']);
    expect(list.json().data.map((r: RoleRec) => r.name)).toContain('Диспетчер');
  });

  it('updates a role and its rights take effect for its holders at once', async () => {
    const role = await addRole({ permissions: { complexes: ['view'] } });
    const user = await createUser(t.db, { organizationId: t.organizationId, roleId: role.id });
    const token = await t.login(user.email, user.password);
    expect((await t.call('GET', `${API}/user`, { token })).json().data.rules).toEqual({ complexes: ['view'] });
    expectErrorBody(await t.call('GET', `${API}/house-types`, { token }), 403);

    const res = await t.call('PUT', `${R}/${role.id}`, { token: admin, body: { name: role.name, permissions: { complexes: ['view'], houses: ['view'] } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().id).toBe(role.id);
    expect(res.json().data.find((r: RoleRec) => r.id === role.id).staff_count).toBe(1);
    expect((await t.call('GET', `${API}/user`, { token })).json().data.rules).toEqual({ complexes: ['view'], houses: ['view'] });
    expect((await t.call('GET', `${API}/house-types`, { token })).statusCode).toBe(200);
  });

  it('validates name, department and permissions with 422 per field', async () => {
    expectFieldError(await t.call('POST', R, { token: admin, body: { name: '' } }), 'name');
    expectFieldError(await t.call('POST', R, { token: admin, body: { name: 'Диспетчер' } }), 'name');
    expectFieldError(await t.call('POST', R, { token: admin, body: { name: `Р ${uid()}`, departure_id: 2147483000 } }), 'departure_id');
    expectFieldError(await t.call('POST', R, { token: admin, body: { name: `Р ${uid()}`, departure_id: 'x' } }), 'departure_id');
    expectFieldError(await t.call('POST', R, { token: admin, body: { name: `Р ${uid()}`, permissions: { spaceships: ['view'] } } }), 'permissions.spaceships');
    expectFieldError(await t.call('POST', R, { token: admin, body: { name: `Р ${uid()}`, permissions: { houses: ['fly'] } } }), 'permissions.houses.0');
    expectFieldError(await t.call('POST', R, { token: admin, body: { name: `Р ${uid()}`, permissions: ['view'] } }), 'permissions');
    // Several problems at once: each field has its message.
    const both = expectErrorBody(await t.call('POST', R, { token: admin, body: { name: 'Диспетчер', departure_id: 2147483000 } }), 422);
    expect(Object.keys(both.errors!).sort()).toEqual(['departure_id', 'name']);
  });

  it('refuses to delete a role in use (409, Ukrainian message) and deletes an unused one', async () => {
    const role = await addRole({});
    await createUser(t.db, { organizationId: t.organizationId, roleId: role.id });
    const body = expectErrorBody(await t.call('DELETE', `${R}/${role.id}`, { token: admin }), 409);
    expect(body.message).toMatch(/Роль призначено 1 працівнику/);

    const unused = await addRole({});
    const res = await t.call('DELETE', `${R}/${unused.id}`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((r: RoleRec) => r.id)).not.toContain(unused.id);
    expect(res.json().form).toHaveProperty('departures');
  });

  it("answers 404 for another organization's role", async () => {
    const org = await createOrganization(t.db);
    const foreign = await createRole(t.db, org.id, {});
    expectErrorBody(await t.call('PUT', `${R}/${foreign.id}`, { token: admin, body: { name: 'Нова' } }), 404);
    expectErrorBody(await t.call('DELETE', `${R}/${foreign.id}`, { token: admin }), 404);
    expect((await t.call('GET', R, { token: admin })).json().data.map((r: RoleRec) => r.id)).not.toContain(foreign.id);
  });
});

describe('permissions on roles and departments', () => {
  it('needs the staff_roles area: the dispatcher gets 403 with a message', async () => {
    const staff = await t.login(STAFF.email, STAFF.password);
    for (const [method, url] of [
      ['GET', D],
      ['POST', D],
      ['GET', R],
      ['POST', R],
      ['PUT', `${R}/1`],
      ['DELETE', `${D}/1`],
    ] as const) {
      const body = expectErrorBody(await t.call(method, url, { token: staff, body: { name: 'Х' } }), 403);
      expect(body.message).toMatch(/прав/);
    }
  });

  it('each action needs its own right: view-only may list but not create, edit or delete', async () => {
    const token = await staffWith({ staff_roles: ['view'] });
    const role = await addRole({});
    expect((await t.call('GET', R, { token })).statusCode).toBe(200);
    expect((await t.call('GET', D, { token })).statusCode).toBe(200);
    expectErrorBody(await t.call('POST', R, { token, body: { name: `Р ${uid()}` } }), 403);
    expectErrorBody(await t.call('PUT', `${R}/${role.id}`, { token, body: { name: `Р ${uid()}` } }), 403);
    expectErrorBody(await t.call('DELETE', `${R}/${role.id}`, { token }), 403);
    expectErrorBody(await t.call('POST', D, { token, body: { name: `В ${uid()}` } }), 403);
  });

  it('a staff user cannot hand out rights they do not hold, nor change a stronger role', async () => {
    const token = await staffWith({ staff_roles: ['view', 'create', 'edit', 'delete'], complexes: ['view'] });
    const beyond = expectFieldError(
      await t.call('POST', R, { token, body: { name: `Р ${uid()}`, permissions: { complexes: ['view', 'delete'] } } }),
      'permissions',
    );
    expect(beyond.errors!.permissions[0]).toMatch(/Комплекси — видалення/);
    // Areas are named as the role matrix names them (contract/permissions.ts AREA_LABELS).
    const events = expectFieldError(await t.call('POST', R, { token, body: { name: `Р ${uid()}`, permissions: { events: ['view'] } } }), 'permissions');
    expect(events.errors!.permissions[0]).toContain(`${AREA_LABELS.events} — перегляд`);
    // Within their own rights it works.
    const ok = await t.call('POST', R, { token, body: { name: `Р ${uid()}`, permissions: { complexes: ['view'] } } });
    expect(ok.statusCode, ok.body).toBe(200);

    const strong = await addRole({ permissions: { houses: ['view', 'delete'] } });
    expectErrorBody(await t.call('PUT', `${R}/${strong.id}`, { token, body: { name: strong.name } }), 403);
    expectErrorBody(await t.call('DELETE', `${R}/${strong.id}`, { token }), 403);
  });
});
