import { and, asc, desc, eq, getTableColumns, getTableName, gt, ilike, inArray, ne, or, sql, type SQL, type SQLWrapper, type Subquery } from 'drizzle-orm';
import { PgDialect, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BULK_MAX, bulkAnswer, bulkIds, type BulkRefusal } from '../../contract/bulk.ts';
import { idSchema } from '../../contract/common.ts';
import { exportFields, sortFields, type EntityDeclaration, type FieldDeclaration, type ItemShape, type ListShape } from '../../contract/entity.ts';
import { queryPrepared, queryRows, renderStatement, runRendered, type Db, type RenderedStatement } from '../db/index.ts';
import { complexes, houses, media } from '../db/schema.ts';
import { confirmNow, confirmSession, requirePermission, sessionSqlFixed, sessionToConfirm, type CurrentUser } from './auth.ts';
import { canAccess } from '../../contract/permissions.ts';
import { expectedVersion, nextVersion, staleRecord, versionMatches } from './concurrency.ts';
import { plainText } from './html.ts';
import { forbidden, HttpError, isForeignKeyViolation, isUniqueViolation, issuesToErrors, notFound, unprocessable } from './errors.ts';
import { EXPORT_FORMATS, sendExport, type ExportColumn } from './export.ts';
import { KeptStatements, userKey } from './keptStatements.ts';
import { keptCountStatement, KeptTotals, keptVersionColumns, keptWith, type KeptCount } from './keptTotals.ts';
import { KeptStarts, START_ID, START_KEY, START_VERSION, startValues } from './keptStarts.ts';
import { cappedCount, likePattern, listTotal, pageWindow, plannedLimit, plannedLimitAtLeast, totalOf, ukrainianSortKey } from './list.ts';
import { LIST_PAGE } from './jsonSql.ts';
import { readMultipartForm, removeStored, type StoredUpload } from './files.ts';
import { insertMedia } from './media.ts';
import { multipartRoutes, type ZodApp } from './multipart.ts';
import { ordered } from './order.ts';
import { listQuery, paginate, paginationSchema, type ListTotal } from './pagination.ts';
import { complexScope } from './scope.ts';

/** The columns every declared entity's table has. */
export interface CrudTable extends PgTable {
  id: PgColumn;
  organizationId: PgColumn;
  createdAt: PgColumn;
  updatedAt: PgColumn;
}

type Row<T extends CrudTable> = T['$inferSelect'];

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
export interface CrudImplementation<T extends CrudTable, Input, Rec> {
  table: T;
  /** Rows → records, a page at a time (load what they refer to once per page). */
  toRecords(ctx: CrudContext, rows: Row<T>[]): Promise<Rec[]>;
  /**
   * The same records built in SQL, as one JSON array in the page's order: `pageArray` over
   * `LIST_PAGE` (server/lib/jsonSql.ts), the page's ids and places. With it a list page is one
   * statement — the page's ids, their records and the capped total — and its answer is sent as the
   * database wrote it (docs/architecture.md, "Lists in one statement"). tests/api/records-sql.test.ts
   * checks it against `toRecords` for every entity that has it. It may depend on the user's
   * organization and complexes, and on what `recordsKey` names: it is rendered once for each and kept.
   */
  recordsJson?(ctx: CrudContext): SQL;
  /** What else of the user `recordsJson` depends on (staff: the viewer's rights), as a short key. */
  recordsKey?(ctx: CrudContext): string;
  /**
   * A valid body → the table's values, for insert (`created`) and update (may be async: a password
   * hash; not needed when `create` and `update` are the entity's own).
   */
  values?(input: Input, ctx: CrudContext, created: boolean): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Record field → column (or an expression of the row), for the sortable fields, the filters and the searched fields. */
  columns: Record<string, PgColumn | SQL>;
  /** Scope 'house': the row's house; scope 'complex': the row's complex (a column, or an expression such as a subquery). */
  houseColumn?: PgColumn | SQL;
  complexColumn?: PgColumn | SQL;
  /** Checks a body beyond its schema and the references' scope (which are checked already); throws 422. */
  check?(ctx: CrudContext, input: Input, id?: number): Promise<void>;
  /** The rows this user may see, when the declared scope kind does not say it (e.g. an audience of complexes). */
  scope?(ctx: CrudContext): SQL | undefined;
  /** More list parameters than the declared filters (e.g. `complex_ids[]`), and the condition each adds; a `complex_id` here replaces the scope's own. */
  query?: z.ZodRawShape;
  /** The conditions of `query` parameters; a function of the user and the query (the clock only in SQL, `now()`), as `scope` and the sync hooks below. */
  where?(ctx: CrudContext, query: Record<string, unknown>): SQL | undefined;
  /** A declared filter's condition instead of `column = value` (e.g. a derived status an index can serve, or one computed from other rows). */
  filterWhere?: Record<string, (ctx: CrudContext, value: string | number) => SQL | Promise<SQL>>;
  /** After the row is written, in the same transaction (`ctx.db`): rows of other tables the record owns. */
  afterWrite?(ctx: CrudContext, id: number, input: Input, created: boolean): Promise<void>;

