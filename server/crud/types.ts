import type { SQL, SQLWrapper, Subquery } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../db/index.ts';
import type { CurrentUser } from '../lib/auth.ts';

/**
 * What a declared entity gives the generic CRUD tier (docs/architecture.md, "The generic CRUD
 * tier"): its table and hooks, grouped by what they serve: records, lists, writes and deletes.
 */

/** The columns every declared entity's table has. */
export interface CrudTable extends PgTable {
  id: PgColumn;
  organizationId: PgColumn;
  createdAt: PgColumn;
  updatedAt: PgColumn;
}

export type Row<T extends CrudTable> = T['$inferSelect'];

export interface CrudContext {
  db: Db;
  user: CurrentUser;
  /** In `values` and `afterWrite`: the media row of the declared `file` field's new upload, when one came. */
  upload?: { id: number };
}

/**
 * What a declared entity adds to the generic CRUD plugin: its table, how rows become records and
 * bodies become rows, and the columns behind its sorts, filters and search. Everything else
 * (routes, scope, If-Match, 404/409/422, export, OpenAPI) comes from the declaration.
 */
export interface CrudImplementation<T extends CrudTable, Input, Rec> extends RecordHooks<T, Rec>, ListHooks, WriteHooks<T, Input>, RemoveHooks<T> {
  table: T;
}

/** Records: how rows become what the API answers, in Node and in SQL. */
export interface RecordHooks<T extends CrudTable, Rec> {
  /** Rows → records, a page at a time (load what they refer to once per page). */
  toRecords(ctx: CrudContext, rows: Row<T>[]): Promise<Rec[]>;
  /**
   * The same records built in SQL, as one JSON array in the page's order: `pageArray` over
   * `LIST_PAGE` (server/lib/jsonSql.ts), the page's ids and places. With it a list page is one
   * statement — the page's ids, their records and the capped total — and its answer is sent as the
   * database wrote it (docs/architecture.md, "Lists in one statement"). tests/api/records-sql.test.ts
   * checks it against `toRecords` for every entity that has it. It may depend on the user's
   * organization, admin flag, rights and complexes (not on who they are): it is rendered once for
   * each such description and kept (server/crud/rendered.ts).
   */
  recordsJson?(ctx: CrudContext): SQL;
  /**
   * Keys beside the list's and the record's wrapper, and how to load them (staff: `form`, the
   * form's choices; staff roles: `form.departures` in every whole-list answer).
   */
  siblings?: {
    schema: z.ZodRawShape;
    /**
     * The keys as one JSON object in SQL (`json`): a list built in one statement reads them in it
     * (rendered and kept as `recordsJson`), every other answer in a statement of their own. Or
     * loaded in Node (`load`).
     */
    load?(ctx: CrudContext): Promise<Record<string, unknown>>;
    json?(ctx: CrudContext): SQL;
  };
  /**
   * GET one answers more than the record (e.g. its houses and counts): the schema and how to add
   * it; `writes`: create and update answer it too (a survey with its questions and results).
   */
  detail?: { schema: z.ZodType; load(ctx: CrudContext, record: Rec): Promise<unknown>; writes?: boolean };
  /** Export cells that are not the field's value as is (e.g. «Адміністратор» for an admin's role). */
  exportCells?: Record<string, (record: Rec) => string | number | null>;
  /**
   * The declared `file` field: the row's key that holds its media row (`values` sets it from
   * `ctx.upload`), and whether the file is the record's own — then it is removed with the record
   * and when a new one replaces it.
   */
  file?: { key: string; owned: boolean };
}

