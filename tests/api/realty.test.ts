import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchForm } from '../../contract/reference.ts';
import { houses, realty, settlements, streets } from '../../server/db/schema.ts';
import { searchWords } from '../../server/modules/realty/search.ts';
import {
  ADMIN,
  API,
  createComplex,
  createOrganization,
  createUser,
  expectErrorBody,
  expectFieldError,
  STAFF,
  uid,
  type Method,
  type TestApp,
  setupApp,
} from './helpers.ts';

let t: TestApp;
let admin: string;
let cityId: number;
let cityName: string;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  cityName = `Місто ${uid()}`;
  [{ id: cityId }] = await t.db
    .insert(settlements)
    .values({ code: `TEST${uid()}`, name: cityName, category: 'М', region: 'Тестова', searchName: searchForm(cityName) })
    .returning({ id: settlements.id });
});
afterAll(() => t?.close());

const R = `${API}/realty`;
const list = (query = '', token = admin) => t.call('GET', `${R}${query}`, { token });
const create = (body: unknown, token = admin) => t.call('POST', R, { token, body });
const getOne = (id: number | string, token = admin) => t.call('GET', `${R}/${id}`, { token });
const update = (id: number | string, body: unknown, token = admin) => t.call('PUT', `${R}/${id}`, { token, body });
const remove = (id: number | string, token = admin) => t.call('DELETE', `${R}/${id}`, { token });
const ids = (res: { json(): { main_data: { data: { id: number }[] } } }) => res.json().main_data.data.map((r) => r.id);

interface RealtyRec {
  id: number;
  house_id: number;
  complex_id: number | null;
  address: string;
  type: string;
  number: string;
  area: number | null;
  floor: number | null;
  entrance: number | null;
  created_at: string;
  updated_at: string;
}

/** A house on a street of its own (the street name makes its address searchable). */
async function makeHouse(complexId: number | null = null, organizationId = t.organizationId) {
  const streetName = `Вулиця ${uid()}`;
  const [street] = await t.db
    .insert(streets)
    .values({ settlementId: cityId, name: streetName, type: 'вулиця', searchName: searchForm(streetName) })
    .returning();
  const [house] = await t.db.insert(houses).values({ organizationId, complexId, settlementId: cityId, streetId: street.id, number: '5' }).returning();
  return { ...house, streetName, address: `м. ${cityName}, вулиця ${streetName}, 5` };
}

async function createOk(body: Record<string, unknown>, token = admin): Promise<RealtyRec> {
  const res = await create(body, token);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json())).toEqual(['data']);
  return res.json().data;
}

describe('CRUD', () => {
  it('creates, reads, updates and deletes a unit', async () => {
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    const house = await makeHouse(complex.id);
    const created = await createOk({ house_id: house.id, type: 'apartment', number: ' 12 ', area: '54.30', floor: 3, entrance: '1' });
    expect(created).toEqual({
      id: expect.any(Number),
      house_id: house.id,
      complex_id: complex.id,
      address: house.address,
      type: 'apartment',
      number: '12',
      area: 54.3,
      floor: 3,
      entrance: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await getOne(created.id)).json()).toEqual({ data: created });

    const put = await update(created.id, { house_id: house.id, type: 'commercial', number: '12', area: 120.05, floor: -1 });
    expect(put.statusCode, put.body).toBe(200);
    expect(Object.keys(put.json())).toEqual(['data']);
    expect(put.json().data).toMatchObject({ id: created.id, type: 'commercial', area: 120.05, floor: -1, entrance: null, created_at: created.created_at });
    expect((await getOne(created.id)).json().data).toEqual(put.json().data);

    const del = await remove(created.id);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'Приміщення видалено.' });
    for (const res of [await getOne(created.id), await update(created.id, { house_id: house.id, type: 'apartment', number: '1' }), await remove(created.id)]) {
      expect(expectErrorBody(res, 404).message).toBe('Приміщення не знайдено.');
    }
  });

  it('keeps the area a number with two decimals, or null', async () => {
    const house = await makeHouse();
    expect((await createOk({ house_id: house.id, type: 'storage', number: '1', area: 3 })).area).toBe(3);
    const big = await createOk({ house_id: house.id, type: 'storage', number: '2', area: 99999.99 });
    expect(big.area).toBe(99999.99);
    expect((await createOk({ house_id: house.id, type: 'storage', number: '3', area: 0.01 })).area).toBe(0.01);
    expect((await createOk({ house_id: house.id, type: 'storage', number: '4' })).area).toBeNull();
    const [row] = await t.db.select().from(realty).where(eq(realty.id, big.id));
    expect(row.area).toBe('99999.99');
  });
});

