import { and, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { REALTY_TYPES, realtyInput, realtyRecord, type Realty, type RealtyInput } from '../../../contract/realty.ts';
import type { Db } from '../../db/index.ts';
import { houses, realty, settlements, streets } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { notFound, unprocessable, isUniqueViolation } from '../../lib/errors.ts';
import { likePattern, listTotal } from '../../lib/list.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { addressMatches, formatAddress, searchText } from '../houses/address.ts';
import { naturalKeys, ordered } from '../../lib/order.ts';
import { houseScope, selectHouses } from '../houses/records.ts';

type Row = typeof realty.$inferSelect;

export const REALTY_SORTS = ['id', 'number', 'house', 'area', 'floor'] as const;

const sortKeys = {
  id: [realty.id],
  number: naturalKeys(realty.number),
  /** Units grouped by house (in the order houses were added), numbers naturally within each. */
  house: [realty.houseId, ...naturalKeys(realty.number)],
  area: [realty.area],
  floor: [realty.floor],
} as const;

const realtyListQuery = listQuery.extend({
  sort: z.enum(REALTY_SORTS, { error: 'Сортування можливе за: id, number, house, area, floor.' }).default('id'),
  type: z.enum(REALTY_TYPES, { error: 'Тип: apartment, parking, storage або commercial.' }).optional(),
  house_id: idSchema.optional(),
  complex_id: idSchema.optional(),
});

const params = z.object({ id: idSchema });
const tags = ['realty'];
const one = z.object({ data: realtyRecord });
const NOT_FOUND = 'Приміщення не знайдено.';
const NUMBER_TAKEN = { number: ['У цьому будинку вже є приміщення цього типу з таким номером.'] };

/**
 * Units a user may see: their organization's and, for staff, only those of houses in the
 * complexes assigned to them (the house's complex_id, through complexScope).
 */
function realtyScope(db: Db, user: CurrentUser): SQL {
  const org = eq(realty.organizationId, user.organizationId);
  if (user.complexIds === null) return org;
  if (user.complexIds.length === 0) return sql`false`;
  return and(org, inArray(realty.houseId, db.select({ id: houses.id }).from(houses).where(houseScope(user))))!;
}

const areaOut = (area: string | null) => (area === null ? null : Number(area));
const areaIn = (area: number | null) => (area === null ? null : area.toFixed(2));

export const realtyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  /** Records for unit rows: one query for the houses of the whole page (address, complex). */
  async function toRecords(rows: Row[]): Promise<Realty[]> {
    const houseIds = [...new Set(rows.map((r) => r.houseId))];
    const houseRows = houseIds.length ? await selectHouses(db).where(inArray(houses.id, houseIds)) : [];
    const byId = new Map(houseRows.map((h) => [h.id, h]));
    // A house deleted between the two reads takes its units with it: leave them out.
    return rows.flatMap((r) => {
      const house = byId.get(r.houseId);
      if (!house) return [];
      return {
        id: r.id,
        house_id: r.houseId,
        complex_id: house.complexId,
        address: formatAddress(house),
        type: r.type,
        number: r.number,
        area: areaOut(r.area),
        floor: r.floor,
        entrance: r.entrance,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      } satisfies Realty;
    });
  }

  async function oneRecord(row: Row): Promise<Realty> {
    const [record] = await toRecords([row]);
    if (!record) throw notFound(NOT_FOUND);
    return record;
  }

  async function findOne(user: CurrentUser, id: number) {
    const [row] = await db
      .select()
      .from(realty)
      .where(and(realtyScope(db, user), eq(realty.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async function save(user: CurrentUser, body: RealtyInput, id?: number): Promise<Row> {
    const [house] = await db
      .select({ id: houses.id })
      .from(houses)
      .where(and(houseScope(user), eq(houses.id, body.house_id)))
      .limit(1);
    if (!house) throw unprocessable({ house_id: ['Будинок не знайдено.'] });
    const [taken] = await db
      .select({ id: realty.id })
      .from(realty)
      .where(
        and(
          eq(realty.houseId, body.house_id),
          eq(realty.type, body.type),
          sql`lower(${realty.number}) = lower(${body.number})`,
          id === undefined ? undefined : ne(realty.id, id),
        ),
      )
      .limit(1);
    if (taken) throw unprocessable(NUMBER_TAKEN);
    const values = {
      houseId: body.house_id,
      type: body.type,
      number: body.number,
      area: areaIn(body.area),
      floor: body.floor,
      entrance: body.entrance,
    };
    try {
      if (id === undefined) {
        const [created] = await db
          .insert(realty)
          .values({ ...values, organizationId: user.organizationId })
          .returning();
        return created;
      }
      const [updated] = await db
        .update(realty)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(realty.id, id))
        .returning();
      return updated;
    } catch (err) {
      if (isUniqueViolation(err)) throw unprocessable(NUMBER_TAKEN);
      throw err;
    }
  }

  app.get(
    '/realty',
    {
      preHandler: requirePermission('realty', 'view'),
      schema: {
        tags,
        summary: 'Список приміщень',
        description: 'Фільтри: type, house_id, complex_id; search_query — частина номера або адреси будинку. Сортування за номером — природне: 2 перед 10.',
        querystring: realtyListQuery,
        response: { 200: z.object({ main_data: paginationSchema.extend({ data: z.array(realtyRecord) }) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const user = request.user;
      const conditions: (SQL | undefined)[] = [realtyScope(db, user)];
      if (q.type) conditions.push(eq(realty.type, q.type));
      if (q.house_id !== undefined) conditions.push(eq(realty.houseId, q.house_id));
      if (q.complex_id !== undefined) {
        conditions.push(
          inArray(
            realty.houseId,
            db
              .select({ id: houses.id })
              .from(houses)
              .where(and(eq(houses.organizationId, user.organizationId), eq(houses.complexId, q.complex_id))),
          ),
        );
      }
      const search = searchText(q.search_query);
      if (search) {
        const pattern = likePattern(search);
        const matchingHouses = db
          .select({ id: houses.id })
          .from(houses)
          .innerJoin(settlements, eq(settlements.id, houses.settlementId))
          .innerJoin(streets, eq(streets.id, houses.streetId))
          .where(and(eq(houses.organizationId, user.organizationId), addressMatches(pattern)));
        // The houses first (an organization has thousands at most): with their ids in the query
        // the condition stays indexable (trigram on the number OR the house index).
        const houseIds = (await matchingHouses).map((h) => h.id);
        const byAddress = houseIds.length ? inArray(realty.houseId, houseIds) : undefined;
        // A unit number is at most 20 characters: a longer query can only be part of an address.
        conditions.push(search.length <= 20 ? or(sql`${realty.number} ILIKE ${pattern}`, byAddress) : (byAddress ?? sql`false`));
      }
      const where = and(...conditions);
      const [total, rows] = await Promise.all([
        listTotal(db, db.select({ one: sql`1` }).from(realty).where(where)),
        db
          .select()
          .from(realty)
          .where(where)
          .orderBy(...ordered([...sortKeys[q.sort]], q.order), realty.id)
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { main_data: { data: await toRecords(rows), ...paginate(total, q.page, q.per_page) } };
    },
  );

  app.get(
    '/realty/:id',
    {
      preHandler: requirePermission('realty', 'view'),
      schema: { tags, summary: 'Приміщення', params, response: { 200: one } },
    },
    async (request) => ({ data: await oneRecord(await findOne(request.user, request.params.id)) }),
  );

  app.post(
    '/realty',
    {
      preHandler: requirePermission('realty', 'create'),
      schema: { tags, summary: 'Додати приміщення', body: realtyInput, response: { 200: one } },
    },
    async (request) => ({ data: await oneRecord(await save(request.user, request.body)) }),
  );

  app.put(
    '/realty/:id',
    {
      preHandler: requirePermission('realty', 'edit'),
      schema: { tags, summary: 'Змінити приміщення', params, body: realtyInput, response: { 200: one } },
    },
    async (request) => {
      await findOne(request.user, request.params.id);
      return { data: await oneRecord(await save(request.user, request.body, request.params.id)) };
    },
  );

  app.delete(
    '/realty/:id',
    {
      preHandler: requirePermission('realty', 'delete'),
      schema: { tags, summary: 'Видалити приміщення', params, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      await findOne(request.user, request.params.id);
      await db.delete(realty).where(eq(realty.id, request.params.id));
      return { message: 'Приміщення видалено.' };
    },
  );
};