/** Lists: the columns behind sorts, filters and search, the scope, and narrower ways to a page (server/crud/plans.ts). */
export interface ListHooks {
  /** Record field → column (or an expression of the row), for the sortable fields, the filters and the searched fields. */
  columns: Record<string, PgColumn | SQL>;
  /** Scope 'house': the row's house; scope 'complex': the row's complex (a column, or an expression such as a subquery). */
  houseColumn?: PgColumn | SQL;
  complexColumn?: PgColumn | SQL;
  /** The rows this user may see, when the declared scope kind does not say it (e.g. an audience of complexes). */
  scope?(ctx: CrudContext): SQL | undefined;
  /** More list parameters than the declared filters (e.g. `complex_ids[]`), and the condition each adds; a `complex_id` here replaces the scope's own. */
  query?: z.ZodRawShape;
  /**
   * The conditions of `query` parameters; a function of the user and the query (the clock only in
   * SQL, as `${NOW}`: server/lib/sqlReads.ts), as `scope` and the sync hooks below.
   */
  where?(ctx: CrudContext, query: Record<string, unknown>): SQL | undefined;
  /** A declared filter's condition instead of `column = value` (e.g. a derived status an index can serve, or one computed from other rows). */
  filterWhere?: Record<string, (ctx: CrudContext, value: string | number) => SQL>;
  /**
   * The same, for a filter that reads the database to build its condition (e.g. a meeting's
   * state): a list filtered so is built again on every call, never kept.
   */
  filterReading?: Record<string, (ctx: CrudContext, value: string | number) => Promise<SQL>>;
  /**
   * `search_query` (trimmed, not empty) → the condition, instead of ILIKE over the declared `search`
   * fields (e.g. phone digits). A function of the user, the text and the query, as the other list
   * hooks: the list's statement built with it is kept.
   */
  search?(ctx: CrudContext, text: string, query: Record<string, unknown>): SQL | undefined;
  /**
   * The same, for a search that reads the database to build its condition (e.g. the houses whose
   * address matches): a list searched so is built again on every call, never kept.
   */
  searchReading?(ctx: CrudContext, text: string, query: Record<string, unknown>): Promise<SQL | undefined>;
  /**
   * A narrower source of the page and the total for the queries it serves (e.g. the members of one
   * complex from `member_units`, walked on one index in list order): the page's ids come from it
   * and only their rows are read, by primary key. It applies every filter, the search and the
   * user's scope itself; undefined leaves the query to the generic WHERE. It is a function of the
   * user and the query and reads nothing: the statement built from it is kept (server/crud/kept.ts).
   */
  pageFrom?(ctx: CrudContext, query: PageQuery): PageSource | undefined;
  /**
   * The houses a list is narrowed to (by a complex or some houses), or undefined, for the sorts in
   * `sorts`, which an index on the house column and the sort serves: the page is then merged from
   * each house's first rows, read from that index, and never reads more than pages × houses rows
   * whatever the houses hold (docs/architecture.md, "Pages merged house by house").
   */
  byHouse?: {
    sorts: string[];
    /** The query parameters the houses stand for: each house's rows are read without them (the house is theirs already). */
    params: string[];
    houses(ctx: CrudContext, query: Record<string, unknown>): SQL | undefined;
    /**
     * The houses the query names itself (its `house_ids`), read from the query alone: the page is
     * then merged from one ordered branch per house, each still tested against `houses`, and the
     * merge reads each house's rows only as far as the page needs them (a search that matches one
     * row in ten reads about ten rows per row shown, not each house's every row), up to
     * BRANCHED_HOUSES_MAX houses (docs/architecture.md, "Pages merged house by house").
     */
    named?(query: Record<string, unknown>): readonly number[] | undefined;
    /**
     * The list's search, narrowed to houses, is a test of each row met (`strpos`), whose plan
     * suits every pattern: a page merged branch by branch then keeps its plan with a search too.
     */
    searchKeepsPlan?: boolean;
  };
  /**
   * A link table of the rows and complexes that carries copies of sort columns, kept by triggers:
   * a list narrowed to one complex (`complex_id`) and sorted by one of them walks that complex's
   * links in order on the link's own index, and stops at the page, instead of sorting every row of
   * the complex (docs/architecture.md, "Rows of a complex in a link's order"). The list's WHERE
   * still applies to each row met, so the answer is the generic one.
   */
  byComplexLink?: {
    table: PgTable;
    rowId: PgColumn;
    complexId: PgColumn;
    /** Sort field → the link's copy of its column (nullable as the column is, so that the order is the same). */
    sorts: Record<string, PgColumn>;
    /** The query parameters the walk stands for: the list's WHERE is built without them, and `where` added. */
    params: string[];
    /** What of those parameters the walk does not answer (e.g. the chosen houses). */
    where?(ctx: CrudContext, query: Record<string, unknown>): SQL | undefined;
  };
  /** `complex_id` → the condition, when the rows have neither a house nor a complex column. */
  complexFilter?(ctx: CrudContext, complexId: number): SQL;
  /** Sort field (or a declared named sort) → its ORDER BY in that direction (e.g. a natural order of numbers), instead of its column. */
  sortKeys?: Record<string, (order: 'asc' | 'desc') => SQL[]>;
}

