import { and, count, eq, inArray, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema, MAX_ID } from '../../../contract/common.ts';
import { HOUSE_SORTS, houseInput, houseRecord, unlinkInput, type HouseInput } from '../../../contract/houses.ts';
import { searchForm } from '../../../contract/reference.ts';
import type { Db } from '../../db/index.ts';
import { complexes, houses, houseTypes, realty, settlements, streets } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { expectedVersion, nextVersion, staleRecord, versionMatches } from '../../lib/concurrency.ts';
import { isUniqueViolation, notFound, unprocessable } from '../../lib/errors.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { complexScope } from '../../lib/scope.ts';
import { ensureStreet, streetFor } from '../reference/streets.ts';
import { addressMatches, searchText, splitStreetName } from './address.ts';
import { naturalKeys, ordered } from '../../lib/order.ts';
import { houseScope, loadHouse, selectHouses, withCounts } from './records.ts';
import { plural } from '../../lib/words.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** `complex_ids[]=1&complex_ids[]=2`; a single plain `complex_ids=1` counts as a list of one. */
export const idList = (label: string) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' ? [v] : v),
      z.array(idSchema, { error: `Поле «${label}» має бути списком ідентифікаторів.` }).max(1000, `Поле «${label}» — не більше 1000 значень.`),
    )
    .optional();

/** `1`/`true` or `0`/`false`. */
export const flag = (label: string) =>
  z
    .enum(['0', '1', 'true', 'false'], { error: `Поле «${label}»: 1 або 0.` })
    .transform((v) => v === '1' || v === 'true')
    .optional();

/** A query value that is either an id (only digits) or a name. */
function idOrName(value: string, idColumn: PgColumn, searchColumn: PgColumn): SQL {
  if (/^\d+$/.test(value)) {
    const id = Number(value);
    return id >= 1 && id <= MAX_ID ? eq(idColumn, id) : sql`false`;
  }
  return eq(searchColumn, searchForm(value));
}

const houseListQuery = listQuery.extend({
  sort: z.enum(HOUSE_SORTS, { error: 'Сортування можливе за: id, address, number, created_at.' }).default('id'),
  complex_id: idSchema.optional(),
  complex_ids: idList('Комплекси'),
  city: z.string().trim().max(100, 'Назва населеного пункту задовга.').optional(),
  street: z.string().trim().max(150, 'Назва вулиці задовга.').optional(),
  unlinked: flag('Без комплексу'),
});

const sortKeys = {
  id: [houses.id],
  created_at: [houses.createdAt],
  number: [...naturalKeys(houses.number), ukrainianSortKey(houses.building)],
  address: [ukrainianSortKey(streets.name), ...naturalKeys(houses.number), ukrainianSortKey(houses.building)],
} as const;

const params = z.object({ id: idSchema });
const tags = ['houses'];
const one = z.object({ data: houseRecord });

export const HOUSE_NOT_FOUND = 'Будинок не знайдено.';
const ADDRESS_TAKEN = { number: ['Будинок з такою адресою вже існує.'] };

/**
 * Checks what a house refers to and turns the input into column values: the city must exist,
 * the street must be in that city (a typed name becomes a street of the city, in the same
 * transaction), the complex must be one the user works in, the type one of the organization.
 */
