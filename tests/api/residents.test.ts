import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { residents } from '../../server/db/schema.ts';
import { ADMIN, API, createComplex, createOrganization, createUser, expectErrorBody, expectFieldError, uid, type TestApp, setupApp } from './helpers.ts';
import { makeCity, makeHouse, makeUnit } from './members-fixtures.ts';

let t: TestApp;
let admin: string;
let cityId: number;
let roles: Record<string, { id: number; name: string; holds_share: boolean }>;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  cityId = (await makeCity(t)).id;
  const res = await t.call('GET', `${API}/resident-roles`, { token: admin });
  roles = Object.fromEntries(res.json().data.map((r: { code: string }) => [r.code, r]));
});
afterAll(() => t?.close());

const R = `${API}/residents`;
const link = (body: unknown, token = admin) => t.call('POST', R, { token, body });

async function member(name = `Мешканець ${uid()}`) {
  const res = await t.call('POST', `${API}/members`, { token: admin, body: { name } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; name: string };
}

describe('resident roles', () => {
  it('are the four defaults of each organization, with real ids', async () => {
    const res = await t.call('GET', `${API}/resident-roles`, { token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: { code: string; name: string; holds_share: boolean }) => [r.code, r.name, r.holds_share])).toEqual([
      ['owner', 'Власник', true],
      ['co_owner', 'Співвласник', true],
      ['tenant', 'Орендар', false],
      ['family', "Член сім'ї", false],
    ]);
    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const otherRoles = (await t.call('GET', `${API}/resident-roles`, { token: await t.login(other.email, other.password) })).json().data;
    expect(otherRoles).toHaveLength(4);
    expect(otherRoles[0].id).not.toBe(roles.owner.id);
    // A new organization has nobody yet; the demo organization has owners.
    expect(otherRoles.map((r: { residents_count: number }) => r.residents_count)).toEqual([0, 0, 0, 0]);
    expect(res.json().data[0].residents_count).toBeGreaterThan(0);
  });

  it("reads one role by GET /resident-roles/{id} (the member form asks for the chosen role); another organization's is 404", async () => {
    const res = await t.call('GET', `${API}/resident-roles/${roles.tenant.id}`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: roles.tenant.id, code: 'tenant', name: 'Орендар', holds_share: false });
    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const foreign = await t.call('GET', `${API}/resident-roles/${roles.tenant.id}`, { token: await t.login(other.email, other.password) });
    expect(expectErrorBody(foreign, 404).message).toBe('Роль мешканця не знайдено.');
  });

  it('keeps the four roles: they cannot be deleted, and whether they hold a share does not change', async () => {
    const del = await t.call('DELETE', `${API}/resident-roles/${roles.owner.id}`, { token: admin });
    expect(expectErrorBody(del, 409).message).toMatch(/Власник/);
    const owner = (await t.call('GET', `${API}/resident-roles/${roles.owner.id}`, { token: admin })).json().data;
    expectFieldError(await t.call('PUT', `${API}/resident-roles/${owner.id}`, { token: admin, body: { name: 'Власник', holds_share: false } }), 'holds_share');
    const renamed = await t.call('PUT', `${API}/resident-roles/${owner.id}`, { token: admin, body: { name: 'Власник квартири', holds_share: true } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ code: 'owner', name: 'Власник квартири', holds_share: true });
    await t.call('PUT', `${API}/resident-roles/${owner.id}`, { token: admin, body: { name: 'Власник', holds_share: true } });
  });

  it("an organization's own role comes after the four, is given to a resident, and is not deleted while a resident holds it", async () => {
    const created = await t.call('POST', `${API}/resident-roles`, { token: admin, body: { name: `Довірена особа ${uid()}`, holds_share: false } });
    expect(created.statusCode, created.body).toBe(200);
    const role = created.json().data;
    expectFieldError(await t.call('POST', `${API}/resident-roles`, { token: admin, body: { name: role.name.toUpperCase() } }), 'name');
    const codes = (await t.call('GET', `${API}/resident-roles`, { token: admin })).json().data.map((r: { code: string }) => r.code);
    expect(codes.slice(0, 4)).toEqual(['owner', 'co_owner', 'tenant', 'family']);
    expect(codes).toContain(role.code);

    const complexId = (await createComplex(t.db, { organizationId: t.organizationId })).id;
    const unitId = (await makeUnit(t, (await makeHouse(t, cityId, complexId)).id, '7')).id;
    const m = await member();
    const linked = await link({ member_id: m.id, realty_id: unitId, role_id: role.id });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(expectErrorBody(await t.call('DELETE', `${API}/resident-roles/${role.id}`, { token: admin }), 409).message).toMatch(/1 мешканець/);
    expect((await t.call('DELETE', `${R}/${linked.json().data.id}`, { token: admin })).statusCode).toBe(200);
    const del = await t.call('DELETE', `${API}/resident-roles/${role.id}`, { token: admin });
    expect(del.json()).toEqual({ message: 'Роль мешканця видалено.' });
  });
});