/** Writes: a body to values, its checks, and what happens around the write (server/crud/writes.ts). */
export interface WriteHooks<T extends CrudTable, Input> {
  /**
   * A valid body → the table's values, for insert (`created`) and update (may be async: a password
   * hash; not needed when `create` and `update` are the entity's own).
   */
  values?(input: Input, ctx: CrudContext, created: boolean): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Checks a body beyond its schema and the references' scope (which are checked already); throws 422. */
  check?(ctx: CrudContext, input: Input, id?: number): Promise<void>;
  /** Whether a referenced record of a resource that is not declared (e.g. members) exists for this user. */
  references?: Record<string, (ctx: CrudContext, id: number) => Promise<boolean>>;
  /**
   * A text field unique in the organization whatever the case (a name): a taken value is a 422 on
   * that field, before the write and when a unique index refuses it meanwhile.
   */
  unique?: { field: string; message: string };
  /** A unique constraint broken on insert or update → these field errors (422), when `unique` does not say it (or: from the error, by constraint). */
  uniqueViolation?: Record<string, string[]> | ((err: unknown) => Record<string, string[]>);
  /** Before an update or a delete of a row the user can see: throws (403) when they may read it but not change it. */
  guard?(ctx: CrudContext, id: number): Promise<void>;
  /** After the row is written, in the same transaction (`ctx.db`): rows of other tables the record owns. */
  afterWrite?(ctx: CrudContext, id: number, input: Input, created: boolean): Promise<void>;
  /** After the write is committed (e.g. telling open live streams, sending an invitation); `input` is the body written. */
  afterCommit?(app: FastifyInstance, ctx: CrudContext, id: number, created: boolean, input: Input): Promise<void>;
  /** The entity's own create instead of the generic insert (after the body's checks): answers the new id. */
  create?(app: FastifyInstance, ctx: CrudContext, input: Input): Promise<number>;
  /** The entity's own update instead of the generic one, of a row in the caller's scope; `expected`: the If-Match version (409 when stale). */
  update?(app: FastifyInstance, ctx: CrudContext, row: Row<T>, input: Input, expected: Date | undefined): Promise<void>;
  /**
   * One row of a bulk change (`PATCH <path>`, the declaration's `bulkInput`), already found in the
   * caller's scope and passed by `guard`: writes it as its own update would (the same rules, in a
   * transaction of its own, with its notifications), or throws a 4xx HttpError that refuses this
   * row alone.
   */
  bulk?(app: FastifyInstance, ctx: CrudContext, row: Row<T>, data: Record<string, unknown>): Promise<void>;
}

/** Deletes: what refuses one and what follows it (server/crud/remove.ts). */
export interface RemoveHooks<T extends CrudTable> {
  /** Before a delete (the row is in the caller's scope): throws to refuse it (e.g. 409 while it holds other rows). */
  beforeDelete?(ctx: CrudContext, id: number): Promise<void>;
  /**
   * Why the row cannot be deleted now (e.g. «used by 3 houses»), or undefined: asked before a
   * delete (409 with the message) and again when a reference appeared meanwhile (instead of
   * `messages.inUse`).
   */
  inUse?(ctx: CrudContext, id: number): Promise<string | undefined>;
  /** After a delete, with the row as it was (e.g. removing its stored files, ending live streams). */
  afterDelete?(app: FastifyInstance, ctx: CrudContext, row: Row<T>): Promise<void>;
}
/** A list call's parameters as `pageFrom` gets them: the page, the sort and order (when given), the search and every filter. */
export type PageQuery = { page: number; per_page: number; search_query: string; sort: string; order?: 'asc' | 'desc' } & Record<string, unknown>;

/** What `pageFrom` answers: the page (an aliased subquery), its `id` column, its order, and the rows to count. */
export interface PageSource {
  page: Subquery;
  id: PgColumn;
  order: SQL[];
  count: SQLWrapper;
  /**
   * Whether the statement keeps its first plan also with a search and past page 1 (`planOnce` in
   * the list): the source walks the same index whatever the pattern and the offset
   * (docs/architecture.md, "Plans kept with the statement").
   */
  planOnce?: boolean;
  /**
   * The same page walked from a kept start (docs/architecture.md, "Kept page starts"): `ids` are the
   * source's rows from `start` on (inclusive, in the page's order), the first per_page of them;
   * `keyOf` is the sort key of a row of the page by its id, as JSON `[key, id]`; `step` is what an
   * id adds to follow another of the same key in that order (1 ascending, -1 descending).
   */
  fromStart?: { ids(start: { key: SQL; id: SQL }): SQLWrapper; keyOf(id: SQL): SQL; step: 1 | -1 };
}

/** A list call's query as the routes read it: `PageQuery` with the entity's own parameters. */
export type ListQuery = PageQuery;
