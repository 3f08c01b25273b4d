import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIND_LIMIT, searchForm, type City, type Street } from '../../contract/reference.ts';
import { importReferenceData } from '../../server/db/importReference.ts';
import { settlements, streets } from '../../server/db/schema.ts';
import { ADMIN, API, createOrganization, createUser, expectErrorBody, expectFieldError, STAFF, uid, UKRAINIAN, type TestApp, setupApp } from './helpers.ts';

let t: TestApp;
let admin: string;
/** Settlement ids of the cities the reference has streets for, and one it has none for. */
let kyiv: number;
let lviv: number;
let kharkiv: number;
let odesa: number;

const UK_ALPHABET = 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя';
/** What the server's ukrainianSortKey does in SQL: Ukrainian letters in alphabet order, then code points. */
const ukrainianSortKeyJs = (name: string) =>
  Array.from(name.toLowerCase(), (c) => (UK_ALPHABET.includes(c) ? String.fromCharCode(0xe000 + UK_ALPHABET.indexOf(c)) : c)).join('');

const CATEGORY_RANK: Record<string, number> = { К: 0, М: 1, Х: 2, С: 3 };

async function cityId(name: string, category: string, region: string) {
  const [row] = await t.db
    .select({ id: settlements.id })
    .from(settlements)
    .where(and(eq(settlements.name, name), eq(settlements.category, category), eq(settlements.region, region)));
  return row.id;
}

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  kyiv = await cityId('Київ', 'К', 'Київ');
  lviv = await cityId('Львів', 'М', 'Львівська');
  kharkiv = await cityId('Харків', 'М', 'Харківська');
  odesa = await cityId('Полтава', 'М', 'Полтавська');
});
afterAll(() => t?.close());