async function resolveHouse(tx: Tx, user: CurrentUser, body: HouseInput, currentId?: number) {
  const errors: Record<string, string[]> = {};
  const [city] = await tx.select({ id: settlements.id }).from(settlements).where(eq(settlements.id, body.city_id)).limit(1);
  if (!city) errors.city_id = ['Населений пункт не знайдено.'];

  let streetId: number | null = null;
  if (body.street_id !== null) {
    // A street the organization sees: reference or its own (a renamed reference street means its stand-in).
    const street = await streetFor(tx, user.organizationId, body.street_id);
    if (!street) errors.street_id = ['Вулицю не знайдено.'];
    else if (city && street.settlementId !== city.id) errors.street_id = ['Ця вулиця не належить обраному населеному пункту.'];
    else streetId = street.id;
  }

  if (body.complex_id !== null) {
    const [complex] = await tx
      .select({ id: complexes.id })
      .from(complexes)
      .where(and(complexScope(user, { organizationId: complexes.organizationId, complexId: complexes.id }), eq(complexes.id, body.complex_id)))
      .limit(1);
    if (!complex) errors.complex_id = ['Комплекс не знайдено.'];
  } else if (user.complexIds !== null) {
    // Staff see houses only through their complexes: a house without one would vanish for them.
    errors.complex_id = ['Оберіть комплекс: будинки без комплексу доступні лише адміністраторам.'];
  }

  if (body.house_type_id !== null) {
    const [type] = await tx
      .select({ id: houseTypes.id })
      .from(houseTypes)
      .where(and(eq(houseTypes.organizationId, user.organizationId), eq(houseTypes.id, body.house_type_id)))
      .limit(1);
    if (!type) errors.house_type_id = ['Тип будинку не знайдено.'];
  }

  if (Object.keys(errors).length > 0 || !city) throw unprocessable(errors);

  if (streetId === null) {
    const { name, type } = splitStreetName(body.street_name);
    streetId = await ensureStreet(tx, user.organizationId, city.id, name, type);
  }

  const [taken] = await tx
    .select({ id: houses.id })
    .from(houses)
    .where(
      and(
        eq(houses.organizationId, user.organizationId),
        eq(houses.streetId, streetId),
        sql`lower(${houses.number}) = lower(${body.number})`,
        sql`lower(${houses.building}) = lower(${body.building})`,
        currentId === undefined ? undefined : ne(houses.id, currentId),
      ),
    )
    .limit(1);
  if (taken) throw unprocessable(ADDRESS_TAKEN);

  return {
    complexId: body.complex_id,
    settlementId: city.id,
    streetId,
    number: body.number,
    building: body.building,
    houseTypeId: body.house_type_id,
    floors: body.floors,
    entrances: body.entrances,
  };
}