describe('validation', () => {
  it.each([
    ['area', 12.345],
    ['area', '12.345'],
    ['area', 0],
    ['area', -5],
    ['area', 100001],
    ['area', 'великий'],
    ['type', 'garage'],
    ['type', null],
    ['number', ''],
    ['number', 'н'.repeat(21)],
    ['number', 5],
    ['floor', -11],
    ['floor', 201],
    ['floor', 2.5],
    ['entrance', 0],
    ['house_id', 'x'],
    ['house_id', 0],
  ])('refuses %s = %j with 422', async (field, value) => {
    const house = await makeHouse();
    const body = { house_id: house.id, type: 'apartment', number: uid(), [field]: value };
    const res = expectFieldError(await create(body), field);
    if (field === 'area' && value === 12.345) expect(res.errors!.area).toEqual(['Площа — не більше двох знаків після коми.']);
  });

  it('requires a house of the organization', async () => {
    expectFieldError(await create({ type: 'apartment', number: '1' }), 'house_id');
    expect(expectFieldError(await create({ house_id: 2147483647, type: 'apartment', number: '1' }), 'house_id').errors!.house_id).toEqual([
      'Поле «Будинок»: запис не знайдено.',
    ]);
    const org = await createOrganization(t.db);
    const foreign = await makeHouse(null, org.id);
    expectFieldError(await create({ house_id: foreign.id, type: 'apartment', number: '1' }), 'house_id');
  });

  it('answers 4xx, never 500, for bodies and ids of the wrong shape', async () => {
    for (const raw of ['[]', '"x"', 'null', '{"house_id":']) {
      const res = await t.call('POST', R, { token: admin, raw });
      expect(res.statusCode, raw).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, raw).toBeLessThan(500);
    }
    for (const id of ['abc', '0', '2147483648', '1.5']) {
      for (const res of [await getOne(id), await update(id, { house_id: 1, type: 'apartment', number: '1' }), await remove(id)]) {
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
      }
    }
  });

  it('keeps unit numbers unique per house and type, whatever the case', async () => {
    const house = await makeHouse();
    const other = await makeHouse();
    const first = await createOk({ house_id: house.id, type: 'apartment', number: '7а' });
    for (const number of ['7а', '7А', ' 7а ']) {
      const res = expectFieldError(await create({ house_id: house.id, type: 'apartment', number }), 'number');
      expect(res.errors!.number).toEqual(['У цьому будинку вже є приміщення цього типу з таким номером.']);
    }
    // The same number is another unit for another type or in another house.
    const parking = await createOk({ house_id: house.id, type: 'parking', number: '7а' });
    await createOk({ house_id: other.id, type: 'apartment', number: '7а' });
    expectFieldError(await update(parking.id, { house_id: house.id, type: 'apartment', number: '7А' }), 'number');
    expect((await update(first.id, { house_id: house.id, type: 'apartment', number: '7А', area: 40 })).statusCode).toBe(200);
  });
});

