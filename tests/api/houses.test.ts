import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchForm } from '../../contract/reference.ts';
import { DEMO_HOUSE_TYPES, seedDemoHouses } from '../../server/seed.ts';
import { complexes, houses, houseTypes, realty, settlements, streets } from '../../server/db/schema.ts';
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
/** A city and two of its streets made by this file, so that nothing depends on the reference. */
let city: { id: number; name: string };
let lypova: number;
let sadova: number;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  city = await makeCity('М');
  lypova = await makeStreet(city.id, `Липова ${uid()}`);
  sadova = await makeStreet(city.id, `Садова ${uid()}`);
});
afterAll(() => t?.close());

const H = `${API}/houses`;

async function makeCity(category: string, name = `Місто ${uid()}`) {
  const [row] = await t.db
    .insert(settlements)
    .values({ code: `TEST${uid()}`, name, category, region: 'Тестова', searchName: searchForm(name) })
    .returning({ id: settlements.id, name: settlements.name });
  return row;
}

async function makeStreet(settlementId: number, name: string, type: string | null = 'вулиця') {
  const [row] = await t.db
    .insert(streets)
    .values({ settlementId, name, type, searchName: searchForm(name) })
    .returning({ id: streets.id });
  return row.id;
}

async function makeType(organizationId = t.organizationId, name = `Тип ${uid()}`) {
  const [row] = await t.db.insert(houseTypes).values({ organizationId, name }).returning();
  return row;
}

let numberCounter = 100;
const nextNumber = () => String((numberCounter += 1));

const body = (overrides: Record<string, unknown> = {}) => ({ city_id: city.id, street_id: lypova, number: nextNumber(), ...overrides });

const list = (query = '', token = admin) => t.call('GET', `${H}${query}`, { token });
const create = (b: unknown, token = admin) => t.call('POST', H, { token, body: b });
const getOne = (id: number | string, token = admin) => t.call('GET', `${H}/${id}`, { token });
const update = (id: number | string, b: unknown, token = admin) => t.call('PUT', `${H}/${id}`, { token, body: b });
const remove = (id: number | string, token = admin) => t.call('DELETE', `${H}/${id}`, { token });
const unlink = (b: unknown, token = admin) => t.call('POST', `${H}/unlink`, { token, body: b });

interface HouseRec {
  id: number;
  complex_id: number | null;
  complex_name: string | null;
  city_id: number;
  city: string;
  region: string;
  street_id: number;
  street: string;
  street_type: string | null;
  number: string;
  building: string;
  address: string;
  house_type_id: number | null;
  house_type: string | null;
  floors: number | null;
  entrances: number | null;
  realty_counts: Record<string, number>;
  created_at: string;
  updated_at: string;
}

async function createOk(b: Record<string, unknown>, token = admin): Promise<HouseRec> {
  const res = await create(b, token);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json())).toEqual(['data']);
  return res.json().data;
}

const ids = (res: { json(): { main_data: { data: { id: number }[] } } }) => res.json().main_data.data.map((h) => h.id);

async function addUnit(houseId: number, type: 'apartment' | 'parking' | 'storage' | 'commercial', number: string) {
  await t.db.insert(realty).values({ organizationId: t.organizationId, houseId, type, number });
}