export const houseRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  async function findOne(user: CurrentUser, id: number) {
    const house = await loadHouse(db, houseScope(user), id);
    if (!house) throw notFound(HOUSE_NOT_FOUND);
    return house;
  }

  /** Creates (no id) or changes a house in one transaction; `version` is the `If-Match` of an edit. */
  async function save(user: CurrentUser, body: HouseInput, id?: number, version?: Date) {
    try {
      return await db.transaction(async (tx) => {
        const values = await resolveHouse(tx, user, body, id);
        if (id === undefined) {
          const [created] = await tx
            .insert(houses)
            .values({ ...values, organizationId: user.organizationId })
            .returning({ id: houses.id });
          return created.id;
        }
        const changed = await tx
          .update(houses)
          .set({ ...values, updatedAt: nextVersion(houses.updatedAt) })
          .where(and(eq(houses.id, id), versionMatches(houses.updatedAt, version)))
          .returning({ id: houses.id });
        // Another user changed the house since it was read: nothing of this edit is kept.
        if (changed.length === 0) throw version ? staleRecord() : notFound(HOUSE_NOT_FOUND);
        return id;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw unprocessable(ADDRESS_TAKEN);
      throw err;
    }
  }

  app.get(
    '/houses',
    {
      preHandler: requirePermission('houses', 'view'),
      schema: {
        tags,
        summary: 'Список будинків',
        description:
          'Фільтри: complex_id або complex_ids[]; city та street — ідентифікатор (лише цифри) або точна назва без урахування регістру й ' +
          'виду апострофа; unlinked=1 — будинки без комплексу; search_query — частина адреси.',
        querystring: houseListQuery,
        response: { 200: z.object({ main_data: paginationSchema.extend({ data: z.array(houseRecord) }) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [houseScope(request.user)];
      if (q.complex_id !== undefined) conditions.push(eq(houses.complexId, q.complex_id));
      if (q.complex_ids !== undefined) conditions.push(inArray(houses.complexId, q.complex_ids));
      if (q.unlinked === true) conditions.push(isNull(houses.complexId));
      if (q.unlinked === false) conditions.push(isNotNull(houses.complexId));
      if (q.city) conditions.push(idOrName(q.city, houses.settlementId, settlements.searchName));
      if (q.street) conditions.push(idOrName(q.street, houses.streetId, streets.searchName));
      const search = searchText(q.search_query);
      if (search) conditions.push(addressMatches(likePattern(search)));
      const where = and(...conditions);

      const [[{ total }], rows] = await Promise.all([
        db
          .select({ total: count() })
          .from(houses)
          .innerJoin(settlements, eq(settlements.id, houses.settlementId))
          .innerJoin(streets, eq(streets.id, houses.streetId))
          .where(where),
        selectHouses(db)
          .where(where)
          .orderBy(...ordered([...sortKeys[q.sort]], q.order), houses.id)
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      const data = await withCounts(db, rows);
      return { main_data: { data, ...paginate(total, q.page, q.per_page) } };
    },
  );

  app.get(
    '/houses/:id',
    {
      preHandler: requirePermission('houses', 'view'),
      schema: { tags, summary: 'Будинок', params, response: { 200: one } },
    },
    async (request) => ({ data: await findOne(request.user, request.params.id) }),
  );

  app.post(
    '/houses',
    {
      preHandler: requirePermission('houses', 'create'),
      schema: {
        tags,
        summary: 'Додати будинок',
        description: 'street_id — вулиця з довідника; або street_name — нова назва, яку буде додано до вулиць населеного пункту.',
        body: houseInput,
        response: { 200: one },
      },
    },
    async (request) => {
      const id = await save(request.user, request.body);
      return { data: await findOne(request.user, id) };
    },
  );

  app.put(
    '/houses/:id',
    {
      preHandler: requirePermission('houses', 'edit'),
      schema: { tags, summary: 'Змінити будинок', params, body: houseInput, response: { 200: one } },
    },
    async (request) => {
      await findOne(request.user, request.params.id);
      await save(request.user, request.body, request.params.id, expectedVersion(request));
      // Still in scope: a staff user can only move a house into another of their complexes.
      return { data: await findOne(request.user, request.params.id) };
    },
  );

  app.delete(
    '/houses/:id',
    {
      preHandler: requirePermission('houses', 'delete'),
      schema: {
        tags,
        summary: 'Видалити будинок',
        description: 'Разом із будинком видаляються всі його приміщення (квартири, паркомісця, комори, комерційні).',
        params,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      await findOne(request.user, request.params.id);
      // realty.house_id is ON DELETE CASCADE: the house's units go with it.
      const units = await db.transaction(async (tx) => {
        const [{ n }] = await tx.select({ n: count() }).from(realty).where(eq(realty.houseId, request.params.id));
        await tx.delete(houses).where(eq(houses.id, request.params.id));
        return Number(n);
      });
      return {
        message: units === 0 ? 'Будинок видалено.' : `Будинок видалено разом з ${units} ${plural(units, ['приміщенням', 'приміщеннями', 'приміщеннями'])}.`,
      };
    },
  );

  app.post(
    '/houses/unlink',
    {
      preHandler: requirePermission('houses', 'edit'),
      schema: {
        tags,
        summary: "Від'єднати будинки від комплексу",
        description: 'Будинки залишаються, лише без комплексу. Відповідь: ідентифікатори знайдених будинків (чужі та невідомі пропускаються).',
        body: unlinkInput,
        response: { 200: z.object({ message: z.string(), data: z.array(z.number()) }) },
      },
    },
    async (request) => {
      const ids = [...new Set(request.body.house_ids)];
      const found = await db.transaction(async (tx) => {
        const rows = await tx
          .select({ id: houses.id })
          .from(houses)
          .where(and(houseScope(request.user), inArray(houses.id, ids)))
          .orderBy(houses.id)
          .for('update');
        const foundIds = rows.map((r) => r.id);
        if (foundIds.length > 0) {
          await tx
            .update(houses)
            .set({ complexId: null, updatedAt: new Date() })
            .where(and(inArray(houses.id, foundIds), isNotNull(houses.complexId)));
        }
        return foundIds;
      });
      if (found.length === 0) throw notFound(ids.length === 1 ? HOUSE_NOT_FOUND : 'Будинки не знайдено.');
      return {
        message: `Від'єднано від комплексу: ${found.length} ${plural(found.length, ['будинок', 'будинки', 'будинків'])}.`,
        data: found,
      };
    },
  );
};
