import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, API, createOrganization, createRole, createUser, expectErrorBody, expectFieldError, STAFF, uid, type TestApp, setupApp } from './helpers.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

const T = `${API}/service-request-types`;

interface TypeRec {
  id: number;
  name: string;
  description: string;
  role_ids: number[];
  roles: { id: number; name: string }[];
  staff_ids: number[];
  staff: { id: number; name: string }[];
}

async function createOk(body: Record<string, unknown>, token = admin): Promise<TypeRec> {
  const res = await t.call('POST', T, { token, body: { name: `Тип ${uid()}`, ...body } });
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json())).toEqual(['data']);
  return res.json().data;
}

describe('CRUD', () => {
  it('creates a type with roles and default staff, reads, updates and deletes it', async () => {
    const plumber = await createRole(t.db, t.organizationId, {}, `Сантехнік ${uid()}`);
    const worker = await createUser(t.db, { organizationId: t.organizationId, roleId: plumber.id, name: 'Василь Коваль' });
    const name = `Сантехніка ${uid()}`;
    const created = await createOk({ name: ` ${name} `, description: 'Протікання, засмічення', role_ids: [plumber.id], staff_ids: [worker.id] });
    expect(created).toMatchObject({
      name,
      description: 'Протікання, засмічення',
      role_ids: [plumber.id],
      roles: [{ id: plumber.id, name: plumber.name }],
      staff_ids: [worker.id],
      staff: [{ id: worker.id, name: 'Василь Коваль' }],
    });

    const got = await t.call('GET', `${T}/${created.id}`, { token: admin });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toEqual(created);

    const updated = await t.call('PUT', `${T}/${created.id}`, { token: admin, body: { name: `Водопостачання ${uid()}`, role_ids: [], staff_ids: [] } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ name: expect.stringMatching(/^Водопостачання/), description: '', role_ids: [], staff_ids: [] });

    const removed = await t.call('DELETE', `${T}/${created.id}`, { token: admin });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toMatch(/видалено/);
    expectErrorBody(await t.call('GET', `${T}/${created.id}`, { token: admin }), 404);
  });

  it('lists with data plus pagination, searches, filters by role and sorts in Ukrainian order', async () => {
    const tag = uid();
    const role = await createRole(t.db, t.organizationId, {});
    const a = await createOk({ name: `Ліфт ${tag}`, role_ids: [role.id] });
    const b = await createOk({ name: `Ґрати ${tag}` });
    const c = await createOk({ name: `Електрика ${tag}`, role_ids: [role.id] });
    const res = await t.call('GET', `${T}?search_query=${tag}&sort=name`, { token: admin });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['data', 'pagination']);
    expect(res.json().pagination).toMatchObject({ current_page: 1, total: 3, from: 1, to: 3 });
    expect(res.json().data.map((x: TypeRec) => x.id)).toEqual([b.id, c.id, a.id]);
    const byRole = await t.call('GET', `${T}?role_id=${role.id}&sort=name&order=desc`, { token: admin });
    expect(byRole.json().data.map((x: TypeRec) => x.id)).toEqual([a.id, c.id]);
    const page2 = await t.call('GET', `${T}?search_query=${tag}&per_page=2&page=2`, { token: admin });
    expect(page2.json().pagination).toMatchObject({ current_page: 2, last_page: 2, from: 3, to: 3 });
  });

  it('GET /service_request-types/form answers form.staff and form.roles of the organization', async () => {
    const foreignOrg = await createOrganization(t.db);
    const foreignRole = await createRole(t.db, foreignOrg.id, {});
    const foreignUser = await createUser(t.db, { organizationId: foreignOrg.id });
    const res = await t.call('GET', `${API}/service_request-types/form`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const { form } = res.json();
    expect(Object.keys(form).sort()).toEqual(['roles', 'staff']);
    expect(form.staff).toContainEqual(expect.objectContaining({ name: 'Оксана Коваленко', role_id: expect.any(Number) }));
    expect(form.roles.map((r: { name: string }) => r.name)).toContain('Диспетчер');
    expect(form.roles.map((r: { id: number }) => r.id)).not.toContain(foreignRole.id);
    expect(form.staff.map((s: { id: number }) => s.id)).not.toContain(foreignUser.id);
  });
});

