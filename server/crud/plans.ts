import { and, eq, getTableName, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { CurrentUser } from '../lib/auth.ts';
import { pageWindow, plannedLimit, plannedLimitAtLeast } from '../lib/list.ts';
import { ordered } from '../lib/order.ts';
import { readsOf, type SqlReads } from '../lib/sqlReads.ts';
import type { EntityCrud } from './base.ts';
import { col } from './query.ts';
import type { CrudTable, ListQuery, PageSource } from './types.ts';

/**
 * How a list page's rows are picked (docs/architecture.md, "Lists in one statement"): one of the
 * named plans below, chosen by `planList` from the query and the entity's hooks. Each answers the
 * page's ids in list order and the rows its total counts.
 */
export interface ListPlan {
  /** Which plan picked the rows (the tests and EXPLAIN suites name them). */
  name: 'source' | 'complex-link' | 'houses-branched' | 'houses-lateral' | 'offset';
  /** The entity's narrower source (`pageFrom`), when it serves the query. */
  source?: PageSource;
  /** The list's generic WHERE, when no source serves the query. */
  w?: SQL;
  countRows: SQLWrapper;
  /** What the rows its total counts read: their tables and whether the clock (docs/architecture.md, "Kept totals"). */
  reads: SqlReads;
  ids: SQLWrapper;
}

/** Pages further than this many rows from the start are not merged house by house (`byHouse`): each house would give them all. */
export const MERGED_ROWS_MAX = 500;
/** Up to this many houses named by a query, a merged page has one branch per house (`byHouse.named`); more take one lateral walk. */
export const BRANCHED_HOUSES_MAX = 50;
/**
 * The numbers of branches a merged page is made with: the named houses are padded with house 0
 * (no house), whose branch is empty, up to the next of these, so that the number of houses a
 * query names makes at most these few statement texts (each kept with its plan). Close enough
 * that few empty branches are run (each is set up on every call: padding 20 houses to 32 cost
 * about a tenth of the calls a second), and 20, the most houses the header's selection sends.
 */
const BRANCH_COUNTS = [1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 25, 32, 40, BRANCHED_HOUSES_MAX];

/** The entity's own source (`pageFrom`): its page in its order; it applies every condition itself. */
const sourcePlan = (source: PageSource): ListPlan => ({
  name: 'source',
  source,
  countRows: source.count,
  reads: readsOf(source.count),
  ids: sql`select ${source.id} from ${source.page} order by ${sql.join(source.order, sql`, `)}`,
});

/** The ids of the page's rows of the WHERE, in the sort's order past the offset. */
export function offsetIds<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>, w: SQL | undefined, q: ListQuery) {
  const { db, table, query } = crud;
  return db
    .select({ id: table.id })
    .from(table as PgTable)
    .where(w)
    .orderBy(...query.orderBy(q))
    .limit(plannedLimit(q.per_page))
    .offset((q.page - 1) * q.per_page);
}

/** The rows a plan's total counts, with what they read: the generic WHERE's rows of the entity's table. */
type Counted = Pick<ListPlan, 'w' | 'countRows' | 'reads'>;

/** The rows of the WHERE in the sort's order, past the offset: the plain way. */
function offsetPlan<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>, counted: Counted, q: ListQuery): ListPlan {
  return { name: 'offset', ...counted, ids: offsetIds(crud, counted.w, q) };
}

/**
 * The complex's links in the sort's order (`byComplexLink`; the same order as `orderBy`: the copy
 * is nullable as its column is), each row tested against the WHERE without what the walk stands for.
 */
async function complexLinkPlan<T extends CrudTable, Input, Rec>(
  crud: EntityCrud<T, Input, Rec>,
  user: CurrentUser,
  counted: Counted,
  q: ListQuery,
  built: { pure: boolean },
): Promise<ListPlan> {
  const { db, table, query } = crud;
  const link = crud.impl.byComplexLink!;
  const tested = and(await query.where(db, user, q, built, link.params), link.where?.(crud.ctxOf(user), q));
  const ids = db
    .select({ id: table.id })
    .from(link.table)
    .innerJoin(table as PgTable, eq(table.id, link.rowId))
    .where(and(eq(link.complexId, q.complex_id as number), tested))
    .orderBy(...ordered([link.sorts[q.sort]], query.sortOrder(q)), query.sortDir(q)(link.rowId))
    .limit(plannedLimit(q.per_page))
    .offset((q.page - 1) * q.per_page);
  return { name: 'complex-link', ...counted, ids };
}

/**
 * One branch per house the query names (`byHouse.named`), each its first rows in list order (the
 * house only if it is one of the list's houses, read once), merged in order as far as the page goes.
 * The table's name is the merge's alias, so that the same ORDER BY reads its columns.
 */