describe('CRUD', () => {
  it('creates, reads, updates and deletes a house', async () => {
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    const type = await makeType();
    const number = nextNumber();
    const created = await createOk({
      complex_id: complex.id,
      city_id: city.id,
      street_id: lypova,
      number: ` ${number} `,
      building: 'А',
      house_type_id: type.id,
      floors: '9',
      entrances: 2,
    });
    const [street] = await t.db.select().from(streets).where(eq(streets.id, lypova));
    expect(created).toEqual({
      id: expect.any(Number),
      complex_id: complex.id,
      complex_name: complex.name,
      city_id: city.id,
      city: city.name,
      region: 'Тестова',
      street_id: lypova,
      street: street.name,
      street_type: 'вулиця',
      number,
      building: 'А',
      address: `м. ${city.name}, вулиця ${street.name}, ${number}А`,
      house_type_id: type.id,
      house_type: type.name,
      floors: 9,
      entrances: 2,
      realty_counts: { apartment: 0, parking: 0, storage: 0, commercial: 0 },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(new Date(created.created_at).toISOString()).toBe(created.created_at);

    const one = await getOne(created.id);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ data: created });

    const put = await update(created.id, { city_id: city.id, street_id: sadova, number, building: 'секція 2' });
    expect(put.statusCode, put.body).toBe(200);
    expect(Object.keys(put.json())).toEqual(['data']);
    const updated = put.json().data as HouseRec;
    // PUT replaces the record: what is left out becomes empty.
    expect(updated).toMatchObject({
      id: created.id,
      complex_id: null,
      complex_name: null,
      street_id: sadova,
      building: 'секція 2',
      house_type_id: null,
      floors: null,
      entrances: null,
    });
    expect(updated.address).toMatch(new RegExp(`, ${number}, секція 2$`));
    expect(updated.created_at).toBe(created.created_at);
    expect((await getOne(created.id)).json().data).toEqual(updated);

    const del = await remove(created.id);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toEqual({ message: 'Будинок видалено.' });
    for (const res of [await getOne(created.id), await update(created.id, body()), await remove(created.id)]) {
      expect(expectErrorBody(res, 404).message).toBe('Будинок не знайдено.');
    }
  });

  it('deletes the units of a deleted house with it, and says so', async () => {
    const house = await createOk(body());
    await addUnit(house.id, 'apartment', '1');
    await addUnit(house.id, 'apartment', '2');
    await addUnit(house.id, 'parking', '1');
    expect((await getOne(house.id)).json().data.realty_counts).toEqual({ apartment: 2, parking: 1, storage: 0, commercial: 0 });
    const res = await remove(house.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Будинок видалено разом з 3 приміщеннями.');
    expect(await t.db.select().from(realty).where(eq(realty.houseId, house.id))).toEqual([]);
  });

  it('writes the address by settlement category, street type and building', async () => {
    const cases: [string, string | null, string, (c: string, s: string, n: string) => string][] = [
      ['К', 'проспект', '', (c, s, n) => `м. ${c}, проспект ${s}, ${n}`],
      ['Х', 'вулиця', 'б', (c, s, n) => `с-ще ${c}, вулиця ${s}, ${n}б`],
      ['С', 'провулок', 'корпус 3', (c, s, n) => `с. ${c}, провулок ${s}, ${n}, корпус 3`],
      ['М', null, '2', (c, s, n) => `м. ${c}, ${s}, ${n}, 2`],
    ];
    for (const [category, type, building, expected] of cases) {
      const c = await makeCity(category);
      const streetName = `Вулиця ${uid()}`;
      const s = await makeStreet(c.id, streetName, type);
      const number = nextNumber();
      const house = await createOk({ city_id: c.id, street_id: s, number, building });
      expect(house.address).toBe(expected(c.name, streetName, number));
      // Whatever the answer shows can be searched for.
      expect(ids(await list(`?search_query=${encodeURIComponent(house.address)}`))).toEqual([house.id]);
    }
  });

  it('ignores fields a client may not set', async () => {
    const other = await createOrganization(t.db);
    const house = await createOk({ ...body(), id: 1, organization_id: other.id, realty_counts: { apartment: 5 } });
    const [row] = await t.db.select().from(houses).where(eq(houses.id, house.id));
    expect(row.organizationId).toBe(t.organizationId);
    expect(house.realty_counts.apartment).toBe(0);
  });

  it('takes a cleared optional field (null, as a form sends it) as empty', async () => {
    const house = await createOk(body({ building: 'Б', street_name: null }));
    expect(house.building).toBe('Б');
    const res = await update(house.id, body({ number: house.number, building: null, street_name: null, floors: null }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.building).toBe('');
    expect(res.json().data.floors).toBeNull();
  });
});

describe('streets typed by name', () => {
  it('adds a new street to the city, and a second house on it reuses the street', async () => {
    const name = `Нова ${uid()}`;
    const first = await createOk({ city_id: city.id, street_name: `  ${name} `, number: '1' });
    const added = await t.db
      .select()
      .from(streets)
      .where(and(eq(streets.settlementId, city.id), eq(streets.searchName, searchForm(name))));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ id: first.street_id, name, source: 'admin', type: 'вулиця' });
    expect(first.address).toBe(`м. ${city.name}, вулиця ${name}, 1`);

    const second = await createOk({ city_id: city.id, street_name: name.toUpperCase(), number: '2' });
    expect(second.street_id).toBe(first.street_id);
    expect(
      await t.db
        .select()
        .from(streets)
        .where(eq(streets.searchName, searchForm(name))),
    ).toHaveLength(1);
    // street_id wins over a name sent with it.
    const third = await createOk({ city_id: city.id, street_id: sadova, street_name: `Інша ${uid()}`, number: nextNumber() });
    expect(third.street_id).toBe(sadova);
  });

  it('finds an existing street by name whatever the case and apostrophe', async () => {
    const name = `Б’янки ${uid()}`;
    const existing = await makeStreet(city.id, name);
    const house = await createOk({ city_id: city.id, street_name: name.replace('’', "'").toLowerCase(), number: nextNumber() });
    expect(house.street_id).toBe(existing);
  });

  it('reads the street type from the typed name', async () => {
    const tag = uid();
    const cases: [string, string, string][] = [
      [`вул. Квіткова ${tag}`, 'вулиця', `Квіткова ${tag}`],
      [`просп. Миру ${tag}`, 'проспект', `Миру ${tag}`],
      [`Французький ${tag} бульвар`, 'бульвар', `Французький ${tag}`],
      [`провулок Тихий ${tag}`, 'провулок', `Тихий ${tag}`],
    ];
    for (const [typed, type, name] of cases) {
      const house = await createOk({ city_id: city.id, street_name: typed, number: nextNumber() });
      expect({ type: house.street_type, name: house.street }, typed).toEqual({ type, name });
    }
  });

  it('adds the street in the chosen city only', async () => {
    const other = await makeCity('С');
    const name = `Спільна ${uid()}`;
    const a = await createOk({ city_id: city.id, street_name: name, number: '1' });
    const b = await createOk({ city_id: other.id, street_name: name, number: '1' });
    expect(a.street_id).not.toBe(b.street_id);
  });

  it('adds no street when the house is refused', async () => {
    const name = `Відмова ${uid()}`;
    expectFieldError(await create({ city_id: city.id, street_name: name, number: '1', house_type_id: 2147483647 }), 'house_type_id');
    expect(
      await t.db
        .select()
        .from(streets)
        .where(eq(streets.searchName, searchForm(name))),
    ).toEqual([]);
  });
});

