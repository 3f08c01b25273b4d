import { and, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { EntityDeclaration } from '../../contract/entity.ts';
import { entityCrud, type EntityCrud } from './base.ts';
import { exportRoute } from './export.ts';
import { listRoute, oneRoute } from './list.ts';
import { removeRoute } from './remove.ts';
import type { CrudImplementation, CrudTable } from './types.ts';
import { writeRoutes } from './writes.ts';

/**
 * The CRUD plugin of a declared entity: its list (server/crud/list.ts), export, single read,
 * create, update, bulk change and delete, each under the declared area's permission. Registered,
 * it enters the entity into the app's registry (`app.crud`, server/crud/registry.ts), so that
 * references to it are checked in its scope and the plain plugins skip it.
 */
export function crudRoutes<T extends CrudTable, Input, Rec>(e: EntityDeclaration, impl: CrudImplementation<T, Input, Rec>): FastifyPluginAsyncZod {
  return async (app) => {
    const crud = entityCrud(app, e, impl);
    const { db, table, query } = crud;
    app.crud.implement(e, {
      crud: crud as unknown as EntityCrud,
      inSql: Boolean(impl.recordsJson),
      exists: async ({ user }, id) =>
        (
          await db
            .select({ id: table.id })
            .from(table as PgTable)
            .where(and(query.scopeOf(db, user), eq(table.id, id)))
            .limit(1)
        ).length > 0,
    });
    // In this order in the OpenAPI document: the list, its export, one record, the writes.
    listRoute(crud);
    exportRoute(crud);
    oneRoute(crud);
    await writeRoutes(crud);
    removeRoute(crud);
  };
}
