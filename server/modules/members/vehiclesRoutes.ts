import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { normalisePlate, PLATE_PATTERN } from '../../../contract/plate.ts';
import { searchForm } from '../../../contract/reference.ts';
import type { VehicleInput } from '../../../contract/members.ts';
import { vehicleEntity } from '../../../contract/vehicles.ts';
import { houses, members, realty, vehicles } from '../../db/schema.ts';
import { crudRoutes } from '../../crud/routes.ts';
import type { CrudContext } from '../../crud/types.ts';
import { unprocessable } from '../../lib/errors.ts';
import { likePattern } from '../../lib/list.ts';
import { formatAddress } from '../houses/address.ts';
import { housesFor } from './records.ts';
import { hasUnitWhere, memberScope, unitScope } from './scope.ts';

const PLATE_TAKEN = { plate: ['Транспортний засіб з таким номерним знаком уже є.'] };

/** Members the user may see whose row matches `where` (ids, for `vehicles.member_id in (…)`). */
const membersWhere = ({ db, user }: CrudContext, where?: ReturnType<typeof eq>) =>
  db
    .select({ id: members.id })
    .from(members)
    .where(and(memberScope(db, user), where));

/** Residents' vehicles: the generic CRUD of their declaration (contract/vehicles.ts), scoped like their owners. */
export const vehicleRoutes = crudRoutes(vehicleEntity, {
  table: vehicles,
  columns: { plate: vehicles.plate, created_at: vehicles.createdAt, member_id: vehicles.memberId, realty_id: vehicles.realtyId },
  /** Plates are Latin capitals and digits: their plain order. */
  sortKeys: { plate: (order) => [sql`${vehicles.plate} ${sql.raw(order)}`] },
  scope: (ctx) => inArray(vehicles.memberId, membersWhere(ctx)),
  complexFilter: ({ db }, complexId) =>
    inArray(
      vehicles.memberId,
      db
        .select({ id: members.id })
        .from(members)
        .where(hasUnitWhere(db, eq(houses.complexId, complexId))),
    ),
  /** The member's id, as bills and residents take it. */
  query: { resident_id: vehicleEntity.input.shape.member_id.optional() },
  where: (_ctx, q) => (q.resident_id !== undefined && q.member_id === undefined ? eq(vehicles.memberId, q.resident_id as number) : undefined),
  /** A plate in Cyrillic or Latin, a brand and model, or the owner's name. */
  search: (ctx, text) => {
    const form = searchForm(text);
    if (!form) return undefined;
    const plate = normalisePlate(text);
    return or(
      plate ? sql`${vehicles.plate} like ${likePattern(plate)}` : undefined,
      sql`lower(${vehicles.brand} || ' ' || ${vehicles.model}) like ${likePattern(form)}`,
      inArray(vehicles.memberId, membersWhere(ctx, sql`${members.search} like ${likePattern(form)}` as never)),
    );
  },
  references: {
    members: async (ctx, id) => (await membersWhere(ctx, eq(members.id, id)).limit(1)).length > 0,
    realty: async ({ db, user }, id) =>
      (
        await db
          .select({ id: realty.id })
          .from(realty)
          .where(and(unitScope(db, user), eq(realty.id, id)))
          .limit(1)
      ).length > 0,
  },
  async check({ db, user }, body: VehicleInput, id) {
    const errors: Record<string, string[]> = {};
    if (body.realty_id !== null) {
      const [unit] = await db.select({ type: realty.type }).from(realty).where(eq(realty.id, body.realty_id)).limit(1);
      if (unit && unit.type !== 'parking') errors.realty_id = ['Оберіть паркомісце, а не інше приміщення.'];
    }
    const plate = normalisePlate(body.plate);
    if (!PLATE_PATTERN.test(plate)) errors.plate = ['Номерний знак — від 2 до 12 літер і цифр, наприклад АА 1234 ВХ.'];
    else {
      const [taken] = await db
        .select({ id: vehicles.id })
        .from(vehicles)
        .where(and(eq(vehicles.organizationId, user.organizationId), eq(vehicles.plate, plate), id === undefined ? undefined : ne(vehicles.id, id)))
        .limit(1);
      if (taken) errors.plate = PLATE_TAKEN.plate;
    }
    if (Object.keys(errors).length) throw unprocessable(errors);
  },
  uniqueViolation: PLATE_TAKEN,
  values: (b: VehicleInput) => ({
    memberId: b.member_id,
    realtyId: b.realty_id,
    plate: normalisePlate(b.plate),
    brand: b.brand,
    model: b.model,
    color: b.color,
  }),
  async toRecords({ db }, rows) {
    const memberIds = [...new Set(rows.map((r) => r.memberId))];
    const unitIds = [...new Set(rows.flatMap((r) => (r.realtyId === null ? [] : [r.realtyId])))];
    const [owners, units] = await Promise.all([
      memberIds.length ? db.select({ id: members.id, name: members.name }).from(members).where(inArray(members.id, memberIds)) : [],
      unitIds.length ? db.select({ id: realty.id, number: realty.number, houseId: realty.houseId }).from(realty).where(inArray(realty.id, unitIds)) : [],
    ]);
    const nameOf = new Map(owners.map((m) => [m.id, m.name]));
    const unitOf = new Map(units.map((u) => [u.id, u]));
    const byHouse = await housesFor(
      db,
      units.map((u) => u.houseId),
    );
    return rows.map((r) => {
      const unit = r.realtyId === null ? undefined : unitOf.get(r.realtyId);
      const house = unit && byHouse.get(unit.houseId);
      return {
        id: r.id,
        member_id: r.memberId,
        member_name: nameOf.get(r.memberId) ?? '',
        realty_id: r.realtyId,
        parking: house && unit ? `${formatAddress(house)}, паркомісце ${unit.number}` : null,
        plate: r.plate,
        brand: r.brand,
        model: r.model,
        color: r.color,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      };
    });
  },
});
