import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Member, MemberUnit, Resident } from '../../../contract/members.ts';
import { formatShare } from '../../../contract/share.ts';
import type { Db } from '../../db/index.ts';
import { houses, members, realty, residentRoles, residents, settlements, streets, vehicles } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { addressSql } from '../houses/address.ts';
import { houseScope, selectHouses, type HouseRow } from '../houses/records.ts';
import { naturalKeys } from '../../lib/order.ts';
import { isoSql, LIST_PAGE, pageArray } from '../../lib/jsonSql.ts';

type Reader = Pick<Db, 'select'>;
export type MemberRow = typeof members.$inferSelect;

const shareText = (n: number | null, d: number | null) => (n === null || d === null ? null : formatShare({ numerator: n, denominator: d }));
const areaOut = (area: string | null) => (area === null ? null : Number(area));

/** Resident links joined with their unit, role, member and the unit's house and address; `where` may use those tables. */
export function selectResidents(db: Reader) {
  return db
    .select({
      id: residents.id,
      memberId: residents.memberId,
      memberName: members.name,
      memberPhone: members.phone,
      realtyId: residents.realtyId,
      houseId: realty.houseId,
      complexId: houses.complexId,
      address: addressSql,
      type: realty.type,
      number: realty.number,
      area: realty.area,
      roleId: residents.roleId,
      role: residentRoles.name,
      roleCode: residentRoles.code,
      shareNumerator: residents.shareNumerator,
      shareDenominator: residents.shareDenominator,
      createdAt: residents.createdAt,
      updatedAt: residents.updatedAt,
    })
    .from(residents)
    .innerJoin(members, eq(members.id, residents.memberId))
    .innerJoin(realty, eq(realty.id, residents.realtyId))
    .innerJoin(residentRoles, eq(residentRoles.id, residents.roleId))
    .innerJoin(houses, eq(houses.id, realty.houseId))
    .innerJoin(settlements, eq(settlements.id, houses.settlementId))
    .innerJoin(streets, eq(streets.id, houses.streetId));
}
export type ResidentRow = Awaited<ReturnType<ReturnType<typeof selectResidents>['execute']>>[number];

/** Resident links a user may see: the member's organization and, for staff, units in their complexes. */
export function residentScope(db: Reader, user: CurrentUser): SQL {
  const org = eq(residents.organizationId, user.organizationId);
  if (user.complexIds === null) return org;
  if (user.complexIds.length === 0) return and(org, eq(residents.id, 0))!;
  return and(org, inArray(realty.houseId, db.select({ id: houses.id }).from(houses).where(houseScope(user))))!;
}

export const residentOrder = [...naturalKeys(realty.number), residents.id];

/** The houses of these links (address, complex), one query for all. */
export async function housesFor(db: Reader, houseIds: number[]): Promise<Map<number, HouseRow>> {
  const unique = [...new Set(houseIds)];
  const rows = unique.length ? await selectHouses(db).where(inArray(houses.id, unique)) : [];
  return new Map(rows.map((h) => [h.id, h]));
}

/** Records of resident links; the rows carry their house's complex and address (no more queries). */
export function toResidentRecords(rows: ResidentRow[]): Resident[] {
  return rows.map((r) => {
    const share = shareText(r.shareNumerator, r.shareDenominator);
    return {
      id: r.id,
      member_id: r.memberId,
      member_name: r.memberName,
      member_phone: r.memberPhone,
      realty_id: r.realtyId,
      house_id: r.houseId,
      complex_id: r.complexId,
      address: r.address,
      type: r.type,
      number: r.number,
      area: areaOut(r.area),
      role_id: r.roleId,
      role: r.role,
      role_code: r.roleCode,
      ownership_share: share,
      ownership_share_value: r.shareNumerator === null || r.shareDenominator === null ? null : r.shareNumerator / r.shareDenominator,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    } satisfies Resident;
  });
}

