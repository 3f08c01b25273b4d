import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import {
  cityRecord,
  findCityQuery,
  findStreetQuery,
  normaliseApostrophes,
  searchForm,
  streetInput,
  streetRecord,
} from '../../../contract/reference.ts';
import type { Db } from '../../db/index.ts';
import { settlements, streets } from '../../db/schema.ts';
import { requirePermission } from '../../lib/auth.ts';
import { notFound, unprocessable } from '../../lib/errors.ts';
import { findCities, findStreets } from './search.ts';
import { sameStreet } from './streets.ts';

type Row = typeof streets.$inferSelect;

const toRecord = (r: Row) => ({
  id: r.id,
  city_id: r.settlementId,
  name: r.name,
  type: r.type,
  district: r.district,
  source: r.source,
});

const params = z.object({ id: idSchema });
const streetRename = streetInput.omit({ city_id: true });
const tags = ['reference'];

const CITY_NOT_FOUND = 'Населений пункт не знайдено.';
const STREET_TAKEN = { name: ['У цьому населеному пункті вже є вулиця з такою назвою.'] };
/** Serialises street writes per settlement, so that two requests cannot add the same street. */
const STREET_LOCK = 7302;

/** How an admin's name is stored: single spaces, the reference's apostrophe. */
const cleanName = (name: string) => normaliseApostrophes(name).replace(/\s+/g, ' ').trim();

async function settlementExists(db: Pick<Db, 'select'>, id: number) {
  const [row] = await db.select({ id: settlements.id }).from(settlements).where(eq(settlements.id, id)).limit(1);
  return Boolean(row);
}

/**
 * The address reference: city and street look-up for the forms (any signed-in user — the data
 * is public and several forms use it), and the admin's street edits (houses: edit). Streets are
 * shared by every organization, like the reference they extend.
 */
export const referenceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/find/city',
    {
      schema: {
        tags,
        summary: 'Пошук населеного пункту',
        description: 'Точний збіг, потім початок назви, потім будь-яке входження; у кожній групі спершу більші населені пункти.',
        querystring: findCityQuery,
        response: { 200: z.object({ data: z.array(cityRecord) }) },
      },
    },
    async (request) => ({ data: await findCities(db, request.query.search_query) }),
  );

  app.get(
    '/find/street',
    {
      schema: {
        tags,
        summary: 'Пошук вулиці в населеному пункті',
        querystring: findStreetQuery,
        response: { 200: z.object({ data: z.array(streetRecord) }) },
      },
    },
    async (request) => {
      const { city_id: cityId, search_query: search } = request.query;
      if (!(await settlementExists(db, cityId))) throw notFound(CITY_NOT_FOUND);
      return { data: await findStreets(db, cityId, search) };
    },
  );

  app.post(
    '/streets',
    {
      preHandler: requirePermission('houses', 'edit'),
      schema: { tags, summary: 'Додати вулицю', body: streetInput, response: { 200: z.object({ data: streetRecord }) } },
    },
    async (request) => {
      const { city_id: cityId, type } = request.body;
      const name = cleanName(request.body.name);
      const row = await db.transaction(async (tx) => {
        if (!(await settlementExists(tx, cityId))) throw unprocessable({ city_id: [CITY_NOT_FOUND] });
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${STREET_LOCK}, ${cityId})`);
        if (await sameStreet(tx, cityId, name, type)) throw unprocessable(STREET_TAKEN);
        const [created] = await tx
          .insert(streets)
          .values({ settlementId: cityId, name, type, searchName: searchForm(name), source: 'admin' })
          .returning();
        return created;
      });
      return { data: toRecord(row) };
    },
  );

  app.put(
    '/streets/:id',
    {
      preHandler: requirePermission('houses', 'edit'),
      schema: { tags, summary: 'Перейменувати вулицю', params, body: streetRename, response: { 200: z.object({ data: streetRecord }) } },
    },
    async (request) => {
      const { id } = request.params;
      const { type } = request.body;
      const name = cleanName(request.body.name);
      const row = await db.transaction(async (tx) => {
        const [current] = await tx.select().from(streets).where(eq(streets.id, id)).limit(1);
        if (!current) throw notFound('Вулицю не знайдено.');
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${STREET_LOCK}, ${current.settlementId})`);
        if (await sameStreet(tx, current.settlementId, name, type, id)) throw unprocessable(STREET_TAKEN);
        const [updated] = await tx
          .update(streets)
          .set({
            name,
            type,
            searchName: searchForm(name),
            source: 'admin',
            // The first rename remembers the reference name; later ones keep it.
            referenceName: current.source === 'reference' ? current.name : current.referenceName,
            updatedAt: new Date(),
          })
          .where(eq(streets.id, id))
          .returning();
        return updated;
      });
      return { data: toRecord(row) };
    },
  );
};
