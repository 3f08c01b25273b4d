import { and, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { House } from '../../../contract/houses.ts';
import { REALTY_TYPES, type RealtyType } from '../../../contract/realty.ts';
import type { Db } from '../../db/index.ts';
import { complexes, houses, houseTypes, realty, settlements, streets } from '../../db/schema.ts';
import { complexScope } from '../../lib/scope.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { formatAddress } from './address.ts';

type Reader = Pick<Db, 'select'>;

/**
 * Houses a user may see: their organization's and, for staff, only those in the complexes
 * assigned to them — so a house without a complex is visible to admins only.
 */
export const houseScope = (user: CurrentUser): SQL => complexScope(user, { organizationId: houses.organizationId, complexId: houses.complexId });

const houseColumns = {
  id: houses.id,
  complexId: houses.complexId,
  complexName: complexes.name,
  cityId: houses.settlementId,
  city: settlements.name,
  category: settlements.category,
  region: settlements.region,
  streetId: houses.streetId,
  street: streets.name,
  streetType: streets.type,
  number: houses.number,
  building: houses.building,
  houseTypeId: houses.houseTypeId,
  houseType: houseTypes.name,
  floors: houses.floors,
  entrances: houses.entrances,
  createdAt: houses.createdAt,
  updatedAt: houses.updatedAt,
};

/** Houses with everything a record shows; filters and sorting may use houses, settlements and streets. */
export function selectHouses(db: Reader) {
  return db
    .select(houseColumns)
    .from(houses)
    .innerJoin(settlements, eq(settlements.id, houses.settlementId))
    .innerJoin(streets, eq(streets.id, houses.streetId))
    .leftJoin(houseTypes, eq(houseTypes.id, houses.houseTypeId))
    .leftJoin(complexes, eq(complexes.id, houses.complexId));
}

export type HouseRow = Awaited<ReturnType<ReturnType<typeof selectHouses>['execute']>>[number];
export type RealtyCounts = Record<RealtyType, number>;

export const emptyCounts = (): RealtyCounts => Object.fromEntries(REALTY_TYPES.map((t) => [t, 0])) as RealtyCounts;

/** Units per type for each house, in one grouped query (realty_house_type_idx answers it). */
export async function realtyCountsFor(db: Reader, houseIds: number[]): Promise<Map<number, RealtyCounts>> {
  const out = new Map<number, RealtyCounts>();
  if (houseIds.length === 0) return out;
  const rows = await db
    .select({ houseId: realty.houseId, type: realty.type, n: count() })
    .from(realty)
    .where(inArray(realty.houseId, houseIds))
    .groupBy(realty.houseId, realty.type);
  for (const r of rows) {
    let counts = out.get(r.houseId);
    if (!counts) out.set(r.houseId, (counts = emptyCounts()));
    counts[r.type] = Number(r.n);
  }
  return out;
}

export function toHouseRecord(r: HouseRow, counts: RealtyCounts = emptyCounts()): House {
  return {
    id: r.id,
    complex_id: r.complexId,
    complex_name: r.complexName,
    city_id: r.cityId,
    city: r.city,
    region: r.region,
    street_id: r.streetId,
    street: r.street,
    street_type: r.streetType,
    number: r.number,
    building: r.building,
    address: formatAddress(r),
    house_type_id: r.houseTypeId,
    house_type: r.houseType,
    floors: r.floors,
    entrances: r.entrances,
    realty_counts: counts,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** Records for rows already read, with their unit counts (one more query for all of them). */
export async function withCounts(db: Reader, rows: HouseRow[]): Promise<House[]> {
  const counts = await realtyCountsFor(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toHouseRecord(r, counts.get(r.id)));
}

/** One house as a record, or undefined when it is not there (or not in `where`). */
export async function loadHouse(db: Reader, where: SQL, id: number): Promise<House | undefined> {
  const [row] = await selectHouses(db)
    .where(and(where, eq(houses.id, id)))
    .limit(1);
  if (!row) return undefined;
  return (await withCounts(db, [row]))[0];
}
