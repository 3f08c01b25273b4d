import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idSchema } from '../../contract/common.ts';
import type { EntityDeclaration, ItemShape } from '../../contract/entity.ts';
import { queryPrepared, type Db } from '../db/index.ts';
import type { CurrentUser } from '../lib/auth.ts';
import { notFound } from '../lib/errors.ts';
import { entityQuery, type EntityQuery } from './query.ts';
import { RenderedParts } from './rendered.ts';
import type { CrudContext, CrudImplementation, CrudTable, ListQuery, Row } from './types.ts';
import { itemResponse, wrapItem } from './wire.ts';

/**
 * One declared entity on one app: its declaration, its hooks and what every route of it reads
 * (docs/architecture.md, "The generic CRUD tier"). Built once per app by `crudRoutes`.
 */
export interface EntityCrud<T extends CrudTable = CrudTable, Input = unknown, Rec = unknown> {
  e: EntityDeclaration;
  impl: CrudImplementation<T, Input, Rec>;
  table: T;
  app: FastifyInstance;
  db: Db;
  query: EntityQuery;
  /** List 'data_list' (items 'list_id'): no pages, no single read; every write answers the whole list. */
  wholeList: boolean;
  tags: string[];
  params: z.ZodObject<{ id: typeof idSchema }>;
  ctxOf(user: CurrentUser): CrudContext;
  /** The records' SQL (`recordsJson`) as kept for this user's rights. */
  recordsSql(ctx: CrudContext): SQL;
  /** The siblings' SQL (`siblings.json`) as kept for this user's rights, when the entity has it. */
  siblingsSql?(ctx: CrudContext): SQL;
  /** The keys beside the list's and the record's wrapper. */
  siblingsOf(user: CurrentUser): Promise<Record<string, unknown>>;
  /** The row in the caller's scope, or 404. */
  findRow(user: CurrentUser, id: number): Promise<Row<T>>;
  recordOf(user: CurrentUser, id: number): Promise<Rec>;
  /** Every record in the caller's scope, in the declared order (whole lists). */
  allRecords(user: CurrentUser): Promise<Rec[]>;
  /** A write's answer: the written record in the declared wrapper, or the whole list. */
  answerItem(shape: ItemShape, user: CurrentUser, id: number): Promise<unknown>;
  itemSchema(shape: ItemShape): z.ZodType;
  /** The whole list's answer (list 'data_list'). */
  listAnswer: z.ZodObject;
  /** An answer's schema with the declared siblings beside its wrapper. */
  withSiblings(schema: z.ZodObject): z.ZodObject;
}

export function entityCrud<T extends CrudTable, Input, Rec>(
  app: FastifyInstance,
  e: EntityDeclaration,
  impl: CrudImplementation<T, Input, Rec>,
): EntityCrud<T, Input, Rec> {
  const { db } = app;
  const { table } = impl;
  const query = entityQuery(e, impl);
  const ctxOf = (user: CurrentUser): CrudContext => ({ db, user });
  const rendered = new RenderedParts();
  const siblingsJson = impl.siblings?.json;
  const siblingsSql = siblingsJson && ((ctx: CrudContext) => rendered.get('siblings', siblingsJson, ctx));

  async function findRow(user: CurrentUser, id: number): Promise<Row<T>> {
    const [row] = await db
      .select()
      .from(table as PgTable)
      .where(and(query.scopeOf(db, user), eq(table.id, id)))
      .limit(1);
    if (!row) throw notFound(e.messages.notFound);
    return row as Row<T>;
  }
  /** A written row's record: read by id (the caller's scope may not say it yet, e.g. a complex they just created). */
  async function writtenRecord(user: CurrentUser, id: number) {
    const [row] = await db
      .select()
      .from(table as PgTable)
      .where(eq(table.id, id))
      .limit(1);
    const [record] = row ? await impl.toRecords(ctxOf(user), [row as Row<T>]) : [];
    if (!record) throw notFound(e.messages.notFound);
    return record;
  }
  const siblingsOf = async (user: CurrentUser): Promise<Record<string, unknown>> => {
    if (siblingsSql) {
      const [row] = await queryPrepared<{ siblings: Record<string, unknown> }>(db, sql`select ${siblingsSql(ctxOf(user))} as siblings`);
      return row.siblings;
    }
    return (await impl.siblings?.load?.(ctxOf(user))) ?? {};
  };
  const allRecords = async (user: CurrentUser) =>
    impl.toRecords(
      ctxOf(user),
      (await db
        .select()
        .from(table as PgTable)
        .where(query.scopeOf(db, user))
        .orderBy(...query.orderBy({ sort: e.sort.field, order: e.sort.order } as ListQuery))) as Row<T>[],
    );
  const listAnswer = z.object({ data: z.array(e.record), ...impl.siblings?.schema, id: z.number().optional() });
  const written = impl.detail?.writes ? impl.detail : undefined;

  return {
    e,
    impl,
    table,
    app,
    db,
    query,
    wholeList: e.list === 'data_list',
    tags: [e.name],
    params: z.object({ id: idSchema }),
    ctxOf,
    recordsSql: (ctx) => rendered.get('records', impl.recordsJson!, ctx),
    siblingsSql,
    siblingsOf,
    findRow,
    recordOf: async (user, id) => (await impl.toRecords(ctxOf(user), [await findRow(user, id)]))[0],
    allRecords,
    async answerItem(shape, user, id) {
      if (shape === 'list_id') return { data: await allRecords(user), ...(await siblingsOf(user)), id };
      const record = await writtenRecord(user, id);
      return wrapItem(shape, written ? await written.load(ctxOf(user), record) : record);
    },
    itemSchema: (shape) => (shape === 'list_id' ? listAnswer : itemResponse(shape, written?.schema ?? e.record)),
    listAnswer,
    withSiblings: (schema) => (impl.siblings ? schema.extend(impl.siblings.schema) : schema),
  };
}
