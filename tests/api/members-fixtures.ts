import { searchForm } from '../../contract/reference.ts';
import { houses, realty, settlements, streets } from '../../server/db/schema.ts';
import { uid, type TestApp } from './helpers.ts';

/** A settlement of the test's own, so that addresses are unique to the file. */
export async function makeCity(t: TestApp) {
  const name = `Місто ${uid()}`;
  const [row] = await t.db
    .insert(settlements)
    .values({ code: `TEST${uid()}`, name, category: 'М', region: 'Тестова', searchName: searchForm(name) })
    .returning({ id: settlements.id });
  return { id: row.id, name };
}

/** A house on a street of its own, in `complexId` (or none). */
export async function makeHouse(t: TestApp, cityId: number, complexId: number | null, organizationId = t.organizationId) {
  const streetName = `Вулиця ${uid()}`;
  const [street] = await t.db
    .insert(streets)
    .values({ settlementId: cityId, name: streetName, type: 'вулиця', searchName: searchForm(streetName) })
    .returning();
  const [house] = await t.db.insert(houses).values({ organizationId, complexId, settlementId: cityId, streetId: street.id, number: '7' }).returning();
  return { ...house, streetName };
}

export async function makeUnit(
  t: TestApp,
  houseId: number,
  number: string,
  type: 'apartment' | 'parking' | 'storage' | 'commercial' = 'apartment',
  organizationId = t.organizationId,
) {
  const [row] = await t.db.insert(realty).values({ organizationId, houseId, type, number, area: '50.00' }).returning();
  return row;
}
