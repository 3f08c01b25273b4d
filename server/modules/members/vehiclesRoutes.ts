import { and, count, desc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { vehicleInput, vehicleRecord, type Vehicle, type VehicleInput } from '../../../contract/members.ts';
import { normalisePlate, PLATE_PATTERN } from '../../../contract/plate.ts';
import { searchForm } from '../../../contract/reference.ts';
import { members, realty, vehicles } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { notFound, unprocessable, isUniqueViolation } from '../../lib/errors.ts';
import { likePattern } from '../../lib/list.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { formatAddress } from '../houses/address.ts';
import { housesFor } from './records.ts';
import { memberScope, unitScope } from './scope.ts';

const params = z.object({ id: idSchema });
const tags = ['vehicles'];
const one = z.object({ data: vehicleRecord });
const NOT_FOUND = 'Транспортний засіб не знайдено.';
const PLATE_TAKEN = { plate: ['Транспортний засіб з таким номерним знаком уже є.'] };

const vehicleListQuery = listQuery.extend({
  member_id: idSchema.optional(),
  /** The member's id, as bills and residents take it. */
  resident_id: idSchema.optional(),
  realty_id: idSchema.optional(),
  sort: z.enum(['id', 'plate', 'created_at'], { error: 'Сортування можливе за: id, plate, created_at.' }).default('plate'),
});

const columns = {
  id: vehicles.id,
  memberId: vehicles.memberId,
  memberName: members.name,
  realtyId: vehicles.realtyId,
  realtyNumber: realty.number,
  realtyHouseId: realty.houseId,
  plate: vehicles.plate,
  brand: vehicles.brand,
  model: vehicles.model,
  color: vehicles.color,
  createdAt: vehicles.createdAt,
  updatedAt: vehicles.updatedAt,
};

export const vehicleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const selectVehicles = () =>
    db.select(columns).from(vehicles).innerJoin(members, eq(members.id, vehicles.memberId)).leftJoin(realty, eq(realty.id, vehicles.realtyId));
  type Row = Awaited<ReturnType<ReturnType<typeof selectVehicles>['execute']>>[number];

  async function toRecords(rows: Row[]): Promise<Vehicle[]> {
    const byHouse = await housesFor(
      db,
      rows.flatMap((r) => (r.realtyHouseId === null ? [] : [r.realtyHouseId])),
    );
    return rows.map((r) => {
      const house = r.realtyHouseId === null ? undefined : byHouse.get(r.realtyHouseId);
      return {
        id: r.id,
        member_id: r.memberId,
        member_name: r.memberName,
        realty_id: r.realtyId,
        parking: house && r.realtyNumber !== null ? `${formatAddress(house)}, паркомісце ${r.realtyNumber}` : null,
        plate: r.plate,
        brand: r.brand,
        model: r.model,
        color: r.color,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      };
    });
  }

  const scope = (user: CurrentUser) => memberScope(db, user);

  async function findOne(user: CurrentUser, id: number) {
    const [row] = await selectVehicles()
      .where(and(scope(user), eq(vehicles.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async function save(user: CurrentUser, body: VehicleInput, id?: number): Promise<number> {
    const errors: Record<string, string[]> = {};
    const [member] = await db
      .select({ id: members.id })
      .from(members)
      .where(and(scope(user), eq(members.id, body.member_id)))
      .limit(1);
    if (!member) errors.member_id = ['Мешканця не знайдено.'];
    if (body.realty_id !== null) {
      const [unit] = await db
        .select({ type: realty.type })
        .from(realty)
        .where(and(unitScope(db, user), eq(realty.id, body.realty_id)))
        .limit(1);
      if (!unit) errors.realty_id = ['Паркомісце не знайдено.'];
      else if (unit.type !== 'parking') errors.realty_id = ['Оберіть паркомісце, а не інше приміщення.'];
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
    const values = { memberId: body.member_id, realtyId: body.realty_id, plate, brand: body.brand, model: body.model, color: body.color };
    try {
      if (id === undefined) {
        const [created] = await db
          .insert(vehicles)
          .values({ ...values, organizationId: user.organizationId })
          .returning({ id: vehicles.id });
        return created.id;
      }
      await db
        .update(vehicles)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(vehicles.id, id));
      return id;
    } catch (err) {
      if (isUniqueViolation(err)) throw unprocessable(PLATE_TAKEN);
      throw err;
    }
  }

  const oneRecord = async (user: CurrentUser, id: number) => (await toRecords([await findOne(user, id)]))[0];

  app.get(
    '/vehicles',
    {
      preHandler: requirePermission('members', 'view'),
      schema: {
        tags,
        summary: 'Транспорт мешканців',
        description: 'Фільтри: member_id (або resident_id), realty_id; search_query — номерний знак (кирилицею чи латиницею), марка або ПІБ власника.',
        querystring: vehicleListQuery,
        response: { 200: z.object({ data: paginationSchema.extend({ data: z.array(vehicleRecord) }) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [scope(request.user)];
      const memberId = q.member_id ?? q.resident_id;
      if (memberId !== undefined) conditions.push(eq(vehicles.memberId, memberId));
      if (q.realty_id !== undefined) conditions.push(eq(vehicles.realtyId, q.realty_id));
      const text = searchForm(q.search_query);
      if (text) {
        const plate = normalisePlate(q.search_query);
        conditions.push(
          or(
            plate ? sql`${vehicles.plate} like ${likePattern(plate)}` : undefined,
            sql`lower(${vehicles.brand} || ' ' || ${vehicles.model}) like ${likePattern(text)}`,
            sql`${members.search} like ${likePattern(text)}`,
          ),
        );
      }
      const where = and(...conditions);
      const order = q.sort === 'plate' ? vehicles.plate : q.sort === 'created_at' ? vehicles.createdAt : vehicles.id;
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(vehicles).innerJoin(members, eq(members.id, vehicles.memberId)).where(where),
        selectVehicles()
          .where(where)
          .orderBy(q.order === 'desc' ? desc(order) : order, vehicles.id)
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { data: { data: await toRecords(rows), ...paginate(total, q.page, q.per_page) } };
    },
  );

  app.get(
    '/vehicles/:id',
    { preHandler: requirePermission('members', 'view'), schema: { tags, summary: 'Транспортний засіб', params, response: { 200: one } } },
    async (request) => ({ data: await oneRecord(request.user, request.params.id) }),
  );

  app.post(
    '/vehicles',
    {
      preHandler: requirePermission('members', 'create'),
      schema: { tags, summary: 'Додати транспортний засіб', description: 'Номерний знак зберігається латиницею великими літерами без пробілів: «аа 1234 вх» → AA1234BX.', body: vehicleInput, response: { 200: one } },
    },
    async (request) => ({ data: await oneRecord(request.user, await save(request.user, request.body)) }),
  );

  app.put(
    '/vehicles/:id',
    {
      preHandler: requirePermission('members', 'edit'),
      schema: { tags, summary: 'Змінити транспортний засіб', params, body: vehicleInput, response: { 200: one } },
    },
    async (request) => {
      await findOne(request.user, request.params.id);
      return { data: await oneRecord(request.user, await save(request.user, request.body, request.params.id)) };
    },
  );

  app.delete(
    '/vehicles/:id',
    {
      preHandler: requirePermission('members', 'delete'),
      schema: { tags, summary: 'Видалити транспортний засіб', params, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      await findOne(request.user, request.params.id);
      await db.delete(vehicles).where(eq(vehicles.id, request.params.id));
      return { message: 'Транспортний засіб видалено.' };
    },
  );
};