function branchedHousesPlan<T extends CrudTable, Input, Rec>(
  crud: EntityCrud<T, Input, Rec>,
  merged: SQL,
  wOfHouse: SQL,
  named: number[],
  counted: Counted,
  q: ListQuery,
): ListPlan {
  const { table, impl, query } = crud;
  const branchCount = BRANCH_COUNTS.find((n) => n >= named.length)!;
  const branches = [...named, ...Array<number>(branchCount - named.length).fill(0)];
  const listOrder = sql.join(query.orderBy(q), sql`, `);
  const ids = sql`with list_houses as materialized (select id from (${merged}) as list_houses(id))
    select ${table.id} from (${sql.join(
      branches.map(
        (house) => sql`(select * from ${table}
          where ${col(impl.houseColumn!)} = ${house} and ${house} in (select id from list_houses)
            and ${wOfHouse}
          order by ${listOrder} limit ${plannedLimitAtLeast(q.page * q.per_page)})`,
      ),
      sql` union all `,
    )}) as ${sql.identifier(getTableName(table))}
    order by ${listOrder} ${pageWindow(q.page, q.per_page)}`;
  return { name: 'houses-branched', ...counted, ids };
}

/** Each of the list's houses' first rows in list order (one lateral walk), then the page from their merge. */
function lateralHousesPlan<T extends CrudTable, Input, Rec>(
  crud: EntityCrud<T, Input, Rec>,
  merged: SQL,
  wOfHouse: SQL,
  counted: Counted,
  q: ListQuery,
): ListPlan {
  const { table, impl, query } = crud;
  const listOrder = sql.join(query.orderBy(q), sql`, `);
  const ids = sql`select ${table.id} from (${merged}) as list_houses(id) cross join lateral (
      select * from ${table} where ${col(impl.houseColumn!)} = list_houses.id and ${wOfHouse}
      order by ${listOrder} limit ${plannedLimit(q.page * q.per_page)}) as ${sql.identifier(getTableName(table))}
    order by ${listOrder} ${pageWindow(q.page, q.per_page)}`;
  return { name: 'houses-lateral', ...counted, ids };
}

/**
 * The plan of a list page: the entity's source when it serves the query; else, near the start and
 * narrowed to houses in a sort `byHouse` names, a merge of the houses' first rows; else, narrowed
 * to one complex in a sort its links carry, a walk of those links; else the offset. `built.pure`
 * tells whether the plan is a function of the user and the query (`EntityQuery.where`).
 */
export async function planList<T extends CrudTable, Input, Rec>(
  crud: EntityCrud<T, Input, Rec>,
  user: CurrentUser,
  q: ListQuery,
  built = { pure: true },
): Promise<ListPlan> {
  const { db, table, impl, query } = crud;
  const source = crud.wholeList ? undefined : impl.pageFrom?.(crud.ctxOf(user), q);
  if (source) return sourcePlan(source);
  const w = await query.where(db, user, q, built);
  const countRows = db
    .select({ one: sql`1` })
    .from(table as PgTable)
    .where(w);
  const counted: Counted = { w, countRows, reads: readsOf(countRows) };
  const byHouse = q.page * q.per_page <= MERGED_ROWS_MAX && impl.byHouse?.sorts.includes(q.sort) ? impl.byHouse : undefined;
  const merged = byHouse?.houses(crud.ctxOf(user), q);
  if (byHouse && merged) {
    // A house's rows are its own: the conditions that narrow the list to those houses are left out.
    const wOfHouse = await query.where(db, user, q, built, byHouse.params);
    const named = [...new Set(byHouse.named?.(q) ?? [])];
    return named.length > 0 && named.length <= BRANCHED_HOUSES_MAX
      ? branchedHousesPlan(crud, merged, wOfHouse, named, counted, q)
      : lateralHousesPlan(crud, merged, wOfHouse, counted, q);
  }
  if (q.complex_id !== undefined && impl.byComplexLink?.sorts[q.sort]) return complexLinkPlan(crud, user, counted, q, built);
  return offsetPlan(crud, counted, q);
}

/**
 * Whether a list's statement keeps its first plan for all values (`renderStatement`): page 1
 * of a list without a search (or of a source whose plan suits every pattern, `PageSource.planOnce`),
 * and any page merged branch by branch (with a search, when `byHouse.searchKeepsPlan`), built
 * from the query alone. A search pattern's selectivity, an offset's size or a condition read
 * from the database may each call for another plan.
 */
export function planOnce<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>, q: ListQuery, built: { pure: boolean }, plan: ListPlan): boolean {
  const searched = q.search_query.trim() !== '';
  return (
    built.pure &&
    (plan.source?.planOnce === true ||
      (q.page === 1 && !searched) ||
      // Each branch stops at the page (pages merged so are near the start, MERGED_ROWS_MAX).
      (plan.name === 'houses-branched' && (!searched || crud.impl.byHouse?.searchKeepsPlan === true)))
  );
}