describe('residents', () => {
  let complexId: number;
  let unitId: number;

  beforeAll(async () => {
    complexId = (await createComplex(t.db, { organizationId: t.organizationId })).id;
    unitId = (await makeUnit(t, (await makeHouse(t, cityId, complexId)).id, '21')).id;
  });

  it('links members to a unit with roles and exact shares; shares of a unit never exceed 1', async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    const d = await member();
    const first = await link({ member_id: a.id, realty_id: unitId, role_id: roles.co_owner.id, ownership_share: '1/3' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({
      member_id: a.id,
      member_name: a.name,
      realty_id: unitId,
      number: '21',
      role: 'Співвласник',
      role_code: 'co_owner',
      ownership_share: '1/3',
      complex_id: complexId,
    });
    expect(first.json().data.ownership_share_value).toBeCloseTo(1 / 3, 10);
    // role_id as an option object; 0,5 → 1/2
    const second = await link({ member_id: b.id, realty_id: unitId, role_id: { value: roles.co_owner.id, label: 'Співвласник' }, ownership_share: '0,5' });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.ownership_share).toBe('1/2');
    // 1/3 + 1/2 + 1/6 = 1 exactly; anything more is refused with what is already taken.
    const tooMuch = expectFieldError(await link({ member_id: c.id, realty_id: unitId, role_id: roles.co_owner.id, ownership_share: '20%' }), 'ownership_share');
    expect(tooMuch.errors!.ownership_share[0]).toContain('5/6');
    const third = await link({ member_id: c.id, realty_id: unitId, role_id: roles.co_owner.id, ownership_share: '1/6' });
    expect(third.statusCode, third.body).toBe(200);
    // A tenant holds no share; a family member is fine without one.
    expectFieldError(await link({ member_id: d.id, realty_id: unitId, role_id: roles.tenant.id, ownership_share: '1/2' }), 'ownership_share');
    const tenant = await link({ member_id: d.id, realty_id: unitId, role_id: roles.tenant.id, ownership_share: null });
    expect(tenant.statusCode, tenant.body).toBe(200);
    expect(tenant.json().data.ownership_share).toBeNull();
    // The same member twice on one unit.
    expectFieldError(await link({ member_id: d.id, realty_id: unitId, role_id: roles.family.id }), 'realty_id');

    // Changing a share checks the sum without the link being changed.
    const upd = await t.call('PUT', `${R}/${first.json().data.id}`, { token: admin, body: { ...first.json().data, ownership_share: '2/6' } });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().data.ownership_share).toBe('1/3');
    expectFieldError(
      await t.call('PUT', `${R}/${first.json().data.id}`, { token: admin, body: { realty_id: unitId, role_id: roles.co_owner.id, ownership_share: '1/2' } }),
      'ownership_share',
    );

    // The unit's residents, and one member's units (resident_id is the member's id).
    const ofUnit = await t.call('GET', `${R}?realty_id=${unitId}`, { token: admin });
    expect(ofUnit.json().pagination.total).toBe(4);
    const ofMember = await t.call('GET', `${R}?resident_id=${a.id}`, { token: admin });
    expect(ofMember.json().data.map((r: { realty_id: number }) => r.realty_id)).toEqual([unitId]);

    const del = await t.call('DELETE', `${R}/${tenant.json().data.id}`, { token: admin });
    expect(del.statusCode).toBe(200);
    expect(await t.db.select().from(residents).where(eq(residents.id, tenant.json().data.id))).toEqual([]);
  });

  it('owners without a share own the whole unit; a co-owner must give one', async () => {
    const unit = await makeUnit(t, (await makeHouse(t, cityId, complexId)).id, '5');
    const owner = await link({ member_id: (await member()).id, realty_id: unit.id, role_id: roles.owner.id, ownership_share: '' });
    expect(owner.json().data.ownership_share).toBe('1');
    expectFieldError(await link({ member_id: (await member()).id, realty_id: unit.id, role_id: roles.co_owner.id }), 'ownership_share');
    for (const bad of ['0', '3/2', 'abc', '1/0', '-1/2']) {
      expectFieldError(await link({ member_id: (await member()).id, realty_id: unit.id, role_id: roles.co_owner.id, ownership_share: bad }), 'ownership_share');
    }
  });

  it('answers the documented defaults: page 1, 10 per page, data plus pagination', async () => {
    const res = await t.call('GET', R, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['data', 'pagination']);
    expect(res.json().pagination.per_page).toBe(10);
    expect(res.json().pagination.current_page).toBe(1);
    expectFieldError(await t.call('GET', `${R}?resident_id=abc`, { token: admin }), 'resident_id');
    expectFieldError(await t.call('GET', `${R}?per_page=0`, { token: admin }), 'per_page');
  });

  it('validates body references and refuses other organizations and scopes', async () => {
    const m = await member();
    expectFieldError(await link({ member_id: m.id, realty_id: unitId, role_id: 999999 }), 'role_id');
    expectFieldError(await link({ member_id: 999999, realty_id: unitId, role_id: roles.tenant.id }), 'member_id');
    expectFieldError(await link({ member_id: m.id, realty_id: 999999, role_id: roles.tenant.id }), 'realty_id');
    expectFieldError(await link({ member_id: m.id, realty_id: unitId, role_id: 'owner' }), 'role_id');
    expectFieldError(await link({ member_id: m.id, realty_id: unitId, role_id: { label: 'x' } }), 'role_id');
    // Another organization's role id is not ours.
    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const foreignRoles = (await t.call('GET', `${API}/resident-roles`, { token: await t.login(other.email, other.password) })).json().data;
    expectFieldError(await link({ member_id: m.id, realty_id: unitId, role_id: foreignRoles[2].id }), 'role_id');

    // Staff outside the complex: 404 on the link, 422 on a body that refers to it.
    const otherComplex = (await createComplex(t.db, { organizationId: t.organizationId })).id;
    const staff = await createUser(t.db, {
      organizationId: t.organizationId,
      permissions: { members: ['view', 'create', 'edit', 'delete'] },
      complexIds: [otherComplex],
    });
    const token = await t.login(staff.email, staff.password);
    const ok = await link({ member_id: m.id, realty_id: unitId, role_id: roles.tenant.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await t.call('GET', R, { token })).statusCode).toBe(200);
    expect((await t.call('GET', `${R}?resident_id=${m.id}`, { token })).json().data).toEqual([]);
    expectErrorBody(await t.call('PUT', `${R}/${ok.json().data.id}`, { token, body: { realty_id: unitId, role_id: roles.tenant.id } }), 404);
    expectErrorBody(await t.call('DELETE', `${R}/${ok.json().data.id}`, { token }), 404);
    expectFieldError(await link({ member_id: m.id, realty_id: unitId, role_id: roles.family.id }, token), 'member_id');
  });
});