describe('validation', () => {
  it('requires a city, a street and a number', async () => {
    expectFieldError(await create({ street_id: lypova, number: '1' }), 'city_id');
    expectFieldError(await create({ city_id: city.id, number: '1' }), 'street_id');
    expectFieldError(await create({ city_id: city.id, street_name: 'Я', number: '1' }), 'street_id');
    expectFieldError(await create({ city_id: city.id, street_id: lypova }), 'number');
    expectFieldError(await create({ city_id: city.id, street_id: lypova, number: '   ' }), 'number');
    expectFieldError(await create({ city_id: city.id, street_id: lypova, number: '1'.repeat(21) }), 'number');
    expectFieldError(await create(body({ building: 'б'.repeat(31) })), 'building');
  });

  it.each([
    ['floors', 0],
    ['floors', 201],
    ['floors', 1.5],
    ['floors', 'багато'],
    ['entrances', 101],
    ['entrances', -1],
    ['city_id', 'Київ'],
    ['city_id', 0],
    ['street_id', 2147483648],
    ['complex_id', 'abc'],
    ['house_type_id', -3],
    ['number', 12],
    ['number', ['1']],
    ['street_name', { uk: 'Нова' }],
    ['number', 'a\u0000b'],
  ])('refuses %s = %j with 422', async (field, value) => {
    expectFieldError(await create(body({ [field]: value })), field);
  });

  it('answers 4xx, never 500, for bodies of the wrong shape', async () => {
    for (const raw of ['[]', '"house"', '42', 'null', '{"city_id":', '{}']) {
      const res = await t.call('POST', H, { token: admin, raw });
      expect(res.statusCode, raw).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, raw).toBeLessThan(500);
      expectErrorBody(res, res.statusCode);
    }
  });

  it('refuses a city, street, complex or type that does not exist or is not the organization’s', async () => {
    const otherOrg = await createOrganization(t.db);
    const foreignComplex = await createComplex(t.db, { organizationId: otherOrg.id });
    const foreignType = await makeType(otherOrg.id);
    const otherCity = await makeCity('М');
    const otherStreet = await makeStreet(otherCity.id, `Чужа ${uid()}`);

    expect(expectFieldError(await create(body({ city_id: 2147483647 })), 'city_id').errors!.city_id).toEqual(['Населений пункт не знайдено.']);
    expect(expectFieldError(await create(body({ street_id: 2147483647 })), 'street_id').errors!.street_id).toEqual(['Вулицю не знайдено.']);
    expect(expectFieldError(await create(body({ street_id: otherStreet })), 'street_id').errors!.street_id).toEqual([
      'Ця вулиця не належить обраному населеному пункту.',
    ]);
    expect(expectFieldError(await create(body({ complex_id: foreignComplex.id })), 'complex_id').errors!.complex_id).toEqual(['Комплекс не знайдено.']);
    expect(expectFieldError(await create(body({ house_type_id: foreignType.id })), 'house_type_id').errors!.house_type_id).toEqual([
      'Тип будинку не знайдено.',
    ]);
    // Every problem at once.
    const all = expectFieldError(await create(body({ street_id: otherStreet, complex_id: foreignComplex.id, house_type_id: foreignType.id })), 'street_id');
    expect(Object.keys(all.errors!).sort()).toEqual(['complex_id', 'house_type_id', 'street_id']);
  });

  it('refuses a second house at the same address, whatever the case, on create and update', async () => {
    const number = `${nextNumber()}б`;
    const first = await createOk(body({ number, building: 'Секція 1' }));
    for (const candidate of [
      { number, building: 'Секція 1' },
      { number: number.toUpperCase(), building: 'секція 1' },
      { number: ` ${number}`, building: 'СЕКЦІЯ 1 ' },
    ]) {
      const res = expectFieldError(await create(body(candidate)), 'number');
      expect(res.errors!.number).toEqual(['Будинок з такою адресою вже існує.']);
    }
    // Another building, another street or another organization is another address.
    await createOk(body({ number, building: 'Секція 2' }));
    const second = await createOk(body({ number, street_id: sadova, building: 'Секція 1' }));
    expectFieldError(await update(second.id, body({ number, building: 'секція 1' })), 'number');
    expect((await update(first.id, body({ number: number.toUpperCase(), building: 'Секція 1', floors: 5 }))).statusCode).toBe(200);

    const org = await createOrganization(t.db);
    const otherAdmin = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const token = await t.login(otherAdmin.email, otherAdmin.password);
    expect((await create(body({ number, building: 'Секція 1' }), token)).statusCode).toBe(200);
  });
});

