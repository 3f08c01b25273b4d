import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchForm } from '../../contract/reference.ts';
import { DEMO_HOUSE_TYPES } from '../../server/seed.ts';
import { houses, houseTypes, settlements, streets } from '../../server/db/schema.ts';
import { ADMIN, API, createOrganization, createUser, expectErrorBody, expectFieldError, STAFF, uid, type Method, type TestApp, setupApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let cityId: number;
let streetId: number;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const name = `Місто ${uid()}`;
  [{ id: cityId }] = await t.db
    .insert(settlements)
    .values({ code: `TEST${uid()}`, name, category: 'М', region: 'Тестова', searchName: searchForm(name) })
    .returning({ id: settlements.id });
  const street = `Вулиця ${uid()}`;
  [{ id: streetId }] = await t.db
    .insert(streets)
    .values({ settlementId: cityId, name: street, type: 'вулиця', searchName: searchForm(street) })
    .returning({ id: streets.id });
});
afterAll(() => t?.close());

const T = `${API}/house-types`;
const list = (query = '', token = admin) => t.call('GET', `${T}${query}`, { token });
const create = (body: unknown, token = admin) => t.call('POST', T, { token, body });
const getOne = (id: number | string, token = admin) => t.call('GET', `${T}/${id}`, { token });
const update = (id: number | string, body: unknown, token = admin) => t.call('PUT', `${T}/${id}`, { token, body });
const remove = (id: number | string, token = admin) => t.call('DELETE', `${T}/${id}`, { token });

interface TypeRec {
  id: number;
  name: string;
  houses_count: number;
  created_at: string;
  updated_at: string;
}

async function createOk(name: string, token = admin): Promise<TypeRec> {
  const res = await create({ name }, token);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json())).toEqual(['data']);
  return res.json().data;
}

let houseNumber = 0;
async function addHouses(typeId: number, n: number) {
  for (let i = 0; i < n; i++) {
    houseNumber += 1;
    await t.db.insert(houses).values({ organizationId: t.organizationId, settlementId: cityId, streetId, number: String(houseNumber), houseTypeId: typeId });
  }
}

describe('CRUD', () => {
  it('creates, reads, renames and deletes a type', async () => {
    const name = `Дуплекс ${uid()}`;
    const created = await createOk(`  ${name} `);
    expect(created).toEqual({ id: expect.any(Number), name, houses_count: 0, created_at: expect.any(String), updated_at: expect.any(String) });
    expect((await getOne(created.id)).json()).toEqual({ data: created });

    const put = await update(created.id, { name: `${name} новий` });
    expect(put.statusCode, put.body).toBe(200);
    expect(Object.keys(put.json())).toEqual(['data']);
    expect(put.json().data).toMatchObject({ id: created.id, name: `${name} новий`, houses_count: 0, created_at: created.created_at });

    const del = await remove(created.id);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'Тип будинку видалено.' });
    for (const res of [await getOne(created.id), await update(created.id, { name: `Інший ${uid()}` }), await remove(created.id)]) {
      expect(expectErrorBody(res, 404).message).toBe('Тип будинку не знайдено.');
    }
  });

  it('lists types as data plus pagination, with the seeded ones and house counts', async () => {
    const res = await list('?per_page=100');
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['data', 'pagination']);
    expect(Object.keys(res.json().pagination).sort()).toEqual(['current_page', 'from', 'last_page', 'per_page', 'to', 'total']);
    const names = res.json().data.map((x: TypeRec) => x.name);
    expect(names).toEqual(expect.arrayContaining([...DEMO_HOUSE_TYPES]));

    const type = await createOk(`Лічильник ${uid()}`);
    await addHouses(type.id, 2);
    const found = (await list(`?search_query=${encodeURIComponent(type.name)}`)).json();
    expect(found.data).toEqual([{ ...type, houses_count: 2 }]);
    expect(found.pagination).toMatchObject({ total: 1, current_page: 1, from: 1, to: 1, last_page: 1 });
    expect((await getOne(type.id)).json().data.houses_count).toBe(2);
  });

  it('sorts by name in Ukrainian order and pages', async () => {
    const tag = uid();
    for (const w of ['Яр', 'Ґанок', 'Гай', 'Їжак', 'Іва']) await createOk(`${w} ${tag}`);
    const names = (await list(`?search_query=${tag}&sort=name`)).json().data.map((x: TypeRec) => x.name.split(' ')[0]);
    expect(names).toEqual(['Гай', 'Ґанок', 'Іва', 'Їжак', 'Яр']);
    const desc = (await list(`?search_query=${tag}&sort=name&order=desc&per_page=2&page=2`)).json();
    expect(desc.data.map((x: TypeRec) => x.name.split(' ')[0])).toEqual(['Іва', 'Ґанок']);
    expect(desc.pagination).toMatchObject({ current_page: 2, from: 3, to: 4, last_page: 3, total: 5 });
  });
});

