import { and, asc, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { EntityDeclaration } from '../../contract/entity.ts';
import type { Db } from '../db/index.ts';
import { houses } from '../db/schema.ts';
import type { CurrentUser } from '../lib/auth.ts';
import { likePattern, ukrainianSortKey } from '../lib/list.ts';
import { ordered } from '../lib/order.ts';
import { complexScope } from '../lib/scope.ts';
import type { CrudImplementation, CrudTable, ListQuery } from './types.ts';

/** A column or an expression of the row: drizzle's operators take either, the union needs the hint. */
export const col = (c: PgColumn | SQL) => c as PgColumn;

/** How a list's query becomes SQL: the caller's scope, the WHERE of its parameters and its ORDER BY. */
export interface EntityQuery {
  /** The rows this user may see. */
  scopeOf(db: Db, user: CurrentUser): SQL;
  /**
   * The list's WHERE. `built.pure` is cleared when a part of it read the database (the entity's
   * `searchReading` or `filterReading`): such a statement is built again every call. `without`: parameters whose
   * conditions are left out (a house's own rows, `byHouse`); the search still sees the whole query.
   */
  where(db: Db, user: CurrentUser, q: ListQuery, built?: { pure: boolean }, without?: string[]): Promise<SQL>;
  /** The list's sort direction: the query's, the sort's declared one, or the entity's. */
  sortOrder(q: ListQuery): 'asc' | 'desc';
  /** The ORDER BY direction of the list's sort (its ties broken by id in the same direction). */
  sortDir(q: ListQuery): typeof asc;
  orderBy(q: ListQuery): SQL[];
}

export function entityQuery<T extends CrudTable, Input, Rec>(e: EntityDeclaration, impl: CrudImplementation<T, Input, Rec>): EntityQuery {
  const { table } = impl;

  const scopeOf = (db: Db, user: CurrentUser): SQL => {
    const org = eq(table.organizationId, user.organizationId);
    if (impl.scope) return and(org, impl.scope({ db, user }))!;
    if (user.complexIds === null || e.scope === 'organization') return org;
    if (e.scope === 'complex') return complexScope(user, { organizationId: table.organizationId, complexId: col(impl.complexColumn!) });
    return and(org, inArray(col(impl.houseColumn!), db.select({ id: houses.id }).from(houses).where(complexScope(user, houses))))!;
  };

  /** `complex_id` → its condition, when the entity does not take the parameter as a filter or query of its own. */
  const complexCondition = (db: Db, user: CurrentUser, complexId: number): SQL => {
    if (impl.complexFilter) return impl.complexFilter({ db, user }, complexId);
    if (e.scope === 'complex') return eq(col(impl.complexColumn!), complexId);
    return inArray(col(impl.houseColumn!), db.select({ id: houses.id }).from(houses).where(eq(houses.complexId, complexId)));
  };
  const ownComplexFilter = !e.filters.some((f) => f.source === 'complex_id') && !impl.query?.complex_id;

  async function where(db: Db, user: CurrentUser, whole: ListQuery, built = { pure: true }, without: string[] = []): Promise<SQL> {
    const q = without.length ? ({ ...whole, ...Object.fromEntries(without.map((p) => [p, undefined])) } as ListQuery) : whole;
    const conditions: (SQL | undefined)[] = [scopeOf(db, user)];
    for (const f of e.filters) {
      const value = q[f.source];
      if (value === undefined) continue;
      const custom = impl.filterWhere?.[f.source];
      const reading = impl.filterReading?.[f.source];
      if (custom) conditions.push(custom({ db, user }, value as string | number));
      else if (reading) {
        built.pure = false;
        conditions.push(await reading({ db, user }, value as string | number));
      } else conditions.push(eq(col(impl.columns[f.source]), f.type === 'boolean' ? value === '1' : value));
    }
    if (q.complex_id !== undefined && ownComplexFilter) conditions.push(complexCondition(db, user, q.complex_id as number));
    conditions.push(impl.where?.({ db, user }, q));
    const search = q.search_query.trim();
    if (search && impl.searchReading) {
      built.pure = false;
      conditions.push(await impl.searchReading({ db, user }, search, whole));
    } else if (search && impl.search) conditions.push(impl.search({ db, user }, search, whole));
    else if (search && e.search.length > 0) conditions.push(or(...e.search.map((field) => ilike(col(impl.columns[field]), likePattern(search)))));
    return and(...conditions)!;
  }

  const sortOrder = (q: ListQuery): 'asc' | 'desc' => q.order ?? e.sortOrders?.[q.sort] ?? e.sort.order;
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

  return { scopeOf, where, sortOrder, sortDir, orderBy };
}
