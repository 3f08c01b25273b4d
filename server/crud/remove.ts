import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { requirePermission } from '../lib/auth.ts';
import { HttpError, isForeignKeyViolation } from '../lib/errors.ts';
import type { EntityCrud } from './base.ts';
import { dropFile } from './body.ts';
import type { CrudTable } from './types.ts';
import { deletedAnswer } from './wire.ts';

/**
 * `DELETE <path>/:id`: the row in the caller's scope, passed by `guard`, `beforeDelete` and
 * `inUse` (asked again under the row's lock), deleted; then its owned file and `afterDelete`.
 * A whole list answers the new list.
 */
export function removeRoute<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>) {
  const { e, impl, app, db, table, tags } = crud;
  app.delete(
    e.path + '/:id',
    {
      preValidation: requirePermission(e.area, 'delete'),
      schema: { tags, summary: `${e.exportName}: видалити`, params: crud.params, response: { 200: crud.wholeList ? crud.listAnswer : deletedAnswer(e) } },
    },
    async (request) => {
      const { user } = request;
      const { id } = request.params as { id: number };
      const ctx = crud.ctxOf(user);
      const row = await crud.findRow(user, id);
      await impl.guard?.(ctx, id);
      await impl.beforeDelete?.(ctx, id);
      const busy = await impl.inUse?.(ctx, id);
      if (busy) throw new HttpError(409, busy);
      try {
        await db.transaction(async (tx) => {
          // Asked again under the row's lock: a reference made meanwhile (even one that would be
          // set to null by the delete, as a staff member's role) refuses the delete.
          await tx.execute(sql`select 1 from ${table} where ${table.id} = ${id} for update`);
          const meanwhile = await impl.inUse?.({ db: tx as unknown as Db, user }, id);
          if (meanwhile) throw new HttpError(409, meanwhile);
          await tx.delete(table).where(and(eq(table.id, id), crud.query.scopeOf(db, user)));
        });
      } catch (err) {
        if (isForeignKeyViolation(err)) throw new HttpError(409, (await impl.inUse?.(ctx, id)) ?? e.messages.inUse);
        throw err;
      }
      await dropFile(crud, row);
      await impl.afterDelete?.(app, ctx, row);
      if (crud.wholeList) return { data: await crud.allRecords(user), ...(await crud.siblingsOf(user)) };
      return e.deleteAnswer === 'data_id' ? { data: { id } } : { message: e.messages.deleted };
    },
  );
}
