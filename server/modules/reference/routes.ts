import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { cityRecord, findCityQuery, findStreetQuery, normaliseApostrophes, searchForm, streetInput, streetRecord } from '../../../contract/reference.ts';
import type { Db } from '../../db/index.ts';
import { houses, settlements, streets } from '../../db/schema.ts';
import { requirePermission } from '../../lib/auth.ts';
import { nextVersion } from '../../lib/concurrency.ts';
import { notFound, unprocessable } from '../../lib/errors.ts';
import { findCities, findStreets } from './search.ts';
import { sameStreet, streetFor } from './streets.ts';

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
const STREET_NOT_FOUND = 'Вулицю не знайдено.';
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
 * is public and several forms use it), and the admin's street edits (houses: edit). Settlements
 * and reference streets are shared and read-only; a street an organization adds or renames is
 * its own, and only it sees it (docs/security.md, section 4).
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
      return { data: await findStreets(db, request.user.organizationId, cityId, search) };
    },
  );

  app.post(
    '/streets',
    {
      preHandler: requirePermission('houses', 'edit'),
      schema: {
        tags,
        summary: 'Додати вулицю',
        description: 'Вулиця належить організації: її бачать лише користувачі цієї організації.',
        body: streetInput,
        response: { 200: z.object({ data: streetRecord }) },
      },
    },
    async (request) => {
      const { city_id: cityId, type } = request.body;
      const organizationId = request.user.organizationId;
      const name = cleanName(request.body.name);
      const row = await db.transaction(async (tx) => {
        if (!(await settlementExists(tx, cityId))) throw unprocessable({ city_id: [CITY_NOT_FOUND] });
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${STREET_LOCK}, ${cityId})`);
        if (await sameStreet(tx, organizationId, cityId, name, type)) throw unprocessable(STREET_TAKEN);
        const [created] = await tx
          .insert(streets)
          .values({ settlementId: cityId, organizationId, name, type, searchName: searchForm(name), source: 'admin' })
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
      schema: {
        tags,
        summary: 'Перейменувати вулицю',
        description:
          'Вулицю організації перейменовує на місці. Вулиця довідника спільна для всіх організацій і не змінюється: організація отримує ' +
          'власну вулицю з новою назвою (новий id у відповіді), її будинки переходять на неї, а в її пошуку вона заступає вулицю ' +
          'довідника. Інші організації бачать довідник як був.',
        params,
        body: streetRename,
        response: { 200: z.object({ data: streetRecord }) },
      },
    },
    async (request) => {
      const { type } = request.body;
      const organizationId = request.user.organizationId;
      const name = cleanName(request.body.name);
      const row = await db.transaction(async (tx) => {
        const found = await streetFor(tx, organizationId, request.params.id);
        if (!found) throw notFound(STREET_NOT_FOUND);
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${STREET_LOCK}, ${found.settlementId})`);
        // Read again under the lock: a rename that was waiting for it may have made a stand-in.
        const current = await streetFor(tx, organizationId, request.params.id);
        if (!current) throw notFound(STREET_NOT_FOUND);
        const except = [current.id, ...(current.replacesStreetId ? [current.replacesStreetId] : [])];
        if (await sameStreet(tx, organizationId, current.settlementId, name, type, except)) throw unprocessable(STREET_TAKEN);
        if (current.organizationId === organizationId) {
          // The organization's own street: only its houses are on it.
          const [updated] = await tx
            .update(streets)
            .set({ name, type, searchName: searchForm(name), source: 'admin', updatedAt: new Date() })
            .where(and(eq(streets.id, current.id), eq(streets.organizationId, organizationId)))
            .returning();
          return updated;
        }
        // A reference street: the organization gets its own street under the new name, which
        // stands in for the reference one in its look-ups, and its houses move to it.
        const [created] = await tx
          .insert(streets)
          .values({
            settlementId: current.settlementId,
            organizationId,
            name,
            type,
            district: current.district,
            searchName: searchForm(name),
            source: 'admin',
            referenceName: current.name,
            replacesStreetId: current.id,
          })
          .returning();
        await tx
          .update(houses)
          .set({ streetId: created.id, updatedAt: nextVersion(houses.updatedAt) })
          .where(and(eq(houses.organizationId, organizationId), eq(houses.streetId, current.id)));
        return created;
      });
      return { data: toRecord(row) };
    },
  );
};
