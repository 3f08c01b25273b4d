import { parse } from 'csv-parse/sync';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houses } from '../../server/db/schema.ts';
import { requireAuth } from '../../server/lib/auth.ts';
import { plainCrudRoutes } from '../../server/modules/declared.ts';
import { parcelLockerEntity, parcelLockers, PARCEL_LOCKERS_DDL } from '../fixtures/parcelLockers.ts';
import { ADMIN, API, expectFieldError, setupApp, type TestApp } from './helpers.ts';

/**
 * A new entity is its declaration: the throwaway parcel lockers of tests/fixtures get their list,
 * record, create, update, delete, filters, search, sorts, export and OpenAPI entries from
 * its declaration and its table alone (`plainCrudRoutes`), with no handler of their own.
 */
let t: TestApp;
let admin: string;
let houseId: number;

beforeAll(async () => {
  t = await setupApp({
    extraRoutes: (app) =>
      app.register(
        async (api) => {
          await api.register(requireAuth, { db: app.db });
          await api.register(plainCrudRoutes(parcelLockerEntity, parcelLockers));
        },
        { prefix: API },
      ),
  });
  await t.db.execute(sql.raw(PARCEL_LOCKERS_DDL));
  admin = await t.login(ADMIN.email, ADMIN.password);
  [{ id: houseId }] = await t.db.select({ id: houses.id }).from(houses).where(eq(houses.organizationId, t.organizationId)).orderBy(asc(houses.id)).limit(1);
});
afterAll(() => t?.close());

const R = `${API}/parcel-lockers`;

describe('a declared entity with no code of its own', () => {
  it('has its routes in the OpenAPI document', async () => {
    const doc = (await t.call('GET', `${API}/openapi.json`, { token: admin })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([R, `${R}/{id}`, `${R}/export`]));
    expect(Object.keys(doc.paths[`${R}/{id}`]).sort()).toEqual(['delete', 'get', 'put']);
  });

  it('creates, filters by its enum, searches, sorts and exports with its Ukrainian labels', async () => {
    let address = '';
    for (const [name, kind, cells] of [
      ['Біля ліфта', 'nova_poshta', 40],
      ['У холі', 'ukrposhta', 12],
      ['Двір', 'meest', 60],
    ] as const) {
      const res = await t.call('POST', R, { token: admin, body: { house_id: houseId, name, kind, cells, installed_on: '2026-03-05' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ name, kind, cells, installed_on: '2026-03-05', address: expect.stringContaining('Київ') });
      address = res.json().data.address;
    }
    const byKind = (await t.call('GET', `${R}?kind=ukrposhta`, { token: admin })).json();
    expect(byKind.data.map((r: { name: string }) => r.name)).toEqual(['У холі']);
    expect(byKind.pagination.total).toBe(1);
    const sorted = (await t.call('GET', `${R}?sort=cells&order=desc`, { token: admin })).json().data.map((r: { cells: number }) => r.cells);
    expect(sorted).toEqual([60, 40, 12]);
    expect((await t.call('GET', `${R}?search_query=хол`, { token: admin })).json().data).toHaveLength(1);

    const csv = await t.call('GET', `${R}/export?format=csv&kind=meest`, { token: admin });
    const rows = parse(csv.body.replace(/^\uFEFF/, ''), { delimiter: ';' }) as string[][];
    expect(rows[0]).toEqual(['ID', 'Назва', 'Будинок', 'Оператор', 'Комірок', 'Встановлено']);
    // The house is exported by its address, as the list shows it, not by its id.
    expect(rows.slice(1).map((r) => r.slice(1))).toEqual([['Двір', address, 'Meest', '60', '05.03.2026']]);
  });

  it('validates with its schema, in Ukrainian', async () => {
    expectFieldError(await t.call('POST', R, { token: admin, body: { house_id: houseId, name: 'X', kind: 'dhl', cells: 10 } }), 'kind');
    expectFieldError(await t.call('POST', R, { token: admin, body: { house_id: houseId, name: 'X', kind: 'meest', cells: 0 } }), 'cells');
    expectFieldError(await t.call('POST', R, { token: admin, body: { house_id: 999999, name: 'X', kind: 'meest', cells: 5 } }), 'house_id');
  });
});