describe('list', () => {
  it('answers the paginator fields under main_data', async () => {
    const house = await makeHouse();
    for (const n of ['1', '2', '3']) await createOk({ house_id: house.id, type: 'apartment', number: n });
    const res = await list(`?house_id=${house.id}&per_page=2`);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['main_data']);
    expect(res.json().main_data).toMatchObject({ current_page: 1, from: 1, to: 2, last_page: 2, per_page: 2, total: 3 });
    expect(res.json().main_data.data[0]).toMatchObject({ house_id: house.id, address: house.address, complex_id: null });
  });

  it('filters by type, house and complex', async () => {
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    const a = await makeHouse(complex.id);
    const b = await makeHouse(complex.id);
    const c = await makeHouse();
    const a1 = await createOk({ house_id: a.id, type: 'apartment', number: '1' });
    const a2 = await createOk({ house_id: a.id, type: 'parking', number: '1' });
    const b1 = await createOk({ house_id: b.id, type: 'apartment', number: '1' });
    await createOk({ house_id: c.id, type: 'apartment', number: '1' });
    expect(ids(await list(`?house_id=${a.id}`))).toEqual([a1.id, a2.id]);
    expect(ids(await list(`?house_id=${a.id}&type=parking`))).toEqual([a2.id]);
    expect(ids(await list(`?complex_id=${complex.id}`))).toEqual([a1.id, a2.id, b1.id]);
    expect(ids(await list(`?complex_id=${complex.id}&type=apartment`))).toEqual([a1.id, b1.id]);
    const parking = (await list('?type=parking&per_page=1000')).json().main_data.data as RealtyRec[];
    expect(parking.every((r) => r.type === 'parking')).toBe(true);
    expect(parking.map((r) => r.id)).toContain(a2.id);
  });

  it('searches the number and the address of the house', async () => {
    const house = await makeHouse();
    const tag = uid();
    const unit = await createOk({ house_id: house.id, type: 'storage', number: `К-${tag}` });
    const flat = await createOk({ house_id: house.id, type: 'apartment', number: '1' });
    expect(ids(await list(`?search_query=${encodeURIComponent(`к-${tag}`)}`))).toEqual([unit.id]);
    expect(ids(await list(`?search_query=${encodeURIComponent(house.streetName.toLowerCase())}`))).toEqual([unit.id, flat.id]);
    expect(ids(await list(`?search_query=${encodeURIComponent(house.address)}&type=apartment`))).toEqual([flat.id]);
    for (const q of ['%', '_', "' OR 1=1 --"]) expect((await list(`?search_query=${encodeURIComponent(q)}`)).statusCode).toBe(200);
  });

  it('searches words of a unit label or address in any order, the type named by a word', async () => {
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    const house = await makeHouse(complex.id);
    const other = await makeHouse();
    const flat = await createOk({ house_id: house.id, type: 'apartment', number: '17' });
    const parking = await createOk({ house_id: house.id, type: 'parking', number: '17' });
    const storage = await createOk({ house_id: house.id, type: 'storage', number: '3' });
    const elsewhere = await createOk({ house_id: other.id, type: 'apartment', number: '17' });
    const found = (q: string, extra = '') => list(`?search_query=${encodeURIComponent(q)}${extra}&per_page=100`).then(ids);
    // The type words of the picker's labels: «кв. 17, вул. …, 5», «паркомісце 17, …», «комора 3, …».
    expect(await found(`кв. 17, вул. ${house.streetName}, 5`)).toEqual([flat.id]);
    expect(await found(`паркомісце 17 ${house.streetName}`)).toEqual([parking.id]);
    expect(await found(`комора ${house.streetName}`)).toEqual([storage.id]);
    expect(await found(`кв.17 ${house.streetName}`)).toEqual([flat.id]);
    // Any order, with «№»; the street's own words without its type.
    expect(await found(`${house.streetName} №17`)).toEqual([flat.id, parking.id]);
    expect(await found(`17 ${house.streetName.split(' ')[1]}`)).toEqual([flat.id, parking.id]);
    // Every word must match: the other house's flat 17 is not on this street.
    expect(await found(`кв. 17 ${other.streetName}`)).toEqual([elsewhere.id]);
    expect(await found(`кв. 17 ${house.streetName} ${other.streetName}`)).toEqual([]);
    // Only the chosen complex: the picker sends complex_id with the words.
    expect(await found('кв. 17', `&complex_id=${complex.id}`)).toEqual([flat.id]);
  });

  it('reads the words of a search: type words and the number after them, «№», commas and street abbreviations', () => {
    expect(searchWords('кв. 12, вул. Липова, 5')).toEqual({ type: 'apartment', number: '12', words: ['вулиця', 'Липова', '5'] });
    expect(searchWords('паркомісце №3')).toEqual({ type: 'parking', number: '3', words: [] });
    expect(searchWords('комерційне прим. 2')).toEqual({ type: 'commercial', number: '2', words: [] });
    expect(searchWords('parking space 3')).toEqual({ type: 'parking', number: '3', words: [] });
    expect(searchWords('Кв.7 Липова')).toEqual({ type: 'apartment', number: '7', words: ['Липова'] });
    expect(searchWords('Липова 12 5')).toEqual({ words: ['Липова', '12', '5'] });
    // A second type word, or a street after the type, is a word like any other.
    expect(searchWords('кв. комора')).toEqual({ type: 'apartment', words: ['комора'] });
    expect(searchWords('комора Липова 7')).toEqual({ type: 'storage', words: ['Липова', '7'] });
    expect(searchWords('комора Б')).toEqual({ type: 'storage', number: 'Б', words: [] });
    // A whole address is more words than are looked up one by one: one phrase, as typed.
    expect(searchWords('м. Київ, вулиця Липова, 12, секція 1')).toEqual({ words: ['м. Київ, вулиця Липова, 12, секція 1'] });
  });

  it('reads a number after a type word as the unit’s, and a number among the words as a whole one of the address', async () => {
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    const house = await makeHouse(complex.id); // number 5
    const p1 = await createOk({ house_id: house.id, type: 'parking', number: '1' });
    const p12 = await createOk({ house_id: house.id, type: 'parking', number: '12' });
    const p5 = await createOk({ house_id: house.id, type: 'parking', number: '5' });
    const p25 = await createOk({ house_id: house.id, type: 'parking', number: '25' });
    const found = (q: string) => list(`?search_query=${encodeURIComponent(q)}&complex_id=${complex.id}&per_page=100`).then(ids);
    // «паркомісце 1»: numbers starting with 1, not every unit of a house whose address has a 1.
    expect(await found('паркомісце 1')).toEqual([p1.id, p12.id]);
    // «5» among the words: house 5 (all its units), or a unit number starting with 5; never 25.
    expect(await found(`паркомісце ${house.streetName} 5`)).toEqual([p1.id, p12.id, p5.id, p25.id]);
    expect(await found('паркомісце 2')).toEqual([p25.id]);
  });

  it('keeps a staff member’s search inside their complexes', async () => {
    const mine = await createComplex(t.db, { organizationId: t.organizationId });
    const theirs = await createComplex(t.db, { organizationId: t.organizationId });
    const inMine = await createOk({ house_id: (await makeHouse(mine.id)).id, type: 'apartment', number: '42' });
    const inTheirs = await createOk({ house_id: (await makeHouse(theirs.id)).id, type: 'apartment', number: '42' });
    const clerk = await createUser(t.db, { organizationId: t.organizationId, permissions: { realty: ['view'] }, complexIds: [mine.id] });
    const token = await t.login(clerk.email, clerk.password);
    const found = (q: string) => list(`?search_query=${encodeURIComponent('кв. 42')}${q}&per_page=100`, token).then(ids);
    expect(await found('')).toEqual([inMine.id]);
    expect(await found(`&complex_id=${mine.id}`)).toEqual([inMine.id]);
    expect(await found(`&complex_id=${theirs.id}`)).toEqual([]);
    expect(inTheirs.id).toBeGreaterThan(0);
  });

  it('sorts numbers naturally, and by area and floor with empty values last', async () => {
    const house = await makeHouse();
    const make = async (number: string, area: number | null, floor: number | null) =>
      (await createOk({ house_id: house.id, type: 'apartment', number, area, floor })).id;
    const n10 = await make('10', 30, 2);
    const n2 = await make('2', null, 1);
    const nB = await make('Б', 50, null);
    const n10a = await make('10А', 20, 3);
    const n1 = await make('1', 40, -1);
    const sorted = (q: string) => list(`?house_id=${house.id}&${q}`).then(ids);
    expect(await sorted('sort=number')).toEqual([n1, n2, n10, n10a, nB]);
    expect(await sorted('sort=number&order=desc')).toEqual([n10a, n10, n2, n1, nB]);
    expect(await sorted('sort=area')).toEqual([n10a, n10, n1, nB, n2]);
    expect(await sorted('sort=area&order=desc')).toEqual([nB, n1, n10, n10a, n2]);
    expect(await sorted('sort=floor')).toEqual([n1, n2, n10, n10a, nB]);
    expect(await sorted('sort=id&order=desc')).toEqual([n1, n10a, nB, n2, n10]);
  });

  it('sorts by house, then naturally by number within each house', async () => {
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    const first = await makeHouse(complex.id);
    const second = await makeHouse(complex.id);
    const make = async (houseId: number, number: string) => (await createOk({ house_id: houseId, type: 'parking', number })).id;
    const b10 = await make(second.id, '10');
    const a2 = await make(first.id, '2');
    const b1 = await make(second.id, '1');
    const a10 = await make(first.id, '10');
    const sorted = (order: string) => list(`?complex_id=${complex.id}&sort=house&order=${order}`).then(ids);
    expect(await sorted('asc')).toEqual([a2, a10, b1, b10]);
    expect(await sorted('desc')).toEqual([b10, b1, a10, a2]);
  });

  it.each([
    ['sort=price', 'sort'],
    ['type=garage', 'type'],
    ['house_id=abc', 'house_id'],
    ['complex_id=0', 'complex_id'],
    ['order=sideways', 'order'],
    [`search_query=${'x'.repeat(201)}`, 'search_query'],
  ])('refuses %s with 422', async (q, field) => {
    expectFieldError(await list(`?${q}`), field);
  });
});