const q = (params: Record<string, string | number>) => `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
const findCity = (search: string, token = admin) => t.call('GET', `${API}/find/city${q({ search_query: search })}`, { token });
const findStreet = (city: number | string, search: string, token = admin) =>
  t.call('GET', `${API}/find/street${q({ city_id: city, search_query: search })}`, { token });

async function cities(search: string): Promise<City[]> {
  const res = await findCity(search);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json())).toEqual(['data']);
  return res.json().data;
}
async function streetsOf(city: number, search: string): Promise<Street[]> {
  const res = await findStreet(city, search);
  expect(res.statusCode, res.body).toBe(200);
  const data: Street[] = res.json().data;
  for (const s of data) expect(s.city_id).toBe(city);
  return data;
}
const label = (c: City) => `${c.name} (${c.category}, ${c.region})`;

/** 0 exact, 1 prefix, 2 infix; what the ranking puts first. */
function quality(name: string, search: string) {
  const n = searchForm(name);
  const s = searchForm(search);
  if (n === s) return 0;
  if (n.startsWith(s)) return 1;
  expect(n, `${name} should contain ${search}`).toContain(s);
  return 2;
}

/** Every answer is ordered: match quality, then (cities) category, then name in Ukrainian order. */
function expectRanked(rows: { name: string; category?: string }[], search: string) {
  const keys = rows.map((r) => [quality(r.name, search), r.category === undefined ? 0 : CATEGORY_RANK[r.category], ukrainianSortKeyJs(r.name)] as const);
  for (let i = 1; i < keys.length; i++) {
    const [a, b] = [keys[i - 1], keys[i]];
    const ordered = a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] <= b[2])));
    expect(ordered, `${rows[i - 1].name} before ${rows[i].name} for «${search}»`).toBe(true);
  }
}

async function addStreet(body: Record<string, unknown>, token = admin) {
  return t.call('POST', `${API}/streets`, { token, body });
}
async function addStreetOk(body: Record<string, unknown>) {
  const res = await addStreet(body);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json())).toEqual(['data']);
  return res.json().data as Street;
}
const renameStreet = (id: number | string, body: Record<string, unknown>, token = admin) => t.call('PUT', `${API}/streets/${id}`, { token, body });

describe('reference data', () => {
  it('is imported into every fresh database, and a second import does nothing', async () => {
    const [{ n }] = await t.db.select({ n: count() }).from(settlements);
    expect(n).toBe(29_707);
    const [{ m }] = await t.db.select({ m: count() }).from(streets).where(eq(streets.source, 'reference'));
    expect(m).toBeGreaterThan(7_000);
    expect(await importReferenceData(t.db)).toBeUndefined();
    const [{ n: again }] = await t.db.select({ n: count() }).from(settlements);
    expect(again).toBe(29_707);
  });
});

describe('GET /find/city', () => {
  it('puts Київ first, whatever the case, for the full name and for a prefix', async () => {
    for (const search of ['київ', 'КИЇВ', 'Київ', 'Ки', 'ки', '  київ  ']) {
      const data = await cities(search);
      expect(data[0], search).toMatchObject({ name: 'Київ', category: 'К', region: 'Київ', district: null, community: null });
      expectRanked(data, search);
    }
  });

  it('ranks exact > prefix > infix, bigger settlements first within each', async () => {
    const data = await cities('київ');
    expect(data.map(label).slice(0, 3)).toEqual(['Київ (К, Київ)', 'Київ (С, Миколаївська)', 'Київець (С, Львівська)']);
    // «Бокиївка», «Новокиївка»: contain the query, so they come after every prefix match.
    const qualities = data.map((c) => quality(c.name, 'київ'));
    expect(qualities).toEqual([...qualities].sort());
    expect(qualities).toContain(2);
    expectRanked(data, 'київ');

    const lvivs = await cities('Львів');
    expect(lvivs.map(label).slice(0, 3)).toEqual(['Львів (М, Львівська)', 'Львів (С, Дніпропетровська)', 'Львів (С, Миколаївська)']);
    expect(lvivs.map((c) => c.name)).toContain('Сороки-Львівські');
    expectRanked(lvivs, 'Львів');
  });

  it('shows both cities called Миколаїв, with their regions, before villages of that name', async () => {
    const data = await cities('Миколаїв');
    expect(data.slice(0, 2).map(label)).toEqual(['Миколаїв (М, Львівська)', 'Миколаїв (М, Миколаївська)']);
    expect(data[0]).toMatchObject({ district: 'Стрийський' });
    expect(data[1]).toMatchObject({ district: 'Миколаївський', community: 'Миколаївська' });
    const villages = data.filter((c) => c.name === 'Миколаїв' && c.category === 'С');
    expect(villages.length).toBeGreaterThan(0);
    expect(data.findIndex((c) => c.category === 'С')).toBeGreaterThan(1);
    // Exact matches, then the prefix ones (Миколаївка, the city first).
    expect(data.find((c) => c.name !== 'Миколаїв')).toMatchObject({ name: 'Миколаївка', category: 'М' });
    expectRanked(data, 'Миколаїв');
  });

  it('treats every apostrophe the same', async () => {
    const variants = ["Кам'янське", 'Камʼянське', 'Кам’янське', 'Кам`янське', 'кам‘янське'];
    const answers = await Promise.all(variants.map((v) => cities(v)));
    const ids = answers[0].map((c) => c.id);
    expect(ids.length).toBeGreaterThan(1);
    for (const a of answers) expect(a.map((c) => c.id)).toEqual(ids);
    expect(answers[0][0]).toMatchObject({ name: 'Кам’янське', category: 'М', region: 'Дніпропетровська' });
    // Infix with an apostrophe, too.
    expect((await cities("м'янськ")).map((c) => c.name)).toContain('Верхньокам’янське');
  });

  it('finds a word inside a name', async () => {
    const data = await cities('церква');
    expect(data.map(label)).toContain('Біла Церква (М, Київська)');
  });

  it(`returns at most ${FIND_LIMIT}, with region and district to tell same names apart`, async () => {
    for (const search of ['а', 'ка', 'івка', 'Миколаївка']) {
      const data = await cities(search);
      expect(data, search).toHaveLength(FIND_LIMIT);
      expectRanked(data, search);
      for (const c of data) {
        expect(c.region).toMatch(UKRAINIAN);
        expect(Object.keys(c).sort()).toEqual(['category', 'community', 'district', 'id', 'name', 'region']);
        if (c.category !== 'К') expect(c.district).toMatch(UKRAINIAN);
      }
    }
  });

  it('lists the biggest cities for an empty query', async () => {
    for (const search of ['', '   ']) {
      const data = await cities(search);
      expect(data).toHaveLength(FIND_LIMIT);
      expect(data.slice(0, 2).map((c) => c.name)).toEqual(['Київ', 'Севастополь']);
      const rest = data.slice(2);
      for (const c of rest) expect(c.category).toBe('М');
      const keys = rest.map((c) => ukrainianSortKeyJs(c.name));
      expect(keys).toEqual([...keys].sort());
    }
    const res = await t.call('GET', `${API}/find/city`, { token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0].name).toBe('Київ');
  });

  it('takes LIKE wildcards literally', async () => {
    for (const search of ['%', '_', '%%', 'к%в', 'ки_в', 'київ%', '\\', '\\%']) {
      expect(await cities(search), search).toEqual([]);
    }
  });

  it('finds nothing for a name that does not exist', async () => {
    expect(await cities('Неіснуючеместо')).toEqual([]);
  });

  it('refuses a query longer than 100 characters', async () => {
    expectFieldError(await findCity('к'.repeat(101)), 'search_query');
  });

  it('needs a bearer token', async () => {
    expectErrorBody(await t.call('GET', `${API}/find/city?search_query=київ`), 401);
    expectErrorBody(await findCity('київ', 'not-a-token'), 401);
  });

  it('is open to every signed-in user, whatever their role', async () => {
    const staff = await t.login(STAFF.email, STAFF.password);
    expect((await findCity('Львів', staff)).statusCode).toBe(200);
    const nobody = await createUser(t.db, { organizationId: t.organizationId, permissions: {} });
    const token = await t.login(nobody.email, nobody.password);
    const res = await findCity('Львів', token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data[0].name).toBe('Львів');
    expect((await findStreet(lviv, 'городоцька', token)).statusCode).toBe(200);
  });
});

