import { inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { EntityDeclaration } from '../../contract/entity.ts';
import { declaredTable, plainCrudRoutes as plainCrud, type HouseAddresses } from '../crud/plain.ts';
import type { CrudTable } from '../crud/types.ts';
import { houses } from '../db/schema.ts';
import { addressSql, formatAddress } from './houses/address.ts';
import { selectHouses } from './houses/records.ts';

/** How a plain record of a house shows the house's address (server/crud/plain.ts). */
const houseAddresses: HouseAddresses = {
  sql: addressSql,
  async load(db, ids) {
    const found = ids.length ? await selectHouses(db).where(inArray(houses.id, ids)) : [];
    return new Map(found.map((h) => [h.id, { address: formatAddress(h), complexId: h.complexId }]));
  },
};

/** The CRUD plugin of an entity that needs nothing beyond its declaration (server/crud/plain.ts). */
export const plainCrudRoutes = (e: EntityDeclaration, table: CrudTable = declaredTable(e)) => plainCrud(e, table, houseAddresses);

/**
 * The plain CRUD plugins of the declared entities that no module implements itself (the app's
 * registry, `app.crud`, knows which). Registered after every module: a module may build its CRUD
 * plugin inside its own (staff, meetings), so which entities are taken is known only once those
 * have loaded.
 */
export const plainEntityRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const e of app.crud.unimplemented()) await app.register(plainCrudRoutes(e));
};