describe('ids', () => {
  it.each(['abc', '0', '-1', '1.5', '2147483648', '%20'])('answers 4xx, never 500, for id %s', async (id) => {
    for (const res of [await getOne(id), await update(id, body()), await remove(id)]) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expectErrorBody(res, res.statusCode);
    }
  });
});

describe('list', () => {
  /** A complex with houses on a street of its own, so filters and sorting can be checked exactly. */
  async function fixture(numbers: string[]) {
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    const streetName = `Тестова ${uid()}`;
    const street = await makeStreet(city.id, streetName);
    const made: HouseRec[] = [];
    for (const n of numbers) made.push(await createOk({ complex_id: complex.id, city_id: city.id, street_id: street, number: n }));
    return { complex, street, streetName, made };
  }

  it('answers the paginator fields under main_data', async () => {
    const { complex } = await fixture(['1', '2', '3']);
    const res = await list(`?complex_id=${complex.id}&per_page=2&page=2`);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['main_data']);
    const main = res.json().main_data;
    expect(Object.keys(main).sort()).toEqual(['current_page', 'data', 'from', 'last_page', 'per_page', 'to', 'total']);
    expect(main).toMatchObject({ current_page: 2, from: 3, to: 3, last_page: 2, per_page: 2, total: 3 });
    expect(main.data).toHaveLength(1);
  });

  it('filters by one complex or a list of complexes', async () => {
    const a = await fixture(['1', '2']);
    const b = await fixture(['1']);
    const c = await fixture(['1']);
    expect(ids(await list(`?complex_id=${a.complex.id}`))).toEqual(a.made.map((h) => h.id));
    expect(ids(await list(`?complex_ids[]=${a.complex.id}&complex_ids[]=${b.complex.id}`)).sort()).toEqual([...a.made, ...b.made].map((h) => h.id).sort());
    expect(ids(await list(`?complex_ids[]=${c.complex.id}`))).toEqual([c.made[0].id]);
    expect(ids(await list(`?complex_ids=${c.complex.id}`))).toEqual([c.made[0].id]);
    expect(ids(await list(`?complex_id=${a.complex.id}&complex_ids[]=${b.complex.id}`))).toEqual([]);
  });

  it('filters by city and street, each an id or a name', async () => {
    const c = await makeCity('М', `Ямпіль ${uid()}`);
    const sName = `Вишнева ${uid()}`;
    const s = await makeStreet(c.id, sName);
    const h1 = await createOk({ city_id: c.id, street_id: s, number: '1' });
    const h2 = await createOk({ city_id: c.id, street_name: `Інша ${uid()}`, number: '1' });
    expect(ids(await list(`?city=${c.id}`)).sort()).toEqual([h1.id, h2.id].sort());
    expect(ids(await list(`?city=${encodeURIComponent(c.name.toUpperCase())}`)).sort()).toEqual([h1.id, h2.id].sort());
    expect(ids(await list(`?street=${s}`))).toEqual([h1.id]);
    expect(ids(await list(`?city=${c.id}&street=${encodeURIComponent(sName.toLowerCase())}`))).toEqual([h1.id]);
    // A name matches whole, not in part.
    expect(ids(await list(`?city=${encodeURIComponent(c.name.slice(0, 4))}`))).toEqual([]);
    for (const q of ['?city=99999999999', '?street=0', '?city=%27%20OR%201%3D1', '?street=%00']) {
      const res = await list(q);
      expect(res.statusCode, q).toBe(200);
    }
    expect(ids(await list('?city=99999999999'))).toEqual([]);
  });

  it('searches the written address, case- and apostrophe-insensitively', async () => {
    const name = `Б’янкова ${uid()}`;
    const s = await makeStreet(city.id, name);
    const house = await createOk({ city_id: city.id, street_id: s, number: '7', building: 'В' });
    for (const q of [house.address, name.toUpperCase(), name.replace('’', "'"), `${name}, 7В`, `вулиця ${name}`]) {
      expect(ids(await list(`?search_query=${encodeURIComponent(q)}`)), q).toEqual([house.id]);
    }
    for (const q of ['%', '_', "' OR 1=1 --"]) expect((await list(`?search_query=${encodeURIComponent(q)}`)).statusCode).toBe(200);
  });

  it('sorts by address in Ukrainian order, numbers naturally', async () => {
    const tag = uid();
    const street = async (word: string) => makeStreet(city.id, `${word} ${tag}`);
    const [ivy, yar, gai] = [await street('Іва'), await street('Яр'), await street('Ґай')];
    const mk = async (s: number, number: string, building = '') => (await createOk({ city_id: city.id, street_id: s, number, building })).id;
    const expected = [await mk(gai, '3'), await mk(ivy, '2'), await mk(ivy, '10'), await mk(ivy, '10', 'А'), await mk(ivy, '10', 'Б'), await mk(yar, '1')];
    // Created out of order on purpose.
    const extra = await mk(ivy, '9');
    expected.splice(2, 0, extra);
    const res = await list(`?search_query=${tag}&sort=address&per_page=50`);
    expect(ids(res)).toEqual(expected);
    expect(ids(await list(`?search_query=${tag}&sort=address&order=desc&per_page=50`))).toEqual([...expected].reverse());
    const byNumber = ids(await list(`?search_query=${tag}&sort=number&per_page=50`));
    expect(byNumber.slice(0, 3)).toEqual([expected[6], expected[1], expected[0]]);
    expect((await list(`?search_query=${tag}&sort=created_at`)).statusCode).toBe(200);
    expect(ids(await list(`?search_query=${tag}&sort=id&order=desc&per_page=50`))).toEqual([...expected].sort((a, b) => b - a));
  });

  it('shows the unit counts of every house of the page', async () => {
    const { complex, made } = await fixture(['1', '2']);
    await addUnit(made[0].id, 'apartment', '1');
    await addUnit(made[0].id, 'apartment', '2');
    await addUnit(made[0].id, 'storage', '1');
    await addUnit(made[1].id, 'commercial', '1');
    const data = (await list(`?complex_id=${complex.id}`)).json().main_data.data as HouseRec[];
    expect(data.map((h) => h.realty_counts)).toEqual([
      { apartment: 2, parking: 0, storage: 1, commercial: 0 },
      { apartment: 0, parking: 0, storage: 0, commercial: 1 },
    ]);
  });

  it.each([
    ['sort=password', 'sort'],
    ['order=up', 'order'],
    ['complex_id=abc', 'complex_id'],
    ['complex_ids[]=abc', 'complex_ids.0'],
    ['complex_ids[]=', 'complex_ids.0'],
    ['unlinked=maybe', 'unlinked'],
    [`city=${'м'.repeat(101)}`, 'city'],
    [`street=${'в'.repeat(151)}`, 'street'],
    ['per_page=0', 'per_page'],
  ])('refuses %s with 422', async (query, field) => {
    expectFieldError(await list(`?${query}`), field);
  });
});