describe('GET /find/street', () => {
  it('finds streets of Київ, Львів and Харків, within that city only', async () => {
    const khreshchatyk = await streetsOf(kyiv, 'хрещатик');
    expect(khreshchatyk[0]).toMatchObject({ name: 'Хрещатик', type: 'вулиця', source: 'reference' });
    expect(khreshchatyk[0].district).toMatch(/Печерський/);

    const horodotska = await streetsOf(lviv, 'Городоцька');
    expect(horodotska[0]).toMatchObject({ name: 'Городоцька', city_id: lviv });
    expect(horodotska.length).toBeGreaterThan(1);
    expectRanked(horodotska, 'Городоцька');

    const sumska = await streetsOf(kharkiv, 'сумська');
    expect(sumska[0]).toMatchObject({ name: 'Сумська', type: 'вулиця' });

    // Київ and Харків both have a «Московська»; each city sees only its own.
    const moskovska = (await streetsOf(kharkiv, 'московська')).filter((s) => s.name === 'Московська');
    expect(moskovska).toHaveLength(1);
  });

  it('ranks exact > prefix > infix, then by name', async () => {
    const data = await streetsOf(kyiv, 'шевченка');
    expect(data[0].name).toBe('Шевченка');
    expect(data.some((s) => s.name === 'Шевченка Тараса')).toBe(true);
    expectRanked(data, 'шевченка');
    // «Корсунь-Шевченківська» only contains the query: after every prefix match.
    const short = await streetsOf(kyiv, 'шевч');
    expect(short.at(-1)?.name).toBe('Корсунь-Шевченківська');
    expectRanked(short, 'шевч');
    // Same name in several districts: separate streets of the registry, told apart by district.
    const exact = data.filter((s) => s.name === 'Шевченка' && s.type === 'вулиця');
    expect(new Set(exact.map((s) => s.district)).size).toBe(exact.length);
  });

  it(`returns at most ${FIND_LIMIT}; an empty query lists the city's streets by name`, async () => {
    expect(await streetsOf(kyiv, 'а')).toHaveLength(FIND_LIMIT);
    const first = await streetsOf(kharkiv, '');
    expect(first).toHaveLength(FIND_LIMIT);
    const keys = first.map((s) => ukrainianSortKeyJs(s.name));
    expect(keys).toEqual([...keys].sort());
  });

  it('treats apostrophes and wildcards as in the city look-up', async () => {
    const variants = await Promise.all(["солом'янська", 'соломʼянська', 'солом’янська'].map((v) => streetsOf(kyiv, v)));
    expect(variants[0].length).toBeGreaterThan(0);
    for (const v of variants) expect(v).toEqual(variants[0]);
    for (const search of ['%', '_', 'шев_енка']) expect(await streetsOf(kyiv, search), search).toEqual([]);
  });

  it('answers 404 for an unknown city and 422 for a malformed city_id', async () => {
    const res = await findStreet(2_000_000_000, 'шев');
    const body = expectErrorBody(res, 404);
    expect(body.message).toMatch(UKRAINIAN);
    expectFieldError(await findStreet('abc', 'шев'), 'city_id');
    expectFieldError(await findStreet(0, 'шев'), 'city_id');
    expectFieldError(await t.call('GET', `${API}/find/street?search_query=шев`, { token: admin }), 'city_id');
  });

  it('needs a bearer token', async () => {
    expectErrorBody(await t.call('GET', `${API}/find/street${q({ city_id: kyiv, search_query: 'шев' })}`), 401);
  });

  it('shows only admin-added streets in a city the reference has none for', async () => {
    expect(await streetsOf(odesa, '')).toEqual([]);
    const name = `Дерибасівська ${uid()}`;
    const created = await addStreetOk({ city_id: odesa, name, type: 'вулиця' });
    expect(await streetsOf(odesa, 'дерибас')).toEqual([created]);
    expect(await streetsOf(odesa, '')).toEqual([created]);
  });
});