  // ── More hooks: references, search, complex filter, sort keys, uniques, delete, commit, detail ──
  /** Whether a referenced record of a resource that is not declared (e.g. members) exists for this user. */
  references?: Record<string, (ctx: CrudContext, id: number) => Promise<boolean>>;
  /**
   * `search_query` (trimmed, not empty) → the condition, instead of ILIKE over the declared `search`
   * fields (e.g. phone digits). One that reads the database answers a promise (so does a custom
   * filter): the list's statement is then built every call, never kept (`listStatement`).
   */
  search?(ctx: CrudContext, text: string, query: Record<string, unknown>): SQL | undefined | Promise<SQL | undefined>;
  /**
   * A narrower source of the page and the total for the queries it serves (e.g. the members of one
   * complex from `member_units`, walked on one index in list order): the page's ids come from it
   * and only their rows are read, by primary key. It applies every filter, the search and the
   * user's scope itself; undefined leaves the query to the generic WHERE. It is a function of the
   * user and the query and reads nothing: the statement built from it is kept (`listStatement`).
   */
  pageFrom?(ctx: CrudContext, query: PageQuery): PageSource | undefined | Promise<PageSource | undefined>;
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
  /** A unique constraint broken on insert or update → these field errors (422), when `unique` does not say it (or: from the error, by constraint). */
  uniqueViolation?: Record<string, string[]> | ((err: unknown) => Record<string, string[]>);
  /** Before a delete (the row is in the caller's scope): throws to refuse it (e.g. 409 while it holds other rows). */
  beforeDelete?(ctx: CrudContext, id: number): Promise<void>;
  /** After the write is committed (e.g. telling open live streams, sending an invitation); `input` is the body written. */
  afterCommit?(app: FastifyInstance, ctx: CrudContext, id: number, created: boolean, input: Input): Promise<void>;
  /** After a delete, with the row as it was (e.g. removing its stored files, ending live streams). */
  afterDelete?(app: FastifyInstance, ctx: CrudContext, row: Row<T>): Promise<void>;
  /**
   * GET one answers more than the record (e.g. its houses and counts): the schema and how to add
   * it; `writes`: create and update answer it too (a survey with its questions and results).
   */
  detail?: { schema: z.ZodType; load(ctx: CrudContext, record: Rec): Promise<unknown>; writes?: boolean };
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
  /** Export cells that are not the field's value as is (e.g. «Адміністратор» for an admin's role). */
  exportCells?: Record<string, (record: Rec) => string | number | null>;
  /**
   * A text field unique in the organization whatever the case (a name): a taken value is a 422 on
   * that field, before the write and when a unique index refuses it meanwhile.
   */
  unique?: { field: string; message: string };
  /**
   * Why the row cannot be deleted now (e.g. «used by 3 houses»), or undefined: asked before a
   * delete (409 with the message) and again when a reference appeared meanwhile (instead of
   * `messages.inUse`).
   */
  inUse?(ctx: CrudContext, id: number): Promise<string | undefined>;
  /** Before an update or a delete of a row the user can see: throws (403) when they may read it but not change it. */
  guard?(ctx: CrudContext, id: number): Promise<void>;
  /**
   * The declared `file` field: the row's key that holds its media row (`values` sets it from
   * `ctx.upload`), and whether the file is the record's own — then it is removed with the record
   * and when a new one replaces it.
   */
  file?: { key: string; owned: boolean };