describe('scoping', () => {
  async function staffSetup() {
    const mine = await createComplex(t.db, { organizationId: t.organizationId });
    const theirs = await createComplex(t.db, { organizationId: t.organizationId });
    const user = await createUser(t.db, {
      organizationId: t.organizationId,
      permissions: { realty: ['view', 'create', 'edit', 'delete'] },
      complexIds: [mine.id],
    });
    const token = await t.login(user.email, user.password);
    const myHouse = await makeHouse(mine.id);
    const theirHouse = await makeHouse(theirs.id);
    const looseHouse = await makeHouse();
    const myUnit = await createOk({ house_id: myHouse.id, type: 'apartment', number: '1' });
    const theirUnit = await createOk({ house_id: theirHouse.id, type: 'apartment', number: '1' });
    const looseUnit = await createOk({ house_id: looseHouse.id, type: 'apartment', number: '1' });
    return { mine, theirs, token, myHouse, theirHouse, myUnit, theirUnit, looseUnit };
  }

  it('answers 404 to a staff user for units outside their complexes and lists only theirs', async () => {
    const { theirs, token, myHouse, myUnit, theirUnit, looseUnit } = await staffSetup();
    expect(ids(await list('?per_page=1000', token))).toEqual([myUnit.id]);
    expect(ids(await list(`?complex_id=${theirs.id}`, token))).toEqual([]);
    expect((await getOne(myUnit.id, token)).statusCode).toBe(200);
    for (const unit of [theirUnit, looseUnit]) {
      for (const res of [
        await getOne(unit.id, token),
        await update(unit.id, { house_id: myHouse.id, type: 'apartment', number: '99' }, token),
        await remove(unit.id, token),
      ]) {
        expect(expectErrorBody(res, 404).message).toBe('Приміщення не знайдено.');
      }
    }
    expect((await getOne(theirUnit.id)).json().data.number).toBe('1');
  });

  it('lets a staff user add units only to houses of their complexes', async () => {
    const { token, myHouse, theirHouse, myUnit } = await staffSetup();
    expectFieldError(await create({ house_id: theirHouse.id, type: 'parking', number: '1' }, token), 'house_id');
    expect((await create({ house_id: myHouse.id, type: 'parking', number: '1' }, token)).statusCode).toBe(200);
    expectFieldError(await update(myUnit.id, { house_id: theirHouse.id, type: 'apartment', number: '5' }, token), 'house_id');
    expect((await getOne(myUnit.id)).json().data.house_id).toBe(myHouse.id);
  });

  it('follows the realty permission', async () => {
    const dispatcher = await t.login(STAFF.email, STAFF.password);
    expectErrorBody(await list('', dispatcher), 403);
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { realty: ['view'] } });
    const token = await t.login(viewer.email, viewer.password);
    expect((await list('', token)).json().main_data.total).toBe(0);
    expectErrorBody(await create({ house_id: 1, type: 'apartment', number: '1' }, token), 403);
  });

  it("hides one organization's units from another organization's admin", async () => {
    const house = await makeHouse();
    const unit = await createOk({ house_id: house.id, type: 'apartment', number: '1' });
    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const token = await t.login(other.email, other.password);
    expect((await list('', token)).json().main_data.total).toBe(0);
    for (const res of [
      await getOne(unit.id, token),
      await update(unit.id, { house_id: house.id, type: 'apartment', number: '2' }, token),
      await remove(unit.id, token),
    ]) {
      expectErrorBody(res, 404);
    }
  });

  it('answers 401 without a token', async () => {
    const calls: [Method, string][] = [
      ['GET', R],
      ['POST', R],
      ['GET', `${R}/1`],
      ['PUT', `${R}/1`],
      ['DELETE', `${R}/1`],
    ];
    for (const [method, url] of calls) {
      const res = await t.call(method, url, { body: method === 'POST' || method === 'PUT' ? { house_id: 1, type: 'apartment', number: '1' } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