describe('unlink', () => {
  it('detaches houses from their complex and keeps them', async () => {
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    const a = await createOk(body({ complex_id: complex.id }));
    const b = await createOk(body({ complex_id: complex.id }));
    await addUnit(a.id, 'apartment', '1');

    const res = await unlink({ house_ids: [a.id, a.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: "Від'єднано від комплексу: 1 будинок.", data: [a.id] });

    const after = (await getOne(a.id)).json().data as HouseRec;
    expect(after).toMatchObject({ id: a.id, complex_id: null, complex_name: null, realty_counts: { apartment: 1 } });
    expect(ids(await list(`?complex_id=${complex.id}`))).toEqual([b.id]);
    expect(ids(await list('?unlinked=1&per_page=1000'))).toContain(a.id);
    expect(ids(await list('?unlinked=1&per_page=1000'))).not.toContain(b.id);
    expect(ids(await list('?unlinked=0&per_page=1000'))).not.toContain(a.id);
    const detail = (await t.call('GET', `${API}/complexes/${complex.id}`, { token: admin })).json().data;
    expect(detail.houses.map((h: HouseRec) => h.id)).toEqual([b.id]);

    // Unlinking again is harmless; unknown ids are skipped.
    const again = await unlink({ house_ids: [a.id, b.id, 2147483647] });
    expect(again.json()).toEqual({ message: "Від'єднано від комплексу: 2 будинки.", data: [a.id, b.id] });
    expect((await getOne(b.id)).json().data.complex_id).toBeNull();
  });

  it('answers 404 when none of the houses is found', async () => {
    expect(expectErrorBody(await unlink({ house_ids: [2147483647] }), 404).message).toBe('Будинок не знайдено.');
    expect(expectErrorBody(await unlink({ house_ids: [2147483646, 2147483647] }), 404).message).toBe('Будинки не знайдено.');
  });

  it.each([
    [{}, 'house_ids'],
    [{ house_ids: [] }, 'house_ids'],
    [{ house_ids: 'all' }, 'house_ids'],
    [{ house_ids: ['x'] }, 'house_ids.0'],
    [{ house_ids: [0] }, 'house_ids.0'],
    [{ house_ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'house_ids'],
  ])('refuses %j with 422', async (b, field) => {
    expectFieldError(await unlink(b), field);
  });
});

describe('scoping', () => {
  async function staffSetup(permissions: string[] = ['view', 'create', 'edit', 'delete']) {
    const mine = await createComplex(t.db, { organizationId: t.organizationId });
    const theirs = await createComplex(t.db, { organizationId: t.organizationId });
    const user = await createUser(t.db, { organizationId: t.organizationId, permissions: { houses: permissions as never }, complexIds: [mine.id] });
    const token = await t.login(user.email, user.password);
    const myHouse = await createOk(body({ complex_id: mine.id }));
    const theirHouse = await createOk(body({ complex_id: theirs.id }));
    const loose = await createOk(body());
    return { mine, theirs, token, myHouse, theirHouse, loose };
  }

  it("shows a staff user only the houses of their complexes: another complex's and unlinked ones answer 404", async () => {
    const { mine, theirs, token, myHouse, theirHouse, loose } = await staffSetup();
    const listed = await list('?per_page=1000', token);
    expect(ids(listed)).toEqual([myHouse.id]);
    expect(ids(await list(`?complex_id=${theirs.id}`, token))).toEqual([]);
    expect(ids(await list('?unlinked=1', token))).toEqual([]);
    expect((await getOne(myHouse.id, token)).statusCode).toBe(200);
    for (const id of [theirHouse.id, loose.id]) {
      for (const res of [await getOne(id, token), await update(id, body({ complex_id: mine.id }), token), await remove(id, token)]) {
        expect(expectErrorBody(res, 404).message).toBe('Будинок не знайдено.');
      }
    }
    expect(expectErrorBody(await unlink({ house_ids: [theirHouse.id] }, token), 404).message).toBe('Будинок не знайдено.');
    expect((await getOne(theirHouse.id)).json().data.complex_id).toBe(theirs.id);
    // A mixed list unlinks only the staff user's own house.
    expect((await unlink({ house_ids: [theirHouse.id, myHouse.id] }, token)).json().data).toEqual([myHouse.id]);
    expect((await getOne(theirHouse.id)).json().data.complex_id).toBe(theirs.id);
  });

  it('lets a staff user create houses only in their complexes', async () => {
    const { mine, theirs, token, myHouse } = await staffSetup();
    expect(expectFieldError(await create(body({ complex_id: theirs.id }), token), 'complex_id').errors!.complex_id).toEqual(['Комплекс не знайдено.']);
    expectFieldError(await create(body(), token), 'complex_id');
    const created = await createOk(body({ complex_id: mine.id }), token);
    expect(created.complex_id).toBe(mine.id);
    // Nor move one out of their reach.
    expectFieldError(await update(myHouse.id, body({ complex_id: theirs.id, number: myHouse.number }), token), 'complex_id');
    expectFieldError(await update(myHouse.id, body({ complex_id: null, number: myHouse.number }), token), 'complex_id');
    expect((await getOne(myHouse.id)).json().data.complex_id).toBe(mine.id);
  });

  it('refuses changes without the permission (403) and everything without houses view', async () => {
    const { mine, token, myHouse } = await staffSetup(['view']);
    for (const res of [
      await create(body({ complex_id: mine.id }), token),
      await update(myHouse.id, body({ complex_id: mine.id }), token),
      await remove(myHouse.id, token),
      await unlink({ house_ids: [myHouse.id] }, token),
    ]) {
      expect(expectErrorBody(res, 403).message).toBe('Недостатньо прав для цієї дії.');
    }
    const nobody = await createUser(t.db, { organizationId: t.organizationId, permissions: { complexes: ['view'] }, complexIds: [mine.id] });
    const nobodyToken = await t.login(nobody.email, nobody.password);
    expectErrorBody(await list('', nobodyToken), 403);
    expectErrorBody(await getOne(myHouse.id, nobodyToken), 403);
  });

  it("hides one organization's houses from another organization's admin", async () => {
    const house = await createOk(body());
    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const token = await t.login(other.email, other.password);
    expect(ids(await list('?per_page=1000', token))).not.toContain(house.id);
    expectErrorBody(await getOne(house.id, token), 404);
    expectErrorBody(await update(house.id, body(), token), 404);
    expectErrorBody(await remove(house.id, token), 404);
    expectErrorBody(await unlink({ house_ids: [house.id] }, token), 404);
  });

  it('answers 401 without a token on every route', async () => {
    const calls: [Method, string][] = [
      ['GET', H],
      ['POST', H],
      ['GET', `${H}/1`],
      ['PUT', `${H}/1`],
      ['DELETE', `${H}/1`],
      ['POST', `${H}/unlink`],
    ];
    for (const [method, url] of calls) {
      const res = await t.call(method, url, { body: method === 'POST' || method === 'PUT' ? body() : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('complex detail', () => {
  it('lists the houses of the complex and counts its units', async () => {
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    const a = await createOk(body({ complex_id: complex.id }));
    const b = await createOk(body({ complex_id: complex.id }));
    await createOk(body());
    for (const n of ['1', '2', '3']) await addUnit(a.id, 'apartment', n);
    await addUnit(b.id, 'apartment', '1');
    await addUnit(b.id, 'parking', '1');
    await addUnit(b.id, 'parking', '2');
    await addUnit(b.id, 'storage', '1');

    const res = await t.call('GET', `${API}/complexes/${complex.id}`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.counts).toEqual({ houses: 2, apartment: 4, parking: 2, storage: 1, commercial: 0, residents: 0 });
    expect(data.houses.map((h: HouseRec) => h.id).sort()).toEqual([a.id, b.id].sort());
    const houseB = data.houses.find((h: HouseRec) => h.id === b.id);
    expect(houseB).toEqual((await getOne(b.id)).json().data);
    expect(houseB.realty_counts).toEqual({ apartment: 1, parking: 2, storage: 1, commercial: 0 });
    // The list and the create answer keep the plain record.
    expect(
      (await t.call('GET', `${API}/complexes?search_query=${encodeURIComponent(complex.name)}`, { token: admin })).json().main_data.data[0],
    ).not.toHaveProperty('houses');
  });

  it('leaves the houses out for a role that may not view houses, keeping the counts', async () => {
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    await createOk(body({ complex_id: complex.id }));
    const user = await createUser(t.db, { organizationId: t.organizationId, permissions: { complexes: ['view'] }, complexIds: [complex.id] });
    const token = await t.login(user.email, user.password);
    const data = (await t.call('GET', `${API}/complexes/${complex.id}`, { token })).json().data;
    expect(data).not.toHaveProperty('houses');
    expect(data.counts.houses).toBe(1);
  });
});

describe('demo seed', () => {
  it('gives the demo complexes houses with units when the address reference is there', async () => {
    const [kyiv] = await t.db
      .select()
      .from(settlements)
      .where(and(eq(settlements.name, 'Київ'), eq(settlements.category, 'К')));
    const [lypovyiHai] = await t.db
      .select()
      .from(complexes)
      .where(and(eq(complexes.organizationId, t.organizationId), eq(complexes.name, 'ЖК «Липовий гай»')));
    const seeded = (await list(`?complex_id=${lypovyiHai.id}&sort=address`)).json().main_data.data as HouseRec[];
    const types = (await t.call('GET', `${API}/house-types?per_page=100`, { token: admin })).json().data.map((x: { name: string }) => x.name);
    expect(types).toEqual(expect.arrayContaining([...DEMO_HOUSE_TYPES]));
    if (!kyiv) {
      // An empty reference: no settlements, so no demo houses.
      expect(seeded).toEqual([]);
      return;
    }
    expect(seeded.map((h) => h.address)).toEqual([1, 2, 3].map((n) => `м. Київ, вулиця Липова, 12, секція ${n}`));
    expect(seeded[0].realty_counts).toEqual({ apartment: 64, parking: 40, storage: 12, commercial: 0 });
    expect(seeded[0].house_type).toBe('Багатоквартирний');
    // The dispatcher sees the houses of their two complexes.
    const staffToken = await t.login(STAFF.email, STAFF.password);
    const theirs = (await list('?per_page=100', staffToken)).json().main_data.data as HouseRec[];
    expect(new Set(theirs.map((h) => h.complex_name))).toEqual(new Set(['ЖК «Липовий гай»', 'ЖК «Сонячна гавань»']));
  });

  it('creates houses for complexes whose settlement exists and skips the others', async () => {
    const org = await createOrganization(t.db);
    const known = await createComplex(t.db, { organizationId: org.id, name: 'ЖК «Приморський»' });
    const unknown = await createComplex(t.db, { organizationId: org.id, name: 'ЖК «Невідомий»' });
    const [odesa] = await t.db
      .select()
      .from(settlements)
      .where(and(eq(settlements.name, 'Одеса'), eq(settlements.category, 'М')));
    if (!odesa) await makeCity('М', 'Одеса');
    const created = await t.db.transaction((tx) => seedDemoHouses(tx, org.id, [known, unknown]));
    expect(created).toBe(1);
    const [house] = await t.db.select().from(houses).where(eq(houses.organizationId, org.id));
    expect(house.complexId).toBe(known.id);
    const units = await t.db.select().from(realty).where(eq(realty.houseId, house.id));
    expect(units.filter((u) => u.type === 'apartment')).toHaveLength(96);
    expect(units.filter((u) => u.type === 'storage')).toHaveLength(10);
  });
});