describe('validation', () => {
  it('answers 422 per field with Ukrainian messages', async () => {
    const existing = await createOk({});
    expectFieldError(await t.call('POST', T, { token: admin, body: {} }), 'name');
    expectFieldError(await t.call('POST', T, { token: admin, body: { name: existing.name.toLowerCase() } }), 'name');
    expectFieldError(await t.call('POST', T, { token: admin, body: { name: `Т ${uid()}`, description: 'x'.repeat(1001) } }), 'description');
    expectFieldError(await t.call('POST', T, { token: admin, body: { name: `Т ${uid()}`, role_ids: 'all' } }), 'role_ids');
    expectFieldError(await t.call('POST', T, { token: admin, body: { name: `Т ${uid()}`, staff_ids: [0] } }), 'staff_ids.0');
    const foreignRole = await createRole(t.db, (await createOrganization(t.db)).id, {});
    expectFieldError(await t.call('POST', T, { token: admin, body: { name: `Т ${uid()}`, role_ids: [foreignRole.id] } }), 'role_ids');
    expectFieldError(await t.call('POST', T, { token: admin, body: { name: `Т ${uid()}`, staff_ids: [2147483000] } }), 'staff_ids');
    expectFieldError(await t.call('GET', `${T}?sort=secret`, { token: admin }), 'sort');
    expectFieldError(await t.call('GET', `${T}/x`, { token: admin }), 'id');
  });

  it('default staff must hold one of the chosen roles', async () => {
    const electrician = await createRole(t.db, t.organizationId, {});
    const other = await createRole(t.db, t.organizationId, {});
    const wrong = await createUser(t.db, { organizationId: t.organizationId, roleId: other.id, name: 'Іван Невлучний' });
    const body = expectFieldError(
      await t.call('POST', T, { token: admin, body: { name: `Т ${uid()}`, role_ids: [electrician.id], staff_ids: [wrong.id] } }),
      'staff_ids',
    );
    expect(body.errors!.staff_ids[0]).toContain('Іван Невлучний');
  });

  it("another organization's type answers 404", async () => {
    const foreign = await createUser(t.db, { organizationId: (await createOrganization(t.db)).id, isAdmin: true });
    const theirs = await createOk({}, await t.login(foreign.email, foreign.password));
    expectErrorBody(await t.call('GET', `${T}/${theirs.id}`, { token: admin }), 404);
    expectErrorBody(await t.call('PUT', `${T}/${theirs.id}`, { token: admin, body: { name: 'Моє' } }), 404);
    expectErrorBody(await t.call('DELETE', `${T}/${theirs.id}`, { token: admin }), 404);
  });
});

describe('permissions', () => {
  it('the dispatcher (no rights on request types) gets 403 everywhere', async () => {
    const token = await t.login(STAFF.email, STAFF.password);
    for (const [method, url] of [
      ['GET', T],
      ['GET', `${API}/service_request-types/form`],
      ['GET', `${T}/1`],
      ['POST', T],
      ['PUT', `${T}/1`],
      ['DELETE', `${T}/1`],
    ] as const) {
      expectErrorBody(await t.call(method, url, { token, body: {} }), 403);
    }
  });

  it('view and edit without delete: delete answers 403 and the type stays', async () => {
    const user = await createUser(t.db, { organizationId: t.organizationId, permissions: { service_request_types: ['view', 'create', 'edit'] } });
    const token = await t.login(user.email, user.password);
    const mine = await createOk({}, token);
    expect((await t.call('PUT', `${T}/${mine.id}`, { token, body: { name: `${mine.name} 2` } })).statusCode).toBe(200);
    expectErrorBody(await t.call('DELETE', `${T}/${mine.id}`, { token }), 403);
    expect((await t.call('GET', `${T}/${mine.id}`, { token })).statusCode).toBe(200);
  });
});
