import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '../../server/db/schema.ts';
import { ADMIN, API, createComplex, createOrganization, createUser, expectErrorBody, expectFieldError, uid, type TestApp, setupApp } from './helpers.ts';
import { residentRolesOf } from '../../server/modules/members/roles.ts';
import { makeCity, makeHouse, makeUnit } from './members-fixtures.ts';

let t: TestApp;
let admin: string;
let cityId: number;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  cityId = (await makeCity(t)).id;
});
afterAll(() => t?.close());

const M = `${API}/members`;
const list = (query = '', token = admin) => t.call('GET', `${M}${query}`, { token });
const create = (body: unknown, token = admin) => t.call('POST', M, { token, body });
const names = (res: { json(): { data: { name: string }[] } }) => res.json().data.map((m) => m.name);

/** A unique mobile number: 067 + 7 digits. */
let phoneCounter = 0;
function phone() {
  phoneCounter += 1;
  return `067${String((process.pid * 1000 + phoneCounter) % 10_000_000).padStart(7, '0')}`;
}

async function createOk(body: Record<string, unknown>, token = admin) {
  const res = await create(body, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

describe('members CRUD', () => {
  it('creates with the phone in E.164 and the e-mail lower-cased, reads, updates and deletes', async () => {
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    const house = await makeHouse(t, cityId, complex.id);
    const unit = await makeUnit(t, house.id, '15');
    const created = await createOk({ name: ' Шевченко Тарас Григорович ', phone: '067 123-45-67', email: 'Taras.S@Example.UA', realty_id: unit.id });
    expect(created).toMatchObject({
      name: 'Шевченко Тарас Григорович',
      phone: '+380671234567',
      email: 'taras.s@example.ua',
      status: 'active',
      vehicles_count: 0,
    });
    expect(created.units).toHaveLength(1);
    expect(created.units[0]).toMatchObject({
      realty_id: unit.id,
      number: '15',
      type: 'apartment',
      complex_id: complex.id,
      role: 'Власник',
      ownership_share: '1',
    });
    expect(created.units[0].address).toContain(house.streetName);

    const got = await t.call('GET', `${M}/${created.id}`, { token: admin });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toEqual(created);

    const upd = await t.call('PUT', `${M}/${created.id}`, {
      token: admin,
      body: { ...created, name: 'Шевченко Тарас', phone: '+380 50 000 11 22', email: '', status: 'inactive' },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().data).toMatchObject({ name: 'Шевченко Тарас', phone: '+380500001122', email: null, status: 'inactive' });
    expect(upd.json().data.units).toHaveLength(1);

    const del = await t.call('DELETE', `${M}/${created.id}`, { token: admin });
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toMatch(/видалено/);
    expectErrorBody(await t.call('GET', `${M}/${created.id}`, { token: admin }), 404);
    expectErrorBody(await t.call('DELETE', `${M}/${created.id}`, { token: admin }), 404);
  });

  it('refuses bad input with 422 per field and writes nothing', async () => {
    const before = (await t.db.select().from(members)).length;
    expectFieldError(await create({ name: '' }), 'name');
    expectFieldError(await create({ name: 'Петренко Олена', phone: '12345' }), 'phone');
    expectFieldError(await create({ name: 'Петренко Олена', phone: 'abc' }), 'phone');
    expectFieldError(await create({ name: 'Петренко Олена', email: 'not-an-email' }), 'email');
    expectFieldError(await create({ name: 'Петренко Олена', status: 'gone' }), 'status');
    expectFieldError(await create({ name: 'Петренко Олена', realty_id: 999999 }), 'realty_id');
    expectFieldError(await create({ name: 'Петренко Олена', realty_id: 'x' }), 'realty_id');
    expectFieldError(await create({ name: 'x'.repeat(151) }), 'name');
    expectErrorBody(await t.call('POST', M, { token: admin, raw: '{"name":' }), 400);
    expectFieldError(await t.call('GET', `${M}/abc`, { token: admin }), 'id');
    expect((await t.db.select().from(members)).length).toBe(before);
  });

  it('keeps phone and e-mail unique per organization with a clear 422', async () => {
    const p = phone();
    const email = `unique-${uid()}@test.ua`;
    const first = await createOk({ name: 'Коваль Ірина', phone: p, email });
    const samePhone = expectFieldError(await create({ name: 'Коваль Марія', phone: `+38${p}` }), 'phone');
    expect(samePhone.errors!.phone[0]).toBe('Мешканець з таким телефоном уже є.');
    const sameEmail = expectFieldError(await create({ name: 'Коваль Марія', email: email.toUpperCase() }), 'email');
    expect(sameEmail.errors!.email[0]).toBe('Мешканець з таким e-mail уже є.');
    // Saving the member itself with its own phone is fine.
    const again = await t.call('PUT', `${M}/${first.id}`, { token: admin, body: { name: 'Коваль Ірина Петрівна', phone: p, email } });
    expect(again.statusCode, again.body).toBe(200);
    // Another organization may have the same person.
    const org = await createOrganization(t.db);
    const otherAdmin = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const token = await t.login(otherAdmin.email, otherAdmin.password);
    expect((await create({ name: 'Коваль Ірина', phone: p, email }, token)).statusCode).toBe(200);
  });
});

describe('members list', () => {
  let complexA: number;
  let complexB: number;
  let houseA1: number;
  let houseA2: number;
  const tag = uid();

  beforeAll(async () => {
    complexA = (await createComplex(t.db, { organizationId: t.organizationId })).id;
    complexB = (await createComplex(t.db, { organizationId: t.organizationId })).id;
    houseA1 = (await makeHouse(t, cityId, complexA)).id;
    houseA2 = (await makeHouse(t, cityId, complexA)).id;
    const houseB = (await makeHouse(t, cityId, complexB)).id;
    const u1 = await makeUnit(t, houseA1, `1${tag}`.slice(0, 8));
    const u2 = await makeUnit(t, houseA2, '2');
    const u3 = await makeUnit(t, houseB, '3');
    await createOk({ name: `Бойко Андрій ${tag}`, phone: '0671110001', email: `bojko-${tag}@mail.ua`, realty_id: u1.id });
    await createOk({ name: `Антоненко Ґалина ${tag}`, phone: '0671110002', realty_id: u2.id, status: 'inactive' });
    await createOk({ name: `Гнатюк Єва ${tag}`, email: `gnatiuk-${tag}@mail.ua`, realty_id: u3.id });
    const family = (await residentRolesOf(t.db, t.organizationId)).find((r) => r.code === 'family')!;
    // role_id as a select's option object: its value is what counts.
    await createOk({ name: `Ярошенко Ірина ${tag}`, realty_id: u2.id, role_id: { value: family.id, label: family.name } });
  });

  it('answers data plus pagination, sorted in Ukrainian order', async () => {
    const res = await list(`?search_query=${tag}&sort=name&order=asc&per_page=10`);
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['data', 'pagination']);
    expect(names(res)).toEqual([`Антоненко Ґалина ${tag}`, `Бойко Андрій ${tag}`, `Гнатюк Єва ${tag}`, `Ярошенко Ірина ${tag}`]);
    expect(res.json().pagination).toEqual({ current_page: 1, from: 1, last_page: 1, per_page: 10, to: 4, total: 4 });
    const desc = await list(`?search_query=${tag}&sort=name&order=desc&per_page=2&page=2`);
    expect(names(desc)).toEqual([`Бойко Андрій ${tag}`, `Антоненко Ґалина ${tag}`]);
  });

  it('filters by complex, houses and status', async () => {
    expect(names(await list(`?search_query=${tag}&complex_id=${complexB}`))).toEqual([`Гнатюк Єва ${tag}`]);
    expect((await list(`?search_query=${tag}&complex_id=${complexA}`)).json().pagination.total).toBe(3);
    expect(names(await list(`?search_query=${tag}&house_ids[]=${houseA1}`))).toEqual([`Бойко Андрій ${tag}`]);
    expect((await list(`?search_query=${tag}&house_ids[]=${houseA1}&house_ids[]=${houseA2}`)).json().pagination.total).toBe(3);
    expect(names(await list(`?search_query=${tag}&status=inactive`))).toEqual([`Антоненко Ґалина ${tag}`]);
    expectFieldError(await list('?status=gone'), 'status');
    expectFieldError(await list('?house_ids[]=x'), 'house_ids.0');
    expectFieldError(await list('?sort=password'), 'sort');
  });

  it('searches name, phone (as typed), e-mail and unit number', async () => {
    expect(names(await list(`?search_query=${encodeURIComponent(`бойко андрій ${tag}`)}`))).toEqual([`Бойко Андрій ${tag}`]);
    expect(names(await list(`?search_query=${encodeURIComponent('067 111 0002')}`))).toEqual([`Антоненко Ґалина ${tag}`]);
    // Within a complex a phone number is looked up among all members first, then taken from the complex.
    expect(names(await list(`?search_query=${encodeURIComponent('+38 067 111-00-02')}&complex_id=${complexA}&sort=name`))).toEqual([`Антоненко Ґалина ${tag}`]);
    expect(names(await list(`?search_query=${encodeURIComponent('0671110002')}&complex_id=${complexB}&sort=name`))).toEqual([]);
    expect(names(await list(`?search_query=${encodeURIComponent('0671110001')}&house_ids[]=${houseA1}&complex_id=${complexA}&sort=name`))).toEqual([
      `Бойко Андрій ${tag}`,
    ]);
    expect(names(await list(`?search_query=${encodeURIComponent(`GNATIUK-${tag}`)}`))).toEqual([`Гнатюк Єва ${tag}`]);
    const byUnit = await list(`?search_query=${encodeURIComponent(`1${tag}`.slice(0, 8))}`);
    expect(names(byUnit)).toEqual([`Бойко Андрій ${tag}`]);
    expect((await list('?search_query=%25%25%25')).json().data).toEqual([]);
  });

  it('scopes staff users to members of their complexes (404 outside)', async () => {
    const staff = await createUser(t.db, {
      organizationId: t.organizationId,
      permissions: { members: ['view', 'create', 'edit', 'delete'] },
      complexIds: [complexB],
    });
    const token = await t.login(staff.email, staff.password);
    expect(names(await list(`?search_query=${tag}`, token))).toEqual([`Гнатюк Єва ${tag}`]);
    const outside = (await list(`?search_query=${encodeURIComponent(`Бойко Андрій ${tag}`)}`)).json().data[0];
    expectErrorBody(await t.call('GET', `${M}/${outside.id}`, { token }), 404);
    expectErrorBody(await t.call('PUT', `${M}/${outside.id}`, { token, body: { name: 'Зміна' } }), 404);
    expectErrorBody(await t.call('DELETE', `${M}/${outside.id}`, { token }), 404);
    // Staff must link a new member to a unit of their complexes.
    expectFieldError(await create({ name: 'Без приміщення' }, token), 'realty_id');
    const unitA = await makeUnit(t, houseA1, `x${uid()}`.slice(0, 10));
    expectFieldError(await create({ name: 'Чуже приміщення', realty_id: unitA.id }, token), 'realty_id');
    // No permission → 403.
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { members: ['view'] }, complexIds: [complexB] });
    const viewerToken = await t.login(viewer.email, viewer.password);
    expectErrorBody(await create({ name: 'Хтось' }, viewerToken), 403);
    const none = await createUser(t.db, { organizationId: t.organizationId, permissions: { complexes: ['view'] }, complexIds: [complexB] });
    expectErrorBody(await list('', await t.login(none.email, none.password)), 403);
  });

  it('does not let staff delete a member who also lives outside their complexes', async () => {
    const uB = await makeUnit(t, (await makeHouse(t, cityId, complexB)).id, '9');
    const uA = await makeUnit(t, houseA1, '9');
    const m = await createOk({ name: `Двоїста Оксана ${tag}`, realty_id: uB.id });
    const link = await t.call('POST', `${API}/residents`, {
      token: admin,
      body: { member_id: m.id, realty_id: uA.id, role_id: m.units[0].role_id, ownership_share: '' },
    });
    expect(link.statusCode, link.body).toBe(200);
    const staff = await createUser(t.db, { organizationId: t.organizationId, permissions: { members: ['view', 'delete'] }, complexIds: [complexB] });
    const token = await t.login(staff.email, staff.password);
    const got = await t.call('GET', `${M}/${m.id}`, { token });
    expect(got.json().data.units.map((u: { realty_id: number }) => u.realty_id)).toEqual([uB.id]);
    expectErrorBody(await t.call('DELETE', `${M}/${m.id}`, { token }), 409);
  });

  it('refuses a delete to a role without members.delete (403) and keeps the member', async () => {
    const unit = await makeUnit(t, (await makeHouse(t, cityId, complexB)).id, `d${uid()}`.slice(0, 10));
    const m = await createOk({ name: `Без права видалення ${tag}`, realty_id: unit.id });
    const clerk = await createUser(t.db, { organizationId: t.organizationId, permissions: { members: ['view', 'create', 'edit'] }, complexIds: [complexB] });
    const token = await t.login(clerk.email, clerk.password);
    expect((await t.call('GET', `${M}/${m.id}`, { token })).statusCode).toBe(200);
    expectErrorBody(await t.call('DELETE', `${M}/${m.id}`, { token }), 403);
    expect((await t.call('GET', `${M}/${m.id}`, { token: admin })).statusCode).toBe(200);
  });

  it('needs a token', async () => {
    expectErrorBody(await t.call('GET', M), 401);
  });
});
