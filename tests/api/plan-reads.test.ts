/**
 * Every list's plan names what its total counts reads (server/crud/plans.ts `reads`), from the
 * objects its SQL is built of (server/lib/sqlReads.ts): a kept total follows exactly those tables
 * (docs/architecture.md, "Kept totals"). So no table and no clock may hide in the raw text of a
 * count: a table named only in text would not be followed, and a total counted with `now()` in
 * text would be kept while the clock moves it. Asked here of every registered entity, for every
 * filter value, sort, search and complex, as the admin and as a staff member of one complex.
 */
import { and, eq, getTableName, isNotNull, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sortFields } from '../../contract/entity.ts';
import { FULL_RULES } from '../../contract/permissions.ts';
import type { EntityCrud } from '../../server/crud/base.ts';
import { planList } from '../../server/crud/plans.ts';
import type { ListQuery } from '../../server/crud/types.ts';
import { entityListQuery } from '../../server/crud/wire.ts';
import { houses, members } from '../../server/db/schema.ts';
import type { CurrentUser } from '../../server/lib/auth.ts';
import { NOW, readsOf, SCHEMA_TABLES } from '../../server/lib/sqlReads.ts';
import { setupApp, type TestApp } from './helpers.ts';

let t: TestApp;
let side: { complexId: number | null; houseId: number };

beforeAll(async () => {
  t = await setupApp();
  [side] = await t.db
    .select({ complexId: houses.complexId, houseId: houses.id })
    .from(houses)
    .where(and(eq(houses.organizationId, t.organizationId), isNotNull(houses.complexId)))
    .orderBy(houses.id)
    .limit(1);
});
afterAll(() => t?.close());

const STANDARD = new Set(['page', 'per_page', 'sort', 'order', 'search_query']);
const SEARCHES = ['Ко', '067', '0671234567', 'ivan@example.com'];

/** The enum options anywhere in a query parameter's schema (optional, defaulted, preprocessed, an array of them). */
function optionsOf(schema: unknown): string[] {
  const s = schema as { options?: unknown[]; def?: Record<string, unknown> };
  if (Array.isArray(s?.options)) return s.options.map(String);
  return ['innerType', 'in', 'out', 'element'].flatMap((key) => (s?.def?.[key] ? optionsOf(s.def[key]) : []));
}

/**
 * The queries asked of an entity's list: each parameter with each value its schema takes, alone,
 * with a complex, with a search, and with a complex and its house; each sort alone, narrowed and
 * searched; a deep page. Every parameter must take at least one of the values tried.
 */
function queriesOf(crud: EntityCrud): ListQuery[] {
  const schema = entityListQuery(crud.e, crud.impl.query);
  const complex = String(side.complexId);
  const house = String(side.houseId);
  const raw: Record<string, unknown>[] = [{}, { page: '30' }, ...SEARCHES.flatMap((search_query) => [{ search_query }, { search_query, complex_id: complex }])];
  const accepted = (r: Record<string, unknown>) => schema.safeParse(r).success;
  for (const [key, param] of Object.entries(schema.shape)) {
    if (STANDARD.has(key)) continue;
    const values = [...optionsOf(param), complex, house, '0', '1', 'x', '2026-01-01', [house]].filter((value) => accepted({ [key]: value }));
    expect(values, `${crud.e.name}: no value tried is taken by ${key}`).not.toEqual([]);
    for (const value of values)
      raw.push(
        { [key]: value },
        { [key]: value, complex_id: complex },
        { [key]: value, search_query: SEARCHES[0] },
        { [key]: value, complex_id: complex, house_ids: [house] },
      );
  }
  for (const sort of sortFields(crud.e)) {
    const narrowed = { sort, complex_id: complex };
    raw.push(
      { sort },
      narrowed,
      { ...narrowed, search_query: SEARCHES[0] },
      { sort, house_ids: [house] },
      { ...narrowed, house_ids: [house] },
      { ...narrowed, page: '40' },
    );
  }
  return raw.flatMap((r) => {
    const parsed = schema.safeParse(r);
    return parsed.success ? [parsed.data as ListQuery] : [];
  });
}

const admin = (): CurrentUser => ({
  id: 1,
  organizationId: t.organizationId,
  tokenId: 1,
  isAdmin: true,
  mustChangePassword: false,
  rules: FULL_RULES,
  complexIds: null,
});
const staff = (complexIds: number[]): CurrentUser => ({ ...admin(), isAdmin: false, complexIds });
const dialect = new PgDialect();

describe('what a list counts is named by its objects', () => {
  it('every count of every list names its tables and the clock by objects: none is opaque, and its SQL reads no other table', async () => {
    const lists = t.app.crud.registered().filter((crud) => !crud.wholeList);
    expect(lists.length).toBeGreaterThan(15);
    let asked = 0;
    const plans = new Set<string>();
    let clocked = 0;
    for (const crud of lists)
      for (const q of queriesOf(crud))
        for (const user of [admin(), staff([side.complexId!]), staff([])]) {
          const plan = await planList(crud, user, q);
          const what = `${crud.e.name} ${plan.name} ${JSON.stringify(q)} ${user.isAdmin ? 'admin' : `staff of ${user.complexIds}`}`;
          expect(plan.reads.opaque, what).toBeUndefined();
          // Every table the rendered SQL names, and the clock, are in what the plan names.
          const text = dialect.sqlToQuery(sql`${plan.countRows}`).sql;
          const named = new Set([...text.matchAll(/"([a-z_][a-z0-9_]*)"/g)].map(([, name]) => name).filter((name) => SCHEMA_TABLES.has(name)));
          expect(plan.reads.tables, what).toEqual([...named].sort());
          expect(plan.reads.clock, what).toBe(/\bnow\(\)/.test(text));
          if (plan.name !== 'source') expect(plan.reads.tables, what).toContain(getTableName(crud.table));
          if (plan.reads.clock) clocked++;
          plans.add(plan.name);
          asked++;
        }
    // Every way a page is picked was asked, and conditions with the clock were among them.
    expect([...plans].sort()).toEqual(['complex-link', 'houses-branched', 'houses-lateral', 'offset', 'source']);
    expect(clocked).toBeGreaterThan(0);
    expect(asked).toBeGreaterThan(3000);
  });

  it('raw text that names a table or the clock, a view or a placeholder makes what a count reads unknown', () => {
    expect(readsOf(sql`select 1 from ${members} where ${members.createdAt} < ${NOW}`)).toEqual({ tables: ['members'], clock: true });
    expect(readsOf(sql`select 1 from ${members} where ${members.id} in (select member_id from residents)`).opaque).toMatch(/residents/);
    expect(readsOf(sql`select 1 from ${members} where ${members.createdAt} < current_date`).opaque).toMatch(/clock/);
    expect(readsOf(sql`select 1 from ${members} where ${members.id} = ${sql.placeholder('id')}`).opaque).toMatch(/placeholder/);
  });
});
