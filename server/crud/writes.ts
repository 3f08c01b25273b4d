import { and, eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { BULK_MAX, bulkAnswer, bulkIds, type BulkRefusal } from '../../contract/bulk.ts';
import type { Db } from '../db/index.ts';
import { requirePermission } from '../lib/auth.ts';
import { expectedVersion, nextVersion, staleRecord, versionMatches } from '../lib/concurrency.ts';
import { HttpError } from '../lib/errors.ts';
import { multipartRoutes, type ZodApp } from '../lib/multipart.ts';
import type { EntityCrud } from './base.ts';
import { bodyOf, bodySchema, checkBody, dropFile, keepingFile, uploaded, writeUnique } from './body.ts';
import type { CrudTable } from './types.ts';

/**
 * Create (`POST <path>`) and update (`PUT` or `POST <path>/:id`) of a declared entity: the body
 * checked (server/crud/body.ts), the generic insert or update in a transaction (or the entity's
 * own), If-Match on updates, the answer in the declared wrapper. Multipart entities get them in a
 * scope of their own, where the form parser is registered.
 */
export async function writeRoutes<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>) {
  const { e, app } = crud;
  const routes = (r: ZodApp) => {
    createRoute(crud, r);
    updateRoute(crud, r);
  };
  if (e.encoding === 'multipart') await multipartRoutes(app, routes);
  else routes(app);
  if (e.bulkInput) bulkRoute(crud);
}

function createRoute<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>, r: ZodApp) {
  const { e, impl, app, db, table, tags } = crud;
  r.post(
    e.path,
    {
      preValidation: requirePermission(e.area, 'create'),
      schema: { tags, summary: `${e.exportName}: додати`, ...bodySchema(crud, false), response: { 200: crud.itemSchema(e.create) } },
    },
    async (request) => {
      const { user } = request;
      const body = await bodyOf(crud, request, true);
      const { input } = body;
      const create = impl.create;
      const id = await keepingFile(body, async () => {
        await checkBody(crud, user, input);
        return writeUnique(crud, () =>
          create
            ? create(app, crud.ctxOf(user), input)
            : db.transaction(async (tx) => {
                const upload = await uploaded(crud, tx as unknown as Db, user, body.file);
                const ctx = { db: tx as unknown as Db, user, upload };
                const [row] = await tx
                  .insert(table)
                  .values({ ...(await impl.values!(input, ctx, true)), organizationId: user.organizationId } as T['$inferInsert'])
                  .returning({ id: table.id });
                await impl.afterWrite?.(ctx, row.id as number, input, true);
                return row.id as number;
              }),
        );
      });
      await impl.afterCommit?.(app, crud.ctxOf(user), id, true, input);
      return crud.answerItem(e.create, user, id);
    },
  );
}

function updateRoute<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>, r: ZodApp) {
  const { e, impl, app, db, table, tags } = crud;
  const schema = bodySchema(crud, true);
  const multipart = 'consumes' in schema ? `${schema.description} ` : '';
  const update = e.updateMethod === 'POST' ? r.post.bind(r) : r.put.bind(r);
  update(
    e.path + '/:id',
    {
      preValidation: requirePermission(e.area, 'edit'),
      schema: {
        tags,
        summary: `${e.exportName}: змінити`,
        ...schema,
        description: `${multipart}If-Match: updated_at прочитаного запису — 409, якщо запис тим часом змінили.`,
        params: crud.params,
        response: { 200: crud.itemSchema(e.update) },
      },
    },
    async (request) => {
      const { user } = request;
      const { id } = request.params as { id: number };
      const expected = expectedVersion(request);
      const before = await crud.findRow(user, id);
      await impl.guard?.(crud.ctxOf(user), id);
      const body = await bodyOf(crud, request, false);
      const { input } = body;
      const own = impl.update;
      await keepingFile(body, async () => {
        await checkBody(crud, user, input, id);
        await writeUnique(crud, () =>
          own
            ? own(app, crud.ctxOf(user), before, input, expected)
            : db.transaction(async (tx) => {
                const upload = await uploaded(crud, tx as unknown as Db, user, body.file);
                const ctx = { db: tx as unknown as Db, user, upload };
                const changed = await tx
                  .update(table)
                  .set({ ...(await impl.values!(input, ctx, false)), updatedAt: nextVersion(table.updatedAt) } as never)
                  .where(and(eq(table.id, id), crud.query.scopeOf(db, user), versionMatches(table.updatedAt, expected)))
                  .returning({ id: table.id });
                if (changed.length === 0) throw staleRecord();
                await impl.afterWrite?.(ctx, id, input, false);
              }),
        );
      });
      if (body.file) await dropFile(crud, before);
      await impl.afterCommit?.(app, crud.ctxOf(user), id, false, input);
      return crud.answerItem(e.update, user, id);
    },
  );
}

/**
 * `PATCH <path>` (the declaration's `bulkInput`): each id is found in the caller's scope, passed
 * by `guard` and written by the entity's `bulk` as its own update would be; a row refused with a
 * 4xx is listed with its reason, the others are changed.
 */
function bulkRoute<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>) {
  const { e, impl, app, tags } = crud;
  const bulk = impl.bulk;
  if (!bulk) throw new Error(`${e.name}: bulkInput is declared, but the implementation has no bulk hook`);
  app.patch(
    e.path,
    {
      preValidation: requirePermission(e.area, 'edit'),
      schema: {
        tags,
        summary: `${e.exportName}: змінити кілька записів`,
        description:
          `ids — до ${BULK_MAX} записів; кожен перевіряється як окрема зміна (права, комплекс, правила). ` +
          'Змінені — у data.updated, незмінені з причиною — у data.refused; 422, якщо не змінено жодного.',
        body: e.bulkInput!.safeExtend({ ids: bulkIds }),
        response: { 200: bulkAnswer },
      },
    },
    async (request, reply) => {
      const { ids, ...data } = request.body as { ids: number[] } & Record<string, unknown>;
      const ctx = crud.ctxOf(request.user);
      const updated: number[] = [];
      const refused: BulkRefusal[] = [];
      for (const id of [...new Set(ids)]) {
        try {
          // Another complex's or organization's row, or none: the same answer as its own update's 404.
          const row = await crud.findRow(request.user, id);
          await impl.guard?.(ctx, id);
          await bulk(app, ctx, row, data);
          updated.push(id);
        } catch (err) {
          if (!(err instanceof HttpError) || err.statusCode >= 500) throw err;
          refused.push({ id, message: err.message });
        }
      }
      const message =
        refused.length === 0
          ? `Змінено записів: ${updated.length}.`
          : updated.length === 0
            ? `Жоден запис не змінено: ${refused[0].message}`
            : `Змінено записів: ${updated.length} з ${updated.length + refused.length}; не змінено: ${refused.length}.`;
      // Nothing changed is a refused request (422, with the same answer); the schema names the 200 only.
      if (updated.length === 0) return (reply as FastifyReply).code(422).send({ message, data: { updated, refused } });
      return { message, data: { updated, refused } };
    },
  );
}
