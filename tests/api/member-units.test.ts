/**
 * The members list of one complex reads `member_units` (kept by database triggers, migration
 * 0021) instead of walking every member: each write that changes who lives where, a name or a
 * status shows in that list at once, exactly as the general query (sorted by creation date) sees it.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houses, realty } from '../../server/db/schema.ts';
import { MAX_PER_PAGE } from '../../server/lib/pagination.ts';
import { residentRolesOf } from '../../server/modules/members/roles.ts';
import { ADMIN, API, createComplex, type TestApp, setupApp } from './helpers.ts';
import { makeCity, makeHouse, makeUnit } from './members-fixtures.ts';

let t: TestApp;
let admin: string;
let cityId: number;
/** A role without a share (a tenant), so that any number of members can live in one unit. */
let roleId: number;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  cityId = (await makeCity(t)).id;
  roleId = (await residentRolesOf(t.db, t.organizationId)).find((r) => !r.holdsShare)!.id;
});
afterAll(() => t?.close());

interface Listed {
  data: { id: number; name: string; status: string }[];
  pagination: { total: number };
}

async function listed(query: string): Promise<Listed> {
  const res = await t.call('GET', `${API}/members?per_page=100&${query}`, { token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The complex's members by name (the link table's path), checked against the general path. */
async function namesIn(complexId: number, extra = ''): Promise<string[]> {
  const fast = await listed(`complex_id=${complexId}&sort=name${extra}`);
  const general = await listed(`complex_id=${complexId}&sort=created_at${extra}`);
  expect(fast.data.map((m) => m.id).sort()).toEqual(general.data.map((m) => m.id).sort());
  expect(fast.pagination.total).toBe(general.pagination.total);
  return fast.data.map((m) => m.name);
}

async function createMember(name: string, realtyId: number) {
  const res = await t.call('POST', `${API}/members`, { token: admin, body: { name, realty_id: realtyId, role_id: roleId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; units: { resident_id: number }[] };
}

describe('members of a complex follow every write at once', () => {
  it('links, moves, renames, blocks and removes', async () => {
    const a = await createComplex(t.db, { organizationId: t.organizationId });
    const b = await createComplex(t.db, { organizationId: t.organizationId });
    const houseA = await makeHouse(t, cityId, a.id);
    const houseA2 = await makeHouse(t, cityId, a.id);
    const houseB = await makeHouse(t, cityId, b.id);
    const unitA = await makeUnit(t, houseA.id, '1');
    const unitA2 = await makeUnit(t, houseA2.id, '2');
    const unitB = await makeUnit(t, houseB.id, '3');

    const petrenko = await createMember('Петренко Ірина', unitA.id);
    const gudz = await createMember('Ґудзь Олег', unitA.id);
    await createMember('Гнатюк Ярема', unitA2.id);
    // Ukrainian order: Г before Ґ, Є after Е.
    expect(await namesIn(a.id)).toEqual(['Гнатюк Ярема', 'Ґудзь Олег', 'Петренко Ірина']);
    expect(await namesIn(a.id, '&order=desc')).toEqual(['Петренко Ірина', 'Ґудзь Олег', 'Гнатюк Ярема']);
    expect(await namesIn(a.id, `&house_ids[]=${houseA2.id}`)).toEqual(['Гнатюк Ярема']);
    expect(await namesIn(b.id)).toEqual([]);

    // A second unit in the same complex: still one entry.
    const second = await t.call('POST', `${API}/residents`, { token: admin, body: { member_id: petrenko.id, realty_id: unitA2.id, role_id: roleId } });
    expect(second.statusCode, second.body).toBe(200);
    expect(await namesIn(a.id)).toEqual(['Гнатюк Ярема', 'Ґудзь Олег', 'Петренко Ірина']);

    // Moved to a unit of another complex.
    const moved = await t.call('PUT', `${API}/residents/${gudz.units[0].resident_id}`, { token: admin, body: { realty_id: unitB.id, role_id: roleId } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await namesIn(a.id)).toEqual(['Гнатюк Ярема', 'Петренко Ірина']);
    expect(await namesIn(b.id)).toEqual(['Ґудзь Олег']);

    // Renamed: a new place in the order and found by the new name only.
    const renamed = await t.call('PUT', `${API}/members/${petrenko.id}`, { token: admin, body: { name: 'Євтушенко Ірина', status: 'active' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await namesIn(a.id)).toEqual(['Гнатюк Ярема', 'Євтушенко Ірина']);
    expect(await namesIn(a.id, '&search_query=євтушенко')).toEqual(['Євтушенко Ірина']);
    expect(await namesIn(a.id, '&search_query=петренко')).toEqual([]);

    // Blocked: out of the active ones, in the inactive ones.
    const blocked = await t.call('PUT', `${API}/members/${petrenko.id}`, { token: admin, body: { name: 'Євтушенко Ірина', status: 'inactive' } });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(await namesIn(a.id, '&status=active')).toEqual(['Гнатюк Ярема']);
    expect(await namesIn(a.id, '&status=inactive')).toEqual(['Євтушенко Ірина']);

    // A house attached to another complex takes its residents along; a unit moved to another house too.
    await t.db.update(houses).set({ complexId: b.id }).where(eq(houses.id, houseA2.id));
    expect(await namesIn(a.id)).toEqual(['Євтушенко Ірина']);
    expect(await namesIn(b.id)).toEqual(['Гнатюк Ярема', 'Ґудзь Олег', 'Євтушенко Ірина']);
    await t.db.update(realty).set({ houseId: houseA.id }).where(eq(realty.id, unitA2.id));
    expect(await namesIn(b.id)).toEqual(['Ґудзь Олег']);
    expect(await namesIn(a.id, `&house_ids[]=${houseA.id}`)).toEqual(['Гнатюк Ярема', 'Євтушенко Ірина']);

    // Links removed, a unit removed, a member removed.
    const unlinked = await t.call('DELETE', `${API}/residents/${gudz.units[0].resident_id}`, { token: admin });
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect(await namesIn(b.id)).toEqual([]);
    await t.db.delete(realty).where(eq(realty.id, unitA2.id));
    expect(await namesIn(a.id)).toEqual(['Євтушенко Ірина']);
    const removed = await t.call('DELETE', `${API}/members/${petrenko.id}`, { token: admin });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await namesIn(a.id)).toEqual([]);
  });

  it('pages a complex of many members by name without gaps or repeats', async () => {
    const c = await createComplex(t.db, { organizationId: t.organizationId });
    const house = await makeHouse(t, cityId, c.id);
    const unit = await makeUnit(t, house.id, '9');
    const other = await makeUnit(t, house.id, '10');
    const letters = ['Я', 'Ґ', 'Є', 'А', 'Ї', 'І', 'И', 'Г', 'Е', 'Б'];
    for (const [i, l] of letters.entries()) {
      const m = await createMember(`${l}ременко ${i}`, unit.id);
      if (i % 3 === 0) await t.call('POST', `${API}/residents`, { token: admin, body: { member_id: m.id, realty_id: other.id, role_id: roleId } });
    }
    const pages: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await listed(`complex_id=${c.id}&sort=name&per_page=3&page=${page}`.replace('per_page=100&', ''));
      expect(res.pagination.total).toBe(10);
      pages.push(...res.data.map((m) => m.name[0]));
    }
    expect(pages).toEqual(['А', 'Б', 'Г', 'Ґ', 'Е', 'Є', 'И', 'І', 'Ї', 'Я']);
  });

  it('searches a complex by name, unit number and phone: pages and totals agree with the general path', async () => {
    const c = await createComplex(t.db, { organizationId: t.organizationId });
    const house = await makeHouse(t, cityId, c.id);
    const unit = await makeUnit(t, house.id, '41');
    const other = await makeUnit(t, house.id, '42');
    const names = ['Шевчук Олег', 'Шевченко Ірина', 'Бондар Шевченко', 'Ткаченко Анна', 'Шевчишин Ігор', 'Ярема Шевчук'];
    for (const [i, name] of names.entries()) {
      const res = await t.call('POST', `${API}/members`, {
        token: admin,
        body: { name, realty_id: i < 4 ? unit.id : other.id, role_id: roleId, phone: `+38067555${String(i).padStart(4, '0')}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const q = (text: string) => `&search_query=${encodeURIComponent(text)}`;
    expect(await namesIn(c.id, q('шевч'))).toEqual(['Бондар Шевченко', 'Шевченко Ірина', 'Шевчишин Ігор', 'Шевчук Олег', 'Ярема Шевчук']);
    expect(await namesIn(c.id, q('42'))).toEqual(['Шевчишин Ігор', 'Ярема Шевчук']);
    expect(await namesIn(c.id, q('067 555 0003'))).toEqual(['Ткаченко Анна']);
    expect(await namesIn(c.id, q('нікого'))).toEqual([]);
    // A page longer than one statement reads: the ids and the total each in a statement of its own.
    const long = await t.call('GET', `${API}/members?complex_id=${c.id}&sort=name&per_page=${MAX_PER_PAGE}${q('шевч')}`, { token: admin });
    expect(long.statusCode, long.body).toBe(200);
    const shevch = ['Бондар Шевченко', 'Шевченко Ірина', 'Шевчишин Ігор', 'Шевчук Олег', 'Ярема Шевчук'];
    expect(long.json().data.map((m: { name: string }) => m.name)).toEqual(shevch);
    expect(long.json().pagination.total).toBe(5);
    // Short pages in both orders: one statement reads the matches once for the page and the total.
    for (const order of ['asc', 'desc'] as const) {
      const seen: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const res = await t.call('GET', `${API}/members?complex_id=${c.id}&sort=name&order=${order}&per_page=2&page=${page}${q('шевч')}`, { token: admin });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().pagination.total).toBe(5);
        seen.push(...res.json().data.map((m: { name: string }) => m.name));
      }
      const expected = ['Бондар Шевченко', 'Шевченко Ірина', 'Шевчишин Ігор', 'Шевчук Олег', 'Ярема Шевчук'];
      expect(seen).toEqual(order === 'asc' ? expected : expected.reverse());
    }
  });
});
