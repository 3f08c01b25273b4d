import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bills } from '../../server/db/schema.ts';
import { ADMIN, API, createComplex, createUser, expectErrorBody, expectFieldError, uid, type TestApp, setupApp } from './helpers.ts';
import { makeCity, makeHouse, makeUnit } from './members-fixtures.ts';

let t: TestApp;
let admin: string;
let complexId: number;
let houseId: number;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const cityId = (await makeCity(t)).id;
  complexId = (await createComplex(t.db, { organizationId: t.organizationId })).id;
  houseId = (await makeHouse(t, cityId, complexId)).id;
});
afterAll(() => t?.close());

async function member(realtyId?: number) {
  const res = await t.call('POST', `${API}/members`, { token: admin, body: { name: `Мешканець ${uid()}`, realty_id: realtyId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; name: string };
}

const V = `${API}/vehicles`;
/** A plate unique to the run: two letters, four digits, two letters. */
let plateN = 0;
const plate = () => {
  plateN += 1;
  return `ВС ${String((process.pid + plateN * 37) % 10000).padStart(4, '0')} ${['АК', 'ВМ', 'ОХ', 'ТІ'][plateN % 4]}`;
};

describe('vehicles', () => {
  it('normalises the plate, links a member and a parking place, and answers data.data', async () => {
    const m = await member();
    const parking = await makeUnit(t, houseId, `P${uid()}`.slice(0, 10), 'parking');
    const typed = plate();
    const res = await t.call('POST', V, {
      token: admin,
      body: { member_id: m.id, realty_id: parking.id, plate: typed.toLowerCase(), brand: 'Škoda', model: 'Octavia', color: 'сірий' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json().data;
    const folded = typed.replace(/ /g, '').replace('В', 'B').replace('С', 'C');
    expect(v.plate).toMatch(/^BC\d{4}[A-Z]{2}$/);
    expect(v.plate.slice(0, 6)).toBe(folded.slice(0, 6));
    expect(v).toMatchObject({ member_id: m.id, member_name: m.name, realty_id: parking.id, brand: 'Škoda' });
    expect(v.parking).toContain(`паркомісце ${parking.number}`);

    // The same plate typed in Latin is the same vehicle.
    expectFieldError(await t.call('POST', V, { token: admin, body: { member_id: m.id, plate: v.plate.split('').join(' ') } }), 'plate');

    const listed = await t.call('GET', `${V}?member_id=${m.id}`, { token: admin });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(Object.keys(listed.json())).toEqual(['data']);
    expect(listed.json().data.data.map((x: { id: number }) => x.id)).toEqual([v.id]);
    expect(listed.json().data.total).toBe(1);
    // Searching in Cyrillic finds the Latin-stored plate.
    const cyr = await t.call('GET', `${V}?search_query=${encodeURIComponent(typed.slice(0, 7))}`, { token: admin });
    expect(cyr.json().data.data.map((x: { id: number }) => x.id)).toContain(v.id);

    const upd = await t.call('PUT', `${V}/${v.id}`, { token: admin, body: { ...v, realty_id: null, color: 'чорний' } });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().data).toMatchObject({ realty_id: null, parking: null, color: 'чорний' });
    expect((await t.call('GET', `${V}/${v.id}`, { token: admin })).json().data.color).toBe('чорний');
    // The member's record counts vehicles.
    expect((await t.call('GET', `${API}/members/${m.id}`, { token: admin })).json().data.vehicles_count).toBe(1);
    expect((await t.call('DELETE', `${V}/${v.id}`, { token: admin })).statusCode).toBe(200);
    expectErrorBody(await t.call('GET', `${V}/${v.id}`, { token: admin }), 404);
  });

  it('validates the plate, the member and the parking place', async () => {
    const m = await member();
    const flat = await makeUnit(t, houseId, `F${uid()}`.slice(0, 10));
    expectFieldError(await t.call('POST', V, { token: admin, body: { member_id: m.id, plate: '!!' } }), 'plate');
    expectFieldError(await t.call('POST', V, { token: admin, body: { member_id: m.id } }), 'plate');
    expectFieldError(await t.call('POST', V, { token: admin, body: { member_id: 999999, plate: plate() } }), 'member_id');
    expectFieldError(await t.call('POST', V, { token: admin, body: { member_id: m.id, plate: plate(), realty_id: flat.id } }), 'realty_id');
    expectFieldError(await t.call('POST', V, { token: admin, body: { member_id: m.id, plate: plate(), realty_id: 999999 } }), 'realty_id');
    expectFieldError(await t.call('GET', `${V}?member_id=x`, { token: admin }), 'member_id');
  });

  it('keeps staff to vehicles of members in their complexes', async () => {
    const m = await member();
    const created = await t.call('POST', V, { token: admin, body: { member_id: m.id, plate: plate() } });
    const staff = await createUser(t.db, { organizationId: t.organizationId, permissions: { members: ['view', 'edit', 'delete'] }, complexIds: [complexId] });
    const token = await t.login(staff.email, staff.password);
    expectErrorBody(await t.call('GET', `${V}/${created.json().data.id}`, { token }), 404);
    expectErrorBody(await t.call('DELETE', `${V}/${created.json().data.id}`, { token }), 404);
    expectErrorBody(await t.call('POST', V, { token, body: { member_id: m.id, plate: plate() } }), 403);
  });
});

describe('bills', () => {
  const B = `${API}/bills`;
  const put = (body: unknown, token = admin) => t.call('PUT', B, { token, body });

  it('creates charges, records payments and corrections, and recomputes totals', async () => {
    const unit = await makeUnit(t, houseId, `B${uid()}`.slice(0, 10));
    const m = await member(unit.id);
    const created = await put({
      bills: [
        { realty_id: unit.id, period: '2026-01', service: 'Утримання будинку', amount: 125050 },
        { realty_id: unit.id, period: '2026-01', service: 'Вивезення сміття', amount: 8000 },
        { realty_id: unit.id, period: '2026-02', service: 'Утримання будинку', amount: 125050 },
      ],
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().totals).toEqual({ amount: 258100, paid: 0, debt: 258100 });
    const [jan, trash, feb] = created.json().data;
    expect(jan).toMatchObject({
      period: '2026-01',
      service: 'Утримання будинку',
      amount: 125050,
      paid: 0,
      debt: 125050,
      status: 'unpaid',
      realty_number: unit.number,
    });

    // Two payments on one bill in one request add up; a correction sets the value.
    const paid = await put({
      bills: [
        { id: jan.id, payment: 50000 },
        { id: jan.id, payment: 75050 },
        { id: trash.id, paid: 3000 },
        { id: feb.id, payment: 200000 },
      ],
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const byId = Object.fromEntries(paid.json().data.map((b: { id: number }) => [b.id, b]));
    expect(byId[jan.id]).toMatchObject({ paid: 125050, debt: 0, status: 'paid' });
    expect(byId[trash.id]).toMatchObject({ paid: 3000, debt: 5000, status: 'partial' });
    expect(byId[feb.id]).toMatchObject({ paid: 200000, debt: -74950, status: 'paid' });
    expect(paid.json().totals).toEqual({ amount: 258100, paid: 328050, debt: -69950 });

    // GET by member (resident_id is the member's id), newest period first, with totals.
    const listed = await t.call('GET', `${B}?resident_id=${m.id}`, { token: admin });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.map((b: { period: string }) => b.period)).toEqual(['2026-02', '2026-01', '2026-01']);
    expect(listed.json().totals).toEqual({ amount: 258100, paid: 328050, debt: -69950 });
    expect(listed.json().pagination.total).toBe(3);
    expect((await t.call('GET', `${B}?resident_id=${m.id}&status=partial`, { token: admin })).json().data.map((b: { id: number }) => b.id)).toEqual([trash.id]);
  });

  it('never stores a negative amount and rolls the whole request back on any error', async () => {
    const unit = await makeUnit(t, houseId, `N${uid()}`.slice(0, 10));
    const ok = await put({ bills: [{ realty_id: unit.id, period: '2026-03', service: 'Опалення', amount: 90000 }] });
    const bill = ok.json().data[0];
    expectFieldError(await put({ bills: [{ id: bill.id, amount: -1 }] }), 'bills.0.amount');
    expectFieldError(await put({ bills: [{ id: bill.id, paid: -100 }] }), 'bills.0.paid');
    expectFieldError(await put({ bills: [{ id: bill.id, payment: 0 }] }), 'bills.0.payment');
    expectFieldError(await put({ bills: [{ id: bill.id, amount: 10.5 }] }), 'bills.0.amount');
    expectFieldError(await put({ bills: [{ id: bill.id, payment: 100, paid: 100 }] }), 'bills.0.payment');
    expectFieldError(await put({ bills: [{ id: bill.id }] }), 'bills.0.amount');
    expectFieldError(await put({ bills: [{ realty_id: unit.id, period: '2026-13', service: 'Опалення', amount: 1 }] }), 'bills.0.period');
    expectFieldError(await put({ bills: [] }), 'bills');
    // A good change followed by a bad one: nothing is written.
    const mixed = await put({
      bills: [
        { id: bill.id, payment: 1000 },
        { id: 999999, payment: 1000 },
      ],
    });
    expectFieldError(mixed, 'bills.1.id');
    expectFieldError(
      await put({
        bills: [
          { id: bill.id, payment: 1000 },
          { realty_id: unit.id, period: '2026-04', service: 'Нове' },
        ],
      }),
      'bills.1.amount',
    );
    const [row] = await t.db.select().from(bills).where(eq(bills.id, bill.id));
    expect(row.paid).toBe(0);
    expectFieldError(
      await put({
        bills: [
          { id: bill.id, paid: 1_999_999_999 },
          { id: bill.id, payment: 1_000_000 },
        ],
      }),
      'bills.1.payment',
    );
    expect((await t.db.select().from(bills).where(eq(bills.id, bill.id)))[0].paid).toBe(0);
  });

  it('keeps staff to bills of units in their complexes', async () => {
    const otherComplex = (await createComplex(t.db, { organizationId: t.organizationId })).id;
    const unit = await makeUnit(t, houseId, `S${uid()}`.slice(0, 10));
    const bill = (await put({ bills: [{ realty_id: unit.id, period: '2026-05', service: 'Опалення', amount: 500 }] })).json().data[0];
    const staff = await createUser(t.db, { organizationId: t.organizationId, permissions: { members: ['view', 'edit'] }, complexIds: [otherComplex] });
    const token = await t.login(staff.email, staff.password);
    expect((await t.call('GET', `${B}?realty_id=${unit.id}`, { token })).json().data).toEqual([]);
    expectFieldError(await put({ bills: [{ id: bill.id, payment: 100 }] }, token), 'bills.0.id');
    expectFieldError(await put({ bills: [{ realty_id: unit.id, period: '2026-05', service: 'Опалення', payment: 100 }] }, token), 'bills.0.realty_id');
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { members: ['view'] }, complexIds: [complexId] });
    expectErrorBody(await put({ bills: [{ id: bill.id, payment: 100 }] }, await t.login(viewer.email, viewer.password)), 403);
  });
});