describe('validation', () => {
  it('requires a name of 2 to 100 characters', async () => {
    for (const body of [{}, { name: '' }, { name: ' Я ' }, { name: 'Т'.repeat(101) }, { name: 5 }, { name: 'a\u0000b' }]) {
      expectFieldError(await create(body), 'name');
    }
  });

  it('refuses a duplicate name in the organization, whatever the case', async () => {
    const name = `Вілла ${uid()}`;
    const first = await createOk(name);
    for (const candidate of [name, name.toUpperCase(), ` ${name.toLowerCase()} `]) {
      expect(expectFieldError(await create({ name: candidate }), 'name').errors!.name).toEqual(['Тип будинку з такою назвою вже існує.']);
    }
    const second = await createOk(`${name} 2`);
    expectFieldError(await update(second.id, { name: name.toLowerCase() }), 'name');
    expect((await update(first.id, { name: name.toUpperCase() })).statusCode).toBe(200);
    expectFieldError(await create({ name: 'багатоквартирний' }), 'name');

    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    expect((await create({ name }, await t.login(other.email, other.password))).statusCode).toBe(200);
  });

  it.each(['abc', '0', '-1', '2147483648'])('answers 4xx, never 500, for id %s', async (id) => {
    for (const res of [await getOne(id), await update(id, { name: `Тип ${uid()}` }), await remove(id)]) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
  });

  it.each([
    ['sort=houses_count', 'sort'],
    ['order=x', 'order'],
    ['page=0', 'page'],
  ])('refuses %s with 422', async (q, field) => {
    expectFieldError(await list(`?${q}`), field);
  });
});

describe('a type in use', () => {
  it.each([
    [1, 'Тип використовують 1 будинок, тому його не можна видалити. Спершу змініть тип цих будинків.'],
    [3, 'Тип використовують 3 будинки, тому його не можна видалити. Спершу змініть тип цих будинків.'],
    [5, 'Тип використовують 5 будинків, тому його не можна видалити. Спершу змініть тип цих будинків.'],
  ])('cannot be deleted while %i houses have it (409)', async (n, message) => {
    const type = await createOk(`Зайнятий ${uid()}`);
    await addHouses(type.id, n);
    expect(expectErrorBody(await remove(type.id), 409).message).toBe(message);
    expect((await getOne(type.id)).statusCode).toBe(200);
    // Once no house has it, it can go.
    await t.db.update(houses).set({ houseTypeId: null }).where(eq(houses.houseTypeId, type.id));
    expect((await remove(type.id)).statusCode).toBe(200);
    expect(await t.db.select().from(houseTypes).where(eq(houseTypes.id, type.id))).toEqual([]);
  });
});

describe('access', () => {
  it("keeps another organization's types out of reach", async () => {
    const type = await createOk(`Свій ${uid()}`);
    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const token = await t.login(other.email, other.password);
    expect((await list('?per_page=1000', token)).json().data.map((x: TypeRec) => x.id)).not.toContain(type.id);
    for (const res of [await getOne(type.id, token), await update(type.id, { name: 'Захоплено' }, token), await remove(type.id, token)]) {
      expectErrorBody(res, 404);
    }
  });

  it('follows the houses permission', async () => {
    const type = await createOk(`Права ${uid()}`);
    const dispatcher = await t.login(STAFF.email, STAFF.password);
    expect((await list('', dispatcher)).statusCode).toBe(200);
    expect((await getOne(type.id, dispatcher)).statusCode).toBe(200);
    for (const res of [
      await create({ name: `Ні ${uid()}` }, dispatcher),
      await update(type.id, { name: `Ні ${uid()}` }, dispatcher),
      await remove(type.id, dispatcher),
    ]) {
      expectErrorBody(res, 403);
    }
    const none = await createUser(t.db, { organizationId: t.organizationId, permissions: { complexes: ['view'] } });
    const token = await t.login(none.email, none.password);
    expectErrorBody(await list('', token), 403);

    const editor = await createUser(t.db, { organizationId: t.organizationId, permissions: { houses: ['view', 'create', 'edit', 'delete'] } });
    const editorToken = await t.login(editor.email, editor.password);
    const made = await createOk(`Редактор ${uid()}`, editorToken);
    expect((await remove(made.id, editorToken)).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const calls: [Method, string][] = [
      ['GET', T],
      ['POST', T],
      ['GET', `${T}/1`],
      ['PUT', `${T}/1`],
      ['DELETE', `${T}/1`],
    ];
    for (const [method, url] of calls)
      expect((await t.call(method, url, { body: method === 'GET' || method === 'DELETE' ? undefined : { name: 'Тип' } })).statusCode).toBe(401);
  });
});