  // ── Workflow hooks: an entity whose writes are more than a row (numbers, stages, notifications) ──
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

/**
 * Whether a referenced record exists for this user, by resource name: houses and complexes here,
 * every declared entity as its plugin registers. A reference outside the user's scope is a 422 on
 * its field, as if it did not exist.
 */
const referenceChecks = new Map<string, (ctx: CrudContext, id: number) => Promise<boolean>>([
  [
    'houses',
    async ({ db, user }, id) =>
      (
        await db
          .select({ id: houses.id })
          .from(houses)
          .where(and(complexScope(user, houses), eq(houses.id, id)))
          .limit(1)
      ).length > 0,
  ],
  [
    'complexes',
    async ({ db, user }, id) =>
      (
        await db
          .select({ id: complexes.id })
          .from(complexes)
          .where(and(complexScope(user, { organizationId: complexes.organizationId, complexId: complexes.id }), eq(complexes.id, id)))
          .limit(1)
      ).length > 0,
  ],
]);

/** A list page's statement as `oneStatementList` runs it: rendered, with its kept-total check and the rows it counts. */
interface ListStatement {
  /**
   * The page's statement. When its total can be kept, it holds no count, only the version of the
   * count's tables (`keptVersionColumns`): a count in the text is set up by PostgreSQL on every
   * call even when it is not run (about a fifth of a phone search's database time).
   */
  rendered: RenderedStatement;
  /**
   * When the total can be kept: its check (the kept total's key and tables), and the count with
   * the version it is counted at, in a statement of its own (`keptCountStatement`).
   */
  keeps?: { check: KeptCount; counting: RenderedStatement };
  countRows: SQLWrapper;
  /** The id step of the source's order when the statement can start from a kept key (`PageSource.fromStart`). */
  startStep?: 1 | -1;
}
/** Pages further than this many rows from the start are not merged house by house (`byHouse`): each house would give them all. */
const MERGED_ROWS_MAX = 500;
/** Up to this many houses named by a query, a merged page has one branch per house (`byHouse.named`); more take one lateral walk. */
const BRANCHED_HOUSES_MAX = 50;
/**
 * The numbers of branches a merged page is made with: the named houses are padded with house 0
 * (no house), whose branch is empty, up to the next of these, so that the number of houses a
 * query names makes at most these few statement texts (each kept with its plan). Close enough
 * that few empty branches are run (each is set up on every call: padding 20 houses to 32 cost
 * about a tenth of the calls a second), and 20, the most houses the header's selection sends.
 */
const BRANCH_COUNTS = [1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 25, 32, 40, BRANCHED_HOUSES_MAX];
/** Rendered list statements kept per entity (one per user, query and session state). */
const STATEMENTS_KEPT = 200;

/** Renders kept SQL (`recordsJson`) to text. */
const dialect = new PgDialect();
/** Rendered records' SQL kept per entity: one per organization and set of complexes in use. */
const RENDERED_KEPT = 500;

/** A column or an expression of the row: drizzle's operators take either, the union needs the hint. */
const col = (c: PgColumn | SQL) => c as PgColumn;

/** The list answer in the declared wrapper. */
function listResponse(shape: ListShape, record: z.ZodType) {
  const page = paginationSchema.extend({ data: z.array(record) });
  if (shape === 'main_data') return z.object({ main_data: page });
  if (shape === 'data.data') return z.object({ data: page });
  if (shape === 'data_list') return z.object({ data: z.array(record) });
  return z.object({ data: z.array(record), pagination: paginationSchema });
}
function wrapList(shape: ListShape, data: unknown[], pagination: ReturnType<typeof paginate>) {
  if (shape === 'main_data') return { main_data: { data, ...pagination } };
  if (shape === 'data.data') return { data: { data, ...pagination } };
  if (shape === 'data_list') return { data };
  return { data, pagination };
}
/**
 * A list answer whose records came as JSON text from the database: the declared wrapper written
 * around it, so that the records are neither parsed nor serialised again in Node.
 */
function listJson(shape: ListShape, data: string, pagination: ReturnType<typeof paginate>, siblings: Record<string, unknown> | string): string {
  const pages = JSON.stringify(pagination).slice(1, -1);
  // Siblings as an object, or as the JSON text of one the database wrote.
  const keys = (typeof siblings === 'string' ? siblings : JSON.stringify(siblings)).trim().slice(1, -1).trim();
  const rest = keys ? `,${keys}` : '';
  if (shape === 'main_data') return `{"main_data":{"data":${data},${pages}}${rest}}`;
  if (shape === 'data.data') return `{"data":{"data":${data},${pages}}${rest}}`;
  return `{"data":${data},"pagination":${JSON.stringify(pagination)}${rest}}`;
}
const itemResponse = (shape: ItemShape, record: z.ZodType) => (shape === 'main_data' ? z.object({ main_data: record }) : z.object({ data: record }));
const wrapItem = (shape: ItemShape, record: unknown) => (shape === 'main_data' ? { main_data: record } : { data: record });

/** The query of a filter value: ids and enum values as the declaration says. */
function filterSchema(e: EntityDeclaration, source: string): z.ZodType {
  const f = e.filters.find((x) => x.source === source)!;
  const label = e.fields[source]?.label ?? source;
  if (f.type === 'reference') return idSchema.optional();
  if (f.type === 'boolean') return z.enum(['0', '1'], { error: `${label}: 0 або 1.` }).optional();
  const options = f.options ?? e.fields[source]?.options ?? [];
  return z.enum(options as [string, ...string[]], { error: `${label}: ${options.join(', ')}.` }).optional();
}

/** The list's query: pages, search, the declared sorts and filters (and complex_id for house-scoped entities). */
export function entityListQuery(e: EntityDeclaration, extra: z.ZodRawShape = {}) {
  const sorts = sortFields(e) as [string, ...string[]];
  const filters: Record<string, z.ZodType> = Object.fromEntries(e.filters.map((f) => [f.source, filterSchema(e, f.source)]));
  if (e.scope !== 'organization' && !filters.complex_id) filters.complex_id = idSchema.optional();
  return listQuery.extend({
    per_page: e.perPage ? listQuery.shape.per_page.default(e.perPage) : listQuery.shape.per_page,
    ...extra,
    sort: z.enum(sorts, { error: `Сортування можливе за: ${sorts.join(', ')}.` }).default(e.sort.field),
    order: e.sortOrders
      ? z.enum(['asc', 'desc'], { error: 'Порядок сортування: asc або desc.' }).optional()
      : z.enum(['asc', 'desc'], { error: 'Порядок сортування: asc або desc.' }).default(e.sort.order),
    ...filters,
  });
}

const dateOf = (iso: string) => iso.slice(0, 10).split('-').reverse().join('.');
const kyivTime = new Intl.DateTimeFormat('uk-UA', {
  timeZone: 'Europe/Kyiv',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** An export cell as a Ukrainian reader expects it: DD.MM.YYYY dates, Kyiv time, option labels, так/ні. */
export function exportCell(field: FieldDeclaration, value: unknown): string | number | null {
  if (value === null || value === undefined || value === '') return null;
  switch (field.type) {
    case 'number':
      return typeof value === 'number' ? value : Number(value);
    case 'boolean':
      return value ? 'так' : 'ні';
    case 'date':
      return dateOf(String(value));
    case 'datetime':
      return kyivTime.format(new Date(String(value))).replace(',', '');
    case 'tags':
      return (value as { name: string }[]).map((t) => t.name).join(', ') || null;
    case 'enum':
      return field.optionLabels?.[String(value)] ?? String(value);
    case 'richtext':
      return plainText(String(value)) || null;
    default:
      // A list of records (an audience's complexes): their shown field, comma-separated.
      if (Array.isArray(value))
        return value.map((v) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[field.optionText ?? 'name'] : v)).join(', ') || null;
      // One record ({ id, name }: a request's performer): its shown field.
      if (typeof value === 'object') return String((value as Record<string, unknown>)[field.optionText ?? 'name'] ?? '') || null;
      return typeof value === 'number' ? value : String(value);
  }
}

/** The export's columns: the declaration's export fields with their Ukrainian labels. */
export function exportColumns<Rec>(e: EntityDeclaration, cells: Record<string, (record: Rec) => string | number | null> = {}): ExportColumn<Rec>[] {
  return [
    { header: 'ID', value: (r) => (r as { id: number }).id, width: 8 },
    ...exportFields(e).map(([key, field]) => ({
      header: field.label,
      // A field with a display of its own exports what the list shows (a reference: its record's name, not its id).
      value: (r: Rec) =>
        cells[key] ? cells[key](r) : exportCell(field.display ? { ...field, type: 'text' } : field, (r as Record<string, unknown>)[field.display ?? key]),
      width: field.wide ? 60 : field.type === 'date' ? 12 : field.type === 'datetime' ? 17 : 24,
    })),
  ];
}

/** The entities whose CRUD plugin a module builds itself; the rest get the plain one (server/modules/declared.ts). */
const implemented = new Set<string>();
export const hasCrudRoutes = (name: string) => implemented.has(name);
/** The entities whose list builds its records in SQL (`recordsJson`), by name: tests compare them with `toRecords`. */
export const recordsInSql = new Map<string, EntityDeclaration>();

/**
 * The generic CRUD plugin of a declared entity: list (capped total, declared filters, search and
 * sorts, the caller's scope), one, create, update (If-Match), delete (409 while other rows refer
 * to it) and a streamed CSV/XLSX export of the list's filters, each with its OpenAPI entry.
 */
export function crudRoutes<T extends CrudTable, Input, Rec>(e: EntityDeclaration, impl: CrudImplementation<T, Input, Rec>): FastifyPluginAsyncZod {
  const { table } = impl;
  implemented.add(e.name);
  if (impl.recordsJson) recordsInSql.set(e.name, e);
  const tags = [e.name];
  const params = z.object({ id: idSchema });
  const listSchema = entityListQuery(e, impl.query);
  /** An answer's schema with the declared siblings beside its wrapper. */
  const withSiblings = (schema: z.ZodObject) => (impl.siblings ? schema.extend(impl.siblings.schema) : schema);
  const deletedAnswer = e.deleteAnswer === 'data_id' ? z.object({ data: z.object({ id: z.number() }) }) : z.object({ message: z.string() });
  type ListQuery = z.infer<typeof listSchema> & Record<string, unknown>;
  const exportQuery = listSchema
    .omit({ page: true, per_page: true })
    .extend({ format: z.enum(EXPORT_FORMATS, { error: 'Формат: csv або xlsx.' }).default('csv') });

  const scopeOf = (db: Db, user: CurrentUser): SQL => {
    const org = eq(table.organizationId, user.organizationId);
    if (impl.scope) return and(org, impl.scope({ db, user }))!;
    if (user.complexIds === null || e.scope === 'organization') return org;
    if (e.scope === 'complex') return complexScope(user, { organizationId: table.organizationId, complexId: col(impl.complexColumn!) });
    return and(org, inArray(col(impl.houseColumn!), db.select({ id: houses.id }).from(houses).where(complexScope(user, houses))))!;
  };

  /**
   * The list's WHERE. `built.pure` is cleared when a part of it may have read the database (a
   * custom filter or the entity's own search that answers a promise): such a statement is built
   * again every call. A part that answers SQL at once is a function of the user and the query.
   * `without`: parameters whose conditions are left out (a house's own rows, `byHouse`); the
   * search still sees the whole query.
   */
  async function where(db: Db, user: CurrentUser, whole: ListQuery, built = { pure: true }, without: string[] = []): Promise<SQL> {
    const q = without.length ? ({ ...whole, ...Object.fromEntries(without.map((p) => [p, undefined])) } as ListQuery) : whole;
    /** A hook's condition; one that answers a promise may have read the database. */
    const settled = <C>(condition: C | Promise<C>): Promise<C> | C => {
      if (condition instanceof Promise) built.pure = false;
      return condition;
    };
    const conditions: (SQL | undefined)[] = [scopeOf(db, user)];
    for (const f of e.filters) {
      const value = q[f.source];
      if (value === undefined) continue;
      const custom = impl.filterWhere?.[f.source];
      if (custom) conditions.push(await settled(custom({ db, user }, value as string | number)));
      else conditions.push(eq(col(impl.columns[f.source]), f.type === 'boolean' ? value === '1' : value));
    }
    if (q.complex_id !== undefined && !e.filters.some((f) => f.source === 'complex_id') && !impl.query?.complex_id) {
      conditions.push(
        impl.complexFilter
          ? impl.complexFilter({ db, user }, q.complex_id as number)
          : e.scope === 'complex'
            ? eq(col(impl.complexColumn!), q.complex_id)
            : inArray(
                col(impl.houseColumn!),
                db
                  .select({ id: houses.id })
                  .from(houses)
                  .where(eq(houses.complexId, q.complex_id as number)),
              ),
      );
    }
    conditions.push(impl.where?.({ db, user }, q));
    const search = q.search_query.trim();
    if (search && impl.search) conditions.push(await settled(impl.search({ db, user }, search, whole)));
    else if (search && e.search.length > 0) conditions.push(or(...e.search.map((field) => ilike(col(impl.columns[field]), likePattern(search)))));
    return and(...conditions)!;
  }

  const sortOrder = (q: ListQuery): 'asc' | 'desc' => q.order ?? e.sortOrders?.[q.sort] ?? e.sort.order;
  /** The ORDER BY direction of the list's sort (its ties broken by id in the same direction). */
  const sortDir = (q: ListQuery) => (sortOrder(q) === 'desc' ? desc : asc);

  function orderBy(q: ListQuery): SQL[] {
    const order = sortOrder(q);
    const dir = sortDir(q);
    if (q.sort === 'id') return [dir(table.id)];
    const keys = impl.sortKeys?.[q.sort];
    if (keys) return [...keys(order), dir(table.id)];
    const field = e.fields[q.sort];
    const column = impl.columns[q.sort];
    const key = field.type === 'text' || field.type === 'multiline' ? ukrainianSortKey(column) : column;
    // A NOT NULL column keeps the plain order, so that one index on it serves both directions.
    return [...ordered([key], order), dir(table.id)];
  }

  const plugin: FastifyPluginAsyncZod = async (app) => {
    const db = app.db;
    const ctxOf = (user: CurrentUser): CrudContext => ({ db, user });
    /**
     * A page far from the start: the ids first (the rows skipped are walked in the sort's index,
     * often without reading the table), then only the page's rows, in the same order.
     */
    const deepPage = (w: SQL | undefined, q: ListQuery) => {
      const ids = db
        .select({ id: table.id })
        .from(table as PgTable)
        .where(w)
        .orderBy(...orderBy(q))
        .limit(plannedLimit(q.per_page))
        .offset((q.page - 1) * q.per_page)
        .as('page_ids');
      return db
        .select(getTableColumns(table as PgTable))
        .from(table as PgTable)
        .innerJoin(ids, eq(table.id, ids.id))
        .orderBy(...orderBy(q));
    };
    /** A long page's records, mapped `rowsPerStatement` rows at a time (their related rows are read per chunk). */
    const recordsOf = async (user: CurrentUser, rows: Row<T>[]) => {
      const out: Rec[] = [];
      for (let i = 0; i < rows.length; i += app.rowsPerStatement) out.push(...(await impl.toRecords(ctxOf(user), rows.slice(i, i + app.rowsPerStatement))));
      return out;
    };
    /**
     * The records' SQL for this user's organization and complexes, rendered once with its values
     * written in (ids only) and kept: building and rendering it is most of a list call's Node time.
     */
    const rendered = new Map<string, SQL>();
    /** The list's totals with the versions they were counted at (server/lib/keptTotals.ts). */
    const keptTotals = new KeptTotals();
    /** Where the list's pages begin, with the versions they were read at (server/lib/keptStarts.ts). */
    const keptStarts = new KeptStarts();
    const renderedSql = (part: string, build: (ctx: CrudContext) => SQL, ctx: CrudContext): SQL => {
      const key = `${part}:${ctx.user.organizationId}:${ctx.user.complexIds?.join(',') ?? '*'}:${impl.recordsKey?.(ctx) ?? ''}`;
      let text = rendered.get(key);
      if (!text) {
        if (rendered.size >= RENDERED_KEPT) rendered.delete(rendered.keys().next().value!);
        rendered.set(key, (text = sql.raw(dialect.sqlToQuery(build(ctx).inlineParams()).sql)));
      }
      return text;
    };
    const recordsSql = (ctx: CrudContext): SQL => renderedSql('records', impl.recordsJson!, ctx);
    const siblingsJson = impl.siblings?.json;
    const siblingsOf = async (user: CurrentUser): Promise<Record<string, unknown>> => {
      if (siblingsJson) {
        const [row] = await queryPrepared<{ siblings: Record<string, unknown> }>(
          db,
          sql`select ${renderedSql('siblings', siblingsJson, ctxOf(user))} as siblings`,
        );
        return row.siblings;
      }
      return (await impl.siblings?.load?.(ctxOf(user))) ?? {};
    };
    referenceChecks.set(
      e.name,
      async ({ user }, id) =>
        (
          await db
            .select({ id: table.id })
            .from(table as PgTable)
            .where(and(scopeOf(db, user), eq(table.id, id)))
            .limit(1)
        ).length > 0,
    );

    async function findRow(user: CurrentUser, id: number): Promise<Row<T>> {
      const [row] = await db
        .select()
        .from(table as PgTable)
        .where(and(scopeOf(db, user), eq(table.id, id)))
        .limit(1);
      if (!row) throw notFound(e.messages.notFound);
      return row as Row<T>;
    }
    const recordOf = async (user: CurrentUser, id: number) => (await impl.toRecords(ctxOf(user), [(await findRow(user, id)) as Row<T>]))[0];
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

    /** Every reference of the body must name a record the caller may see. */
    async function checkBody(user: CurrentUser, input: Input, id?: number) {
      const errors: Record<string, string[]> = {};
      for (const [key, field] of Object.entries(e.fields)) {
        const value = (input as Record<string, unknown>)[key];
        if (field.type !== 'reference' || field.input === false || value === null || value === undefined) continue;
        const exists = impl.references?.[field.reference!] ?? referenceChecks.get(field.reference!);
        if (!exists) throw new Error(`${e.name}.${key}: no reference check for ${field.reference}`);
        if (!(await exists(ctxOf(user), Number(value)))) errors[key] = [`Поле «${field.label}»: запис не знайдено.`];
      }
      if (impl.unique) {
        const { field, message } = impl.unique;
        const value = (input as Record<string, unknown>)[field];
        const [taken] = await db
          .select({ id: table.id })
          .from(table as PgTable)
          .where(
            and(
              eq(table.organizationId, user.organizationId),
              sql`lower(${impl.columns[field]}) = lower(${value})`,
              id === undefined ? undefined : ne(table.id, id),
            ),
          )
          .limit(1);
        if (taken) errors[field] = [message];
      }
      if (Object.keys(errors).length > 0) throw unprocessable(errors);
      await impl.check?.(ctxOf(user), input, id);
    }

    // ── Whole-list resources (list 'data_list', items 'list_id'): no pages, no single read; every
    // write answers the new whole list in `data` (and the written record's `id`), a delete too. ──
    const wholeList = e.list === 'data_list';
    const list = e.list;
    const listAnswer = z.object({ data: z.array(e.record), ...impl.siblings?.schema, id: z.number().optional() });
    const allRecords = async (user: CurrentUser) =>
      impl.toRecords(
        ctxOf(user),
        (await db
          .select()
          .from(table as PgTable)
          .where(scopeOf(db, user))
          .orderBy(...orderBy({ sort: e.sort.field, order: e.sort.order } as ListQuery))) as Row<T>[],
      );
    const written = impl.detail?.writes ? impl.detail : undefined;
    const itemSchema = (shape: ItemShape) => (shape === 'list_id' ? listAnswer : itemResponse(shape, written?.schema ?? e.record));
    const answerItem = async (shape: ItemShape, user: CurrentUser, id: number) => {
      if (shape === 'list_id') return { data: await allRecords(user), ...(await siblingsOf(user)), id };
      const record = await writtenRecord(user, id);
      return wrapItem(shape, written ? await written.load(ctxOf(user), record) : record);
    };

    /**
     * A list's parts: its narrower source (`pageFrom`) or its WHERE, the rows to count and the
     * page's ids in order. `built.pure` tells whether they are a function of the user and the query.
     */
    const listParts = async (user: CurrentUser, q: ListQuery, built = { pure: true }) => {
      const source = wholeList ? undefined : await impl.pageFrom?.(ctxOf(user), q as PageQuery);
      const w = source ? undefined : await where(db, user, q, built);
      const countRows: SQLWrapper = source
        ? source.count
        : db
            .select({ one: sql`1` })
            .from(table as PgTable)
            .where(w);
      const byHouse = !source && q.page * q.per_page <= MERGED_ROWS_MAX && impl.byHouse?.sorts.includes(q.sort) ? impl.byHouse : undefined;
      const merged = byHouse?.houses(ctxOf(user), q);
      // A house's rows are its own: the conditions that narrow the list to those houses are left out.
      const wOfHouse = merged ? await where(db, user, q, built, byHouse!.params) : undefined;
      const named = merged ? [...new Set(byHouse!.named?.(q) ?? [])] : [];
      const branchCount = named.length > 0 ? BRANCH_COUNTS.find((n) => n >= named.length) : undefined;
      const branches = branchCount ? [...named, ...Array<number>(branchCount - named.length).fill(0)] : undefined;
      // The list's order, and the table's name as the alias of a merge, so that the same ORDER BY reads its columns.
      const listOrder = sql.join(orderBy(q), sql`, `);
      const asTable = sql.identifier(getTableName(table));
      const link = !source && !merged && q.complex_id !== undefined && impl.byComplexLink?.sorts[q.sort] ? impl.byComplexLink : undefined;
      // The complex's links stand for its parameters: the rows met are tested without them.
      const wOfLink = link ? and(await where(db, user, q, built, link.params), link.where?.(ctxOf(user), q)) : undefined;
      const ids: SQLWrapper = source
        ? sql`select ${source.id} from ${source.page} order by ${sql.join(source.order, sql`, `)}`
        : link
          ? // The complex's links in the sort's order (the same order as orderBy: the copy is nullable as its column is).
            db
              .select({ id: table.id })
              .from(link.table)
              .innerJoin(table as PgTable, eq(table.id, link.rowId))
              .where(and(eq(link.complexId, q.complex_id as number), wOfLink))
              .orderBy(...ordered([link.sorts[q.sort]], sortOrder(q)), sortDir(q)(link.rowId))
              .limit(plannedLimit(q.per_page))
              .offset((q.page - 1) * q.per_page)
          : merged && branches
            ? // One branch per named house, each its first rows in list order (the house only if
              // it is one of the list's houses, read once), merged in order as far as the page goes.
              sql`with list_houses as materialized (select id from (${merged}) as list_houses(id))
              select ${table.id} from (${sql.join(
                branches.map(
                  (house) => sql`(select * from ${table}
                    where ${col(impl.houseColumn!)} = ${house} and ${house} in (select id from list_houses)
                      and ${wOfHouse}
                    order by ${listOrder} limit ${plannedLimitAtLeast(q.page * q.per_page)})`,
                ),
                sql` union all `,
              )}) as ${asTable}
              order by ${listOrder} ${pageWindow(q.page, q.per_page)}`
            : merged
              ? // Each house's first rows in list order, then the page from their merge.
                sql`select ${table.id} from (${merged}) as list_houses(id) cross join lateral (
                select * from ${table} where ${col(impl.houseColumn!)} = list_houses.id and ${wOfHouse}
                order by ${listOrder} limit ${plannedLimit(q.page * q.per_page)}) as ${asTable}
              order by ${listOrder} ${pageWindow(q.page, q.per_page)}`
              : db
                  .select({ id: table.id })
                  .from(table as PgTable)
                  .where(w)
                  .orderBy(...orderBy(q))
                  .limit(plannedLimit(q.per_page))
                  .offset((q.page - 1) * q.per_page);
      return { source, w, countRows, ids, branched: branches !== undefined };
    };

    /**
     * Whether a list's statement keeps its first plan for all values (`renderStatement`): page 1
     * of a list without a search (or of a source whose plan suits every pattern, `PageSource.planOnce`),
     * and any page merged branch by branch (with a search, when `byHouse.searchKeepsPlan`), built
     * from the query alone. A search pattern's selectivity, an offset's size or a condition read
     * from the database may each call for another plan.
     */
    const planOnce = (q: ListQuery, built: { pure: boolean }, source: PageSource | undefined, branched: boolean) => {
      const searched = q.search_query.trim() !== '';
      return (
        built.pure &&
        (source?.planOnce === true ||
          (q.page === 1 && !searched) ||
          // Each branch stops at the page (pages merged so are near the start, MERGED_ROWS_MAX).
          (branched && (!searched || impl.byHouse?.searchKeepsPlan === true)))
      );
    };

    /** List statements rendered once per user, query and session state (`listStatement`). */
    const statements = new KeptStatements<ListStatement>(STATEMENTS_KEPT);

    /**
     * The one statement of a list page, rendered: the page's ids in order, their records as JSON,
     * the capped total (skipped while the kept one holds: server/lib/keptTotals.ts), the keys
     * beside the list and the session check (server/lib/auth.ts). Its text depends only on the
     * user and the query (the kept version and the session's token are placeholders), so it is
     * built and rendered once for each and kept — building and rendering were most of a list
     * call's Node time — unless a part of it read the database (`listParts`).
     */
    const listStatement = (user: CurrentUser, q: ListQuery, toConfirm: boolean): Promise<ListStatement> =>
      statements.get(`${userKey(user)}\u0000${impl.recordsKey?.(ctxOf(user)) ?? ''}\u0000${toConfirm}\u0000${JSON.stringify(q)}`, async (built) => {
        const { source, countRows, ids, branched } = await listParts(user, q, built);
        const ctx = ctxOf(user);
        const check = keptTotals.countOf(sql`${countRows}`, user.organizationId);
        const count = cappedCount(countRows);
        // A source that can start from a key does so while the tables' version is the one its start
        // was kept at (read in this statement's snapshot); otherwise it walks the offset. Page 1
        // of a list, which starts at the index's first entry, reads no keys; page 1 of a search
        // does: its first match may lie deep in the index (docs/architecture.md, "Kept page starts").
        const starts = check && (q.page > 1 || q.search_query.trim() !== '') ? source?.fromStart : undefined;
        const pageIds = starts
          ? sql`case when (select v from list_version) = ${sql.placeholder(START_VERSION)}
              then array(${starts.ids({ key: sql`${sql.placeholder(START_KEY)}`, id: sql`${sql.placeholder(START_ID)}::bigint` })}) else array(${ids}) end`
          : sql`array(${ids})`;
        return {
          rendered: renderStatement(
            sql`with ${keptWith(check)}
              ${LIST_PAGE} as (select id, ord from unnest(${pageIds}) with ordinality as p(id, ord))
              select (${recordsSql(ctx)})::text as data,
                ${check ? keptVersionColumns() : sql`${count} as n`}${
                  // Only the columns this statement fills (each column is described to the driver on every call).
                  starts
                    ? sql`, (${starts.keyOf(sql`(select id from ${LIST_PAGE} where ord = 1)`)})::text as first_key,
                      (${starts.keyOf(sql`(select id from ${LIST_PAGE} order by ord desc limit 1)`)})::text as last_key`
                    : sql``
                }${toConfirm ? sql`, ${sessionSqlFixed(true)} as session` : sql``}${
                  siblingsJson ? sql`, (${renderedSql('siblings', siblingsJson, ctx)})::text as siblings` : sql``
                }`,
            { planOnce: planOnce(q, built, source, branched) },
          ),
          keeps: check && { check, counting: renderStatement(keptCountStatement(check, count)) },
          countRows,
          startStep: starts?.step,
        };
      });

    /**
     * A list page in one statement (`listStatement`); its total is the kept one while the version
     * the page's statement read is the one it was counted at, and otherwise is counted by a second
     * statement, with the version it counts at (docs/architecture.md, "Kept totals").
     */
    async function oneStatementList(request: FastifyRequest, reply: FastifyReply, q: ListQuery): Promise<unknown> {
      const toConfirm = sessionToConfirm(request);
      // Keys loaded in Node come alongside.
      const siblings = impl.siblings && !siblingsJson ? siblingsOf(request.user) : undefined;
      siblings?.catch(() => undefined);
      const { rendered, keeps, countRows, startStep } = await listStatement(request.user, q, toConfirm);
      const kept = keeps && keptTotals.current(keeps.check);
      const start = startStep ? keptStarts.current(request.user, q) : undefined;
      // Columns the statement leaves out (`listStatement`) are undefined here.
      const [row] = await runRendered<{
        data: string;
        n?: number;
        version?: string;
        log_rows?: number;
        first_key?: string | null;
        last_key?: string | null;
        session?: unknown;
        siblings?: string | null;
      }>(db, rendered, {
        ...(startStep ? startValues(start) : {}),
        ...(toConfirm ? { session_hash: request.session.hash } : {}),
      });
      if (!confirmSession(db, request, row.session)) {
        // The rights changed since: nothing read with the old ones is answered.
        if (!canAccess(request.user.rules, e.area, 'view')) throw forbidden();
        return oneStatementList(request, reply, q);
      }
      let total: ListTotal;
      if (!keeps) total = await totalOf(db, countRows, Number(row.n));
      else if (kept && kept.version === row.version) total = kept.total;
      else {
        // Not counted yet, or the tables changed since: counted now, at the version it counts at
        // (a write committed after the page's statement may be in it: the newer total).
        const [counted] = await runRendered<{ n: number; version: string }>(db, keeps.counting, {});
        total = await totalOf(db, countRows, Number(counted.n));
        keptTotals.keep(keeps.check, counted.version, total);
      }
      if (startStep && row.version !== undefined) keptStarts.keepAfter(request.user, q, row.version, row.first_key ?? null, row.last_key ?? null, startStep);
      if (keeps) keptTotals.compactAfter(db, keeps.check, Number(row.log_rows));
      const rest = row.siblings ?? (await siblings) ?? {};
      return reply.type('application/json; charset=utf-8').send(listJson(list, row.data, paginate(total, q.page, q.per_page), rest));
    }

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
          querystring: listSchema,
          response: { 200: withSiblings(listResponse(list, e.record)) },
        },
        // A list built in one statement checks the session in it (server/lib/auth.ts).
        config: { confirmsSession: Boolean(impl.recordsJson) && !wholeList },
      },
      async function listRoute(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
        const q = request.query as ListQuery;
        if (impl.recordsJson && !wholeList && q.per_page <= app.rowsPerStatement) return oneStatementList(request, reply, q);
        // Any other way reads the session first.
        await confirmNow(db, request);
        // The keys beside the list do not depend on its rows: they are read alongside.
        const siblings = siblingsOf(request.user);
        siblings.catch(() => undefined);
        const { source, w, countRows, ids } = await listParts(request.user, q);
        if (impl.recordsJson && !wholeList) {
          // A long page: its ids first (an index walk), then their records `rowsPerStatement` at a
          // time, so that no statement holds the embedded database long; the total alongside.
          const ctx = ctxOf(request.user);
          const [total, pageIds] = await Promise.all([listTotal(db, countRows), queryRows<{ id: number }>(db, sql`select id from (${ids}) as page_ids(id)`)]);
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
                select (${recordsSql(ctx)})::text as data`,
            );
            parts.push(part.data.slice(1, -1).trim());
          }
          const data = `[${parts.filter(Boolean).join(',')}]`;
          const rest = impl.siblings ? await siblings : {};
          return (reply as FastifyReply).type('application/json; charset=utf-8').send(listJson(list, data, paginate(total, q.page, q.per_page), rest));
        }
        // The page's records are read as soon as its rows come, while the total may still be counted.
        const [total, records] = await Promise.all([
          listTotal(db, countRows),
          (source
            ? db
                .select(getTableColumns(table as PgTable))
                .from(source.page)
                .innerJoin(table as PgTable, eq(table.id, source.id))
                .orderBy(...source.order)
            : wholeList || q.page === 1
              ? db
                  .select()
                  .from(table as PgTable)
                  .where(w)
                  .orderBy(...orderBy(q))
                  .limit(wholeList ? 100_000 : q.per_page)
              : deepPage(w, q)
          ).then((rows) => recordsOf(request.user, rows as Row<T>[])),
        ]);
        const answer = wrapList(list, records, paginate(total, q.page, q.per_page));
        return { ...answer, ...(await siblings) };
      },
    );

    app.get(
      `${e.path}/export`,
      {
        preValidation: requirePermission(e.area, 'view'),
        schema: {
          tags,
          summary: `${e.exportName}: експорт (CSV або XLSX)`,
          description: 'Ті самі фільтри й пошук, що й у списку; усі рядки без обмеження, потоком, у порядку додавання.',
          querystring: exportQuery,
        },
      },
      async (request, reply) => {
        const q = { ...(request.query as object), page: 1, per_page: app.rowsPerStatement } as ListQuery;
        const w = await where(db, request.user, q);
        const ctx = ctxOf(request.user);
        const batch = app.rowsPerStatement;
        async function* batches() {
          let after = 0;
          for (;;) {
            const rows = (await db
              .select()
              .from(table as PgTable)
              .where(and(w, gt(table.id, after)))
              .orderBy(asc(table.id))
              .limit(batch)) as Row<T>[];
            if (rows.length === 0) return;
            yield await impl.toRecords(ctx, rows);
            after = (rows[rows.length - 1] as { id: number }).id;
            if (rows.length < batch) return;
          }
        }
        return sendExport<Rec>(reply, {
          format: (request.query as { format: 'csv' | 'xlsx' }).format,
          filename: `${e.exportFile ?? e.exportName}-${new Date().toISOString().slice(0, 10)}`,
          sheet: e.exportName,
          asciiFilename: `${e.exportFile ?? e.name}-${new Date().toISOString().slice(0, 10)}`,
          columns: exportColumns<Rec>(e, impl.exportCells),
          batches: batches(),
          onError: (err) => request.log.error({ err }, `${e.name} export failed`),
        });
      },
    );

    if (e.one !== 'list_id' && e.one !== 'none')
      app.get(
        e.path + '/:id',
        {
          preValidation: requirePermission(e.area, 'view'),
          schema: { tags, summary: `${e.exportName}: запис`, params, response: { 200: withSiblings(itemResponse(e.one, impl.detail?.schema ?? e.record)) } },
        },
        async (request) => {
          const record = await recordOf(request.user, request.params.id);
          const answer = wrapItem(e.one, impl.detail ? await impl.detail.load(ctxOf(request.user), record) : record);
          return { ...answer, ...(await siblingsOf(request.user)) };
        },
      );

    /**
     * The body of a create or update: JSON checked by the route's schema, or (encoding
     * 'multipart') a form whose text fields the same schema checks, with a 422 of the same shape.
     */
    const multipart = e.encoding === 'multipart';
    const fileField = Object.keys(e.fields).find((k) => e.fields[k].type === 'file');
    const fileKind = (fileField && e.fields[fileField].accept) || 'document';
    /**
     * A form's text fields are checked by the input schema and its file (the declared `file` field,
     * stored at once) by its upload rules; every field's error comes in one 422, and `discard`
     * removes the stored file again when the request fails later.
     */
    const bodyOf = async (request: FastifyRequest, created: boolean): Promise<{ input: Input; file?: StoredUpload; discard: () => Promise<void> }> => {
      if (!multipart) return { input: request.body as Input, discard: async () => undefined };
      const form = await readMultipartForm(request, { storage: app.storage, fileField, kind: fileKind });
      const discard = () => removeStored(app.storage, form.file?.storedName);
      const parsed = e.input.safeParse(form.fields);
      const errors = parsed.success ? {} : issuesToErrors(parsed.error.issues);
      if (fileField && created && e.fields[fileField].required && !form.file) errors[fileField] ??= [`Поле «${e.fields[fileField].label}»: оберіть файл.`];
      if (Object.keys(errors).length > 0) {
        await discard();
        throw unprocessable(errors);
      }
      return { input: parsed.data as Input, file: form.file, discard };
    };
    /** A file the record owned (replaced or deleted with it): its media row and the stored file go. */
    const dropFile = async (row: Row<T>) => {
      const mediaId = impl.file?.owned ? (row as Record<string, unknown>)[impl.file.key] : undefined;
      if (typeof mediaId !== 'number') return;
      const [file] = await db.delete(media).where(eq(media.id, mediaId)).returning();
      if (file) await removeStored(app.storage, file.storedName);
    };
    /** Runs the write; a failure removes the form's stored file. */
    const keepingFile = async <R>(discard: () => Promise<void>, run: () => Promise<R>): Promise<R> => {
      try {
        return await run();
      } catch (err) {
        await discard();
        throw err;
      }
    };
    const uploaded = async (tx: Db, user: CurrentUser, file: StoredUpload | undefined) =>
      file ? await insertMedia(tx, app.storage, user, fileKind, file) : undefined;
    const bodySchema = multipart
      ? {
          consumes: ['multipart/form-data'],
          description: `multipart/form-data: ${Object.keys(e.fields)
            .filter((k) => e.fields[k].input !== false)
            .join(', ')}.`,
        }
      : { body: e.input };
    const updateBodySchema = multipart || !e.updateInput ? bodySchema : { body: e.updateInput };
    /** Inserts and updates: a unique index that refuses the row answers the declared field errors. */
    const write = async <R>(run: () => Promise<R>): Promise<R> => {
      try {
        return await run();
      } catch (err) {
        if (impl.unique && isUniqueViolation(err)) throw unprocessable({ [impl.unique.field]: [impl.unique.message] });
        if (impl.uniqueViolation && isUniqueViolation(err))
          throw unprocessable(typeof impl.uniqueViolation === 'function' ? impl.uniqueViolation(err) : impl.uniqueViolation);
        throw err;
      }
    };

    const writeRoutes = (r: ZodApp) => {
      r.post(
        e.path,
        {
          preValidation: requirePermission(e.area, 'create'),
          schema: { tags, summary: `${e.exportName}: додати`, ...bodySchema, response: { 200: itemSchema(e.create) } },
        },
        async (request) => {
          const { input, file, discard } = await bodyOf(request, true);
          const create = impl.create;
          const id = await keepingFile(discard, async () => {
            await checkBody(request.user, input);
            return write(() =>
              create
                ? create(app, ctxOf(request.user), input)
                : db.transaction(async (tx) => {
                    const upload = await uploaded(tx as unknown as Db, request.user, file);
                    const ctx = { db: tx as unknown as Db, user: request.user, upload };
                    const [row] = await tx
                      .insert(table)
                      .values({ ...(await impl.values!(input, ctx, true)), organizationId: request.user.organizationId } as T['$inferInsert'])
                      .returning({ id: table.id });
                    await impl.afterWrite?.(ctx, row.id as number, input, true);
                    return row.id as number;
                  }),
            );
          });
          await impl.afterCommit?.(app, ctxOf(request.user), id, true, input);
          return answerItem(e.create, request.user, id);
        },
      );

      const update = e.updateMethod === 'POST' ? r.post.bind(r) : r.put.bind(r);
      update(
        e.path + '/:id',
        {
          preValidation: requirePermission(e.area, 'edit'),
          schema: {
            tags,
            summary: `${e.exportName}: змінити`,
            ...updateBodySchema,
            description: `${multipart ? `${bodySchema.description} ` : ''}If-Match: updated_at прочитаного запису — 409, якщо запис тим часом змінили.`,
            params,
            response: { 200: itemSchema(e.update) },
          },
        },
        async (request) => {
          const { id } = request.params as { id: number };
          const expected = expectedVersion(request);
          const before = await findRow(request.user, id);
          await impl.guard?.(ctxOf(request.user), id);
          const { input, file, discard } = await bodyOf(request, false);
          const update = impl.update;
          await keepingFile(discard, async () => {
            await checkBody(request.user, input, id);
            await write(() =>
              update
                ? update(app, ctxOf(request.user), before, input, expected)
                : db.transaction(async (tx) => {
                    const upload = await uploaded(tx as unknown as Db, request.user, file);
                    const ctx = { db: tx as unknown as Db, user: request.user, upload };
                    const changed = await tx
                      .update(table)
                      .set({ ...(await impl.values!(input, ctx, false)), updatedAt: nextVersion(table.updatedAt) } as never)
                      .where(and(eq(table.id, id), scopeOf(db, request.user), versionMatches(table.updatedAt, expected)))
                      .returning({ id: table.id });
                    if (changed.length === 0) throw staleRecord();
                    await impl.afterWrite?.(ctx, id, input, false);
                  }),
            );
          });
          if (file) await dropFile(before);
          await impl.afterCommit?.(app, ctxOf(request.user), id, false, input);
          return answerItem(e.update, request.user, id);
        },
      );
    };
    if (multipart) await multipartRoutes(app, writeRoutes);
    else writeRoutes(app);

    if (e.bulkInput) {
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
            body: e.bulkInput.safeExtend({ ids: bulkIds }),
            response: { 200: bulkAnswer },
          },
        },
        async (request, reply) => {
          const { ids, ...data } = request.body as { ids: number[] } & Record<string, unknown>;
          const ctx = ctxOf(request.user);
          const updated: number[] = [];
          const refused: BulkRefusal[] = [];
          for (const id of [...new Set(ids)]) {
            try {
              // Another complex's or organization's row, or none: the same answer as its own update's 404.
              const row = await findRow(request.user, id);
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

    app.delete(
      e.path + '/:id',
      {
        preValidation: requirePermission(e.area, 'delete'),
        schema: { tags, summary: `${e.exportName}: видалити`, params, response: { 200: wholeList ? listAnswer : deletedAnswer } },
      },
      async (request) => {
        const row = await findRow(request.user, request.params.id);
        await impl.guard?.(ctxOf(request.user), request.params.id);
        await impl.beforeDelete?.(ctxOf(request.user), request.params.id);
        const busy = await impl.inUse?.(ctxOf(request.user), request.params.id);
        if (busy) throw new HttpError(409, busy);
        try {
          await db.transaction(async (tx) => {
            // Asked again under the row's lock: a reference made meanwhile (even one that would be
            // set to null by the delete, as a staff member's role) refuses the delete.
            await tx.execute(sql`select 1 from ${table} where ${table.id} = ${request.params.id} for update`);
            const meanwhile = await impl.inUse?.({ db: tx as unknown as Db, user: request.user }, request.params.id);
            if (meanwhile) throw new HttpError(409, meanwhile);
            await tx.delete(table).where(and(eq(table.id, request.params.id), scopeOf(db, request.user)));
          });
        } catch (err) {
          if (isForeignKeyViolation(err)) throw new HttpError(409, (await impl.inUse?.(ctxOf(request.user), request.params.id)) ?? e.messages.inUse);
          throw err;
        }
        await dropFile(row);
        await impl.afterDelete?.(app, ctxOf(request.user), row);
        if (wholeList) return { data: await allRecords(request.user), ...(await siblingsOf(request.user)) };
        return e.deleteAnswer === 'data_id' ? { data: { id: request.params.id } } : { message: e.messages.deleted };
      },
    );
  };
  return plugin;
}