describe('admin street edits', () => {
  it('adds a street that the look-up then finds', async () => {
    const name = `Нова  Сонячна ${uid()}`;
    const created = await addStreetOk({ city_id: lviv, name: `  ${name} `, type: 'провулок' });
    expect(created).toMatchObject({ city_id: lviv, name: name.replace(/\s+/g, ' '), type: 'провулок', district: null, source: 'admin' });
    expect(await streetsOf(lviv, name.toUpperCase())).toEqual([created]);
  });

  it("stores the reference's apostrophe and finds the street with any other", async () => {
    const created = await addStreetOk({ city_id: kharkiv, name: `Об'їзна ${uid()}`, type: 'дорога' });
    expect(created.name).toMatch(/^Об’їзна /);
    expect((await streetsOf(kharkiv, created.name.replace('’', 'ʼ'))).map((s) => s.id)).toEqual([created.id]);
  });

  it('refuses a street the city already has, but allows another type of the same name', async () => {
    const taken = expectFieldError(await addStreet({ city_id: kyiv, name: 'ХРЕЩАТИК', type: 'вулиця' }), 'name');
    expect(taken.message).toMatch(/вже є/);
    // The reference's «Хрещатик» has a type; a street without one would duplicate it.
    expectFieldError(await addStreet({ city_id: kyiv, name: 'Хрещатик', type: null }), 'name');
    const lane = await addStreetOk({ city_id: kyiv, name: 'Хрещатик', type: 'провулок' });
    expect(lane).toMatchObject({ name: 'Хрещатик', type: 'провулок', source: 'admin' });
    // Львів's reference «Городоцька» has no type: it conflicts with any.
    expectFieldError(await addStreet({ city_id: lviv, name: 'городоцька', type: 'вулиця' }), 'name');
    // Case and apostrophes do not make a new name.
    await addStreetOk({ city_id: kharkiv, name: "Об'їзна", type: 'дорога' });
    expectFieldError(await addStreet({ city_id: kharkiv, name: 'об’їзна', type: 'дорога' }), 'name');
  });

  it('validates the body', async () => {
    expectFieldError(await addStreet({ city_id: 2_000_000_000, name: 'Тестова', type: 'вулиця' }), 'city_id');
    expectFieldError(await addStreet({ city_id: 'abc', name: 'Тестова', type: 'вулиця' }), 'city_id');
    expectFieldError(await addStreet({ name: 'Тестова', type: 'вулиця' }), 'city_id');
    expectFieldError(await addStreet({ city_id: kyiv, name: 'Т', type: 'вулиця' }), 'name');
    expectFieldError(await addStreet({ city_id: kyiv, name: '   ', type: 'вулиця' }), 'name');
    expectFieldError(await addStreet({ city_id: kyiv, name: 'Тестова', type: 'street' }), 'type');
  });

  it('renames a reference street for this organization only: it gets a street of its own, the reference stays', async () => {
    const [old] = (await streetsOf(kyiv, 'московська')).filter((s) => s.name === 'Московська' && s.district === 'Печерський');
    expect(old).toMatchObject({ type: 'вулиця', source: 'reference' });
    const res = await renameStreet(old.id, { name: 'Князів Острозьких', type: 'вулиця' });
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json())).toEqual(['data']);
    const renamed = res.json().data as Street;
    expect(renamed).toEqual({ ...old, id: renamed.id, name: 'Князів Острозьких', source: 'admin' });
    expect(renamed.id).not.toBe(old.id);

    // In this organization's look-up the new name stands in for the old one.
    expect((await streetsOf(kyiv, 'московська')).map((s) => s.id)).not.toContain(old.id);
    expect(await streetsOf(kyiv, 'князів остр')).toContainEqual(renamed);
    const [row] = await t.db.select().from(streets).where(eq(streets.id, renamed.id));
    expect(row).toMatchObject({
      organizationId: t.organizationId,
      referenceName: 'Московська',
      replacesStreetId: old.id,
      searchName: 'князів острозьких',
      source: 'admin',
    });
    // The reference row itself is untouched.
    const [reference] = await t.db.select().from(streets).where(eq(streets.id, old.id));
    expect(reference).toMatchObject({ name: 'Московська', source: 'reference', organizationId: null });

    // Renaming it again, by either id, changes the organization's street in place.
    for (const id of [old.id, renamed.id]) {
      const again = await renameStreet(id, { name: 'Князів Острозьких', type: 'провулок' });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data).toMatchObject({ id: renamed.id, type: 'провулок' });
    }
    const [row2] = await t.db.select().from(streets).where(eq(streets.id, renamed.id));
    expect(row2.referenceName).toBe('Московська');
    expect(await importReferenceData(t.db)).toBeUndefined();

    // Another organization still has «Московська» and never sees this one's street.
    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const theirs = await t.login(other.email, other.password);
    const seen = (await findStreet(kyiv, 'московська', theirs)).json().data as Street[];
    expect(seen.map((s) => s.id)).toContain(old.id);
    expect(((await findStreet(kyiv, 'князів остр', theirs)).json().data as Street[]).map((s) => s.id)).not.toContain(renamed.id);
    expectErrorBody(await renameStreet(renamed.id, { name: 'Чужа Назва', type: 'вулиця' }, theirs), 404);
  });

  it("moves the organization's houses on a renamed reference street to its own street, and no one else's", async () => {
    const [sumska] = (await streetsOf(kharkiv, 'сумська')).filter((s) => s.name === 'Сумська');
    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const theirs = await t.login(other.email, other.password);
    const house = async (token: string) => {
      const res = await t.call('POST', `${API}/houses`, {
        token,
        body: { city_id: kharkiv, street_id: sumska.id, number: `${Math.floor(Math.random() * 1e6)}`, complex_id: null },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { id: number; address: string; street_id: number };
    };
    const mine = await house(admin);
    const foreign = await house(theirs);
    const res = await renameStreet(sumska.id, { name: `Сумська Нова ${uid()}`, type: 'вулиця' });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json().data as Street;
    const mineNow = (await t.call('GET', `${API}/houses/${mine.id}`, { token: admin })).json().data;
    expect(mineNow).toMatchObject({ street_id: created.id, street: created.name });
    expect(mineNow.address).toContain(created.name);
    const foreignNow = (await t.call('GET', `${API}/houses/${foreign.id}`, { token: theirs })).json().data;
    expect(foreignNow).toEqual({ ...foreign, realty_counts: foreignNow.realty_counts });
    expect(foreignNow.address).toContain('Сумська');
    // A house saved later with the reference id lands on the organization's street.
    expect((await house(admin)).street_id).toBe(created.id);
    // The other organization cannot put a house on this organization's street.
    expectFieldError(
      await t.call('POST', `${API}/houses`, { token: theirs, body: { city_id: kharkiv, street_id: created.id, number: '1', complex_id: null } }),
      'street_id',
    );
  });

  it("adds a typed street to the organization's own streets, and finds the same name among them next time", async () => {
    const name = `Тенантна ${uid()}`;
    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const theirs = await t.login(other.email, other.password);
    const save = async (token: string) => {
      const res = await t.call('POST', `${API}/houses`, {
        token,
        body: { city_id: odesa, street_name: `вул. ${name}`, number: `${Math.floor(Math.random() * 1e6)}`, complex_id: null },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.street_id as number;
    };
    const first = await save(admin);
    expect(await save(admin)).toBe(first);
    // The other organization types the same name: a street of its own, not this one.
    const theirsId = await save(theirs);
    expect(theirsId).not.toBe(first);
    expect((await streetsOf(odesa, name)).map((s) => s.id)).toEqual([first]);
  });

  it('renames an admin street without inventing a reference name', async () => {
    const created = await addStreetOk({ city_id: odesa, name: `Стара ${uid()}`, type: 'вулиця' });
    const res = await renameStreet(created.id, { name: `Нова ${uid()}`, type: 'бульвар' });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.db.select().from(streets).where(eq(streets.id, created.id));
    expect(row.referenceName).toBeNull();
    expect(row.source).toBe('admin');
  });

  it('refuses a rename onto another street of the city, and unknown ids', async () => {
    const [sumska] = await streetsOf(kharkiv, 'сумська');
    expectFieldError(await renameStreet(sumska.id, { name: 'Пушкінська', type: 'вулиця' }), 'name');
    // Renaming onto its own name (a type change only) is no conflict.
    const ok = await renameStreet(sumska.id, { name: 'Сумська', type: 'вулиця' });
    expect(ok.statusCode, ok.body).toBe(200);
    const missing = expectErrorBody(await renameStreet(2_000_000_000, { name: 'Тестова', type: 'вулиця' }), 404);
    expect(missing.message).toMatch(UKRAINIAN);
    expectFieldError(await renameStreet('abc', { name: 'Тестова', type: 'вулиця' }), 'id');
    expectFieldError(await renameStreet(sumska.id, { name: '', type: 'вулиця' }), 'name');
  });

  it('needs a token and the houses edit permission', async () => {
    expectErrorBody(await t.call('POST', `${API}/streets`, { body: { city_id: kyiv, name: 'Тестова', type: 'вулиця' } }), 401);
    expectErrorBody(await t.call('PUT', `${API}/streets/1`, { body: { name: 'Тестова', type: 'вулиця' } }), 401);
    // The demo dispatcher may view houses but not edit them.
    const staff = await t.login(STAFF.email, STAFF.password);
    expectErrorBody(await addStreet({ city_id: kyiv, name: `Тестова ${uid()}`, type: 'вулиця' }, staff), 403);
    const [khreshchatyk] = await streetsOf(kyiv, 'хрещатик');
    expectErrorBody(await renameStreet(khreshchatyk.id, { name: 'Тестова', type: 'вулиця' }, staff), 403);
    const editor = await createUser(t.db, { organizationId: t.organizationId, permissions: { houses: ['view', 'edit'] } });
    const token = await t.login(editor.email, editor.password);
    const res = await addStreet({ city_id: kyiv, name: `Тестова ${uid()}`, type: 'вулиця' }, token);
    expect(res.statusCode, res.body).toBe(200);
  });
});