/** Member records for a page of rows: their units (those the user may see) and vehicle counts. */
export async function toMemberRecords(db: Reader, user: CurrentUser, rows: MemberRow[]): Promise<Member[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const [links, vehicleCounts] = await Promise.all([
    selectResidents(db)
      .where(and(inArray(residents.memberId, ids), residentScope(db, user)))
      .orderBy(asc(residents.memberId), ...residentOrder),
    db.select({ memberId: vehicles.memberId, n: count() }).from(vehicles).where(inArray(vehicles.memberId, ids)).groupBy(vehicles.memberId),
  ]);
  const records = toResidentRecords(links);
  const units = new Map<number, MemberUnit[]>();
  for (const r of records) {
    const list = units.get(r.member_id) ?? [];
    list.push({
      resident_id: r.id,
      realty_id: r.realty_id,
      house_id: r.house_id,
      complex_id: r.complex_id,
      address: r.address,
      type: r.type,
      number: r.number,
      role_id: r.role_id,
      role: r.role,
      ownership_share: r.ownership_share,
    });
    units.set(r.member_id, list);
  }
  const vehiclesBy = new Map(vehicleCounts.map((v) => [v.memberId, Number(v.n)]));
  return rows.map((m) => ({
    id: m.id,
    name: m.name,
    phone: m.phone,
    email: m.email,
    status: m.status,
    note: m.note,
    units: units.get(m.id) ?? [],
    vehicles_count: vehiclesBy.get(m.id) ?? 0,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  }));
}

/** A link's ownership share as `formatShare` writes it («1», «1/2»), null without one. */
const shareSql = sql`case when ${residents.shareNumerator} is null or ${residents.shareDenominator} is null then null
  when ${residents.shareNumerator} = ${residents.shareDenominator} then '1'
  else ${residents.shareNumerator} || '/' || ${residents.shareDenominator} end`;

/** The same records as `toMemberRecords`, built in SQL for a list's page (server/crud/types.ts `recordsJson`). */
export function memberRecordsJson(db: Reader, user: CurrentUser): SQL {
  const units = db
    .select({
      list: sql`json_agg(json_build_object(
        'resident_id', ${residents.id}, 'realty_id', ${residents.realtyId}, 'house_id', ${realty.houseId}, 'complex_id', ${houses.complexId},
        'address', ${addressSql}, 'type', ${realty.type}, 'number', ${realty.number}, 'role_id', ${residents.roleId},
        'role', ${residentRoles.name}, 'ownership_share', ${shareSql}) order by ${sql.join([...residentOrder], sql`, `)})`,
    })
    .from(residents)
    .innerJoin(realty, eq(realty.id, residents.realtyId))
    .innerJoin(residentRoles, eq(residentRoles.id, residents.roleId))
    .innerJoin(houses, eq(houses.id, realty.houseId))
    .innerJoin(settlements, eq(settlements.id, houses.settlementId))
    .innerJoin(streets, eq(streets.id, houses.streetId))
    .where(and(sql`${residents.memberId} = ${members.id}`, residentScope(db, user)));
  // The page's vehicles are counted in one pass: a count per record set up and ran a scan (or an
  // index probe) for each member (docs/benchmarks.md, "The floor counts as the app does").
  return pageArray(
    sql`json_build_object('id', ${members.id}, 'name', ${members.name}, 'phone', ${members.phone}, 'email', ${members.email},
      'status', ${members.status}, 'note', ${members.note}, 'units', coalesce((${units}), '[]'::json),
      'vehicles_count', coalesce(page_vehicles.n, 0), 'created_at', ${isoSql(members.createdAt)}, 'updated_at', ${isoSql(members.updatedAt)})`,
    sql`join ${members} on ${members.id} = ${LIST_PAGE}.id
      left join (select ${vehicles.memberId} as member_id, count(*)::int as n from ${vehicles}
        where ${vehicles.memberId} in (select id from ${LIST_PAGE}) group by ${vehicles.memberId}) as page_vehicles
        on page_vehicles.member_id = ${members.id}`,
  );
}
