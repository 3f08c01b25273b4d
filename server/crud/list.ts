import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { queryPrepared, queryRows } from '../db/index.ts';
import { confirmNow, requirePermission, type CurrentUser } from '../lib/auth.ts';
import { LIST_PAGE } from '../lib/jsonSql.ts';
import { listTotal } from '../lib/list.ts';
import { paginate } from '../lib/pagination.ts';
import type { EntityCrud } from './base.ts';
import { KeptList } from './kept.ts';
import { offsetIds, planList, type ListPlan } from './plans.ts';
import type { CrudTable, ListQuery, Row } from './types.ts';
import { entityListQuery, itemResponse, listJson, listResponse, wrapItem, wrapList } from './wire.ts';

/**
 * A long page whose records are built in SQL: its ids first (an index walk), then their records
 * `rowsPerStatement` at a time, so that no statement holds the embedded database long; the total alongside.
 */
async function chunkedList<T extends CrudTable, Input, Rec>(
  crud: EntityCrud<T, Input, Rec>,
  user: CurrentUser,
  plan: ListPlan,
  q: ListQuery,
  siblings: Promise<Record<string, unknown>>,
): Promise<string> {
  const { db, app } = crud;
  const ctx = crud.ctxOf(user);
  const [total, pageIds] = await Promise.all([listTotal(db, plan.countRows), queryRows<{ id: number }>(db, sql`select id from (${plan.ids}) as page_ids(id)`)]);
  const parts: string[] = [];
  for (let i = 0; i < pageIds.length; i += app.rowsPerStatement) {
    const chunk = sql.raw(
      pageIds
        .slice(i, i + app.rowsPerStatement)
        .map((r) => Number(r.id))
        .join(', '),
    );
    const [part] = await queryPrepared<{ data: string }>(
      db,
      sql`with ${LIST_PAGE} as (select id, ord from unnest(array[${chunk}]::int[]) with ordinality as p(id, ord))
        select (${crud.recordsSql(ctx)})::text as data`,
    );
    parts.push(part.data.slice(1, -1).trim());
  }
  const data = `[${parts.filter(Boolean).join(',')}]`;
  return listJson(crud.e.list, data, paginate(total, q.page, q.per_page), crud.impl.siblings ? await siblings : {});
}

/** The page's rows read with Drizzle and mapped in Node (`toRecords`, `rowsPerStatement` rows at a time), the total counted alongside. */
async function nodeList<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>, user: CurrentUser, plan: ListPlan, q: ListQuery) {
  const { db, table, query, app, impl } = crud;
  const ctx = crud.ctxOf(user);
  const w = plan.w;
  const rows = plan.source
    ? db
        .select(getTableColumns(table as PgTable))
        .from(plan.source.page)
        .innerJoin(table as PgTable, eq(table.id, plan.source.id))
        .orderBy(...plan.source.order)
    : crud.wholeList || q.page === 1
      ? db
          .select()
          .from(table as PgTable)
          .where(w)
          .orderBy(...query.orderBy(q))
          .limit(crud.wholeList ? 100_000 : q.per_page)
      : deepPage(crud, w, q);
  const records = async (all: Row<CrudTable>[]) => {
    const out: unknown[] = [];
    for (let i = 0; i < all.length; i += app.rowsPerStatement) out.push(...(await impl.toRecords(ctx, all.slice(i, i + app.rowsPerStatement))));
    return out;
  };
  // The page's records are read as soon as its rows come, while the total may still be counted.
  const [total, page] = await Promise.all([listTotal(db, plan.countRows), rows.then((r) => records(r as Row<CrudTable>[]))]);
  return wrapList(crud.e.list, page, paginate(total, q.page, q.per_page));
}

/**
 * A page far from the start: the ids first (the rows skipped are walked in the sort's index,
 * often without reading the table), then only the page's rows, in the same order.
 */
function deepPage<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>, w: ListPlan['w'], q: ListQuery) {
  const { db, table, query } = crud;
  const ids = offsetIds(crud, w, q).as('page_ids');
  return db
    .select(getTableColumns(table as PgTable))
    .from(table as PgTable)
    .innerJoin(ids, eq(table.id, ids.id))
    .orderBy(...query.orderBy(q));
}

/** `GET <path>`: the list, in one of three ways (docs/architecture.md, "Lists in one statement"). */
export function listRoute<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>) {
  const { app, db, e, impl, tags } = crud;
  const inSql = Boolean(impl.recordsJson) && !crud.wholeList;
  const kept = inSql ? new KeptList(crud) : undefined;

  app.get(
    e.path,
    {
      preValidation: requirePermission(e.area, 'view'),
      schema: {
        tags,
        summary: `${e.exportName}: список`,
        description:
          `search_query — у полях ${e.search.join(', ') || '(немає)'}; ` +
          `фільтри: ${[...e.filters.map((f) => f.source), ...(e.scope === 'organization' ? [] : ['complex_id'])].join(', ') || '(немає)'}.`,
        querystring: entityListQuery(e, impl.query),
        response: { 200: crud.withSiblings(listResponse(e.list, e.record)) },
      },
      // A list built in one statement checks the session in it (server/lib/auth.ts).
      config: { confirmsSession: inSql },
    },
    async function listRoute(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
      const q = request.query as ListQuery;
      // A page of records built in SQL, short enough for one statement: the kept statement.
      if (kept && q.per_page <= app.rowsPerStatement) return kept.answer(request, reply, q);
      // Any other way reads the session first.
      await confirmNow(db, request);
      // The keys beside the list do not depend on its rows: they are read alongside.
      const siblings = crud.siblingsOf(request.user);
      siblings.catch(() => undefined);
      const plan = await planList(crud, request.user, q);
      if (inSql) return reply.type('application/json; charset=utf-8').send(await chunkedList(crud, request.user, plan, q, siblings));
      const answer = await nodeList(crud, request.user, plan, q);
      return { ...answer, ...(await siblings) };
    },
  );
}

/** `GET <path>/:id`: the record in the caller's scope (or 404), with its detail and the keys beside it. */
export function oneRoute<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>) {
  const { app, e, impl, tags } = crud;
  if (e.one !== 'list_id' && e.one !== 'none')
    app.get(
      e.path + '/:id',
      {
        preValidation: requirePermission(e.area, 'view'),
        schema: {
          tags,
          summary: `${e.exportName}: запис`,
          params: crud.params,
          response: { 200: crud.withSiblings(itemResponse(e.one, impl.detail?.schema ?? e.record)) },
        },
      },
      async (request) => {
        const { id } = request.params as { id: number };
        const record = await crud.recordOf(request.user, id);
        const answer = wrapItem(e.one, impl.detail ? await impl.detail.load(crud.ctxOf(request.user), record) : record);
        return { ...answer, ...(await crud.siblingsOf(request.user)) };
      },
    );
}
