/**
 * Every list's plan names what its total counts reads (server/crud/plans.ts `reads`), from the
 * objects its SQL is built of (server/lib/sqlReads.ts): a kept total follows exactly those tables
 * (docs/architecture.md, "Kept totals"). So no table and no clock may hide in the raw text of a
 * count: a table named only in text would not be followed, and a total counted with `now()` in
 * text would be kept while the clock moves it. Asked here of every registered entity, for every
 * filter value, sort, search and complex, as the admin and as a staff member of one complex.
 */
import { and, eq, getTableName, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sortFields } from '../../contract/entity.ts';
import { FULL_RULES } from '../../contract/permissions.ts';
import type { EntityCrud } from '../../server/crud/base.ts';
import { planList } from '../../server/crud/plans.ts';
import type { ListQuery } from '../../server/crud/types.ts';
import { entityListQuery } from '../../server/crud/wire.ts';
import { houses } from '../../server/db/schema.ts';
import type { CurrentUser } from '../../server/lib/auth.ts';
import { readsOf, SCHEMA_TABLES } from '../../server/lib/sqlReads.ts';
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

const CLOCK =
  /\b(now|current_date|current_time|current_timestamp|localtime|localtimestamp|clock_timestamp|statement_timestamp|transaction_timestamp|timeofday)\b/i;
const STANDARD = new Set(['page', 'per_page', 'sort', 'order', 'search_query']);

/** The enum options of a (possibly optional or defaulted) query parameter's schema. */
function optionsOf(schema: unknown): string[] {
  const s = schema as { options?: unknown[]; unwrap?: () => unknown; def?: { innerType?: unknown } };
  if (Array.isArray(s?.options)) return s.options.map(String);
  if (s?.def?.innerType) return optionsOf(s.def.innerType);
  return typeof s?.unwrap === 'function' ? optionsOf(s.unwrap()) : [];
}

/** The queries asked of an entity's list: each parameter alone with each value its schema takes, each sort alone, narrowed and searched. */
function queriesOf(crud: EntityCrud): ListQuery[] {
  const schema = entityListQuery(crud.e, crud.impl.query);
  const raw: Record<string, unknown>[] = [{}, { search_query: 'Ко' }, { search_query: '067' }, { page: '30' }];
  for (const [key, param] of Object.entries(schema.shape)) {
    if (STANDARD.has(key)) continue;
    const values = [...optionsOf(param), String(side.complexId), String(side.houseId), '0', '1', 'x', [String(side.houseId)]];
    for (const value of values) raw.push({ [key]: value }, { [key]: value, search_query: 'Ко' });
  }
  for (const sort of sortFields(crud.e)) {
    const narrowed = { sort, complex_id: String(side.complexId) };
    raw.push({ sort }, narrowed, { ...narrowed, search_query: 'Ко' }, { sort, house_ids: [String(side.houseId)] }, { ...narrowed, page: '40' });
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
const staff = (): CurrentUser => ({ ...admin(), isAdmin: false, complexIds: [side.complexId!] });

describe('what a list counts is named by its objects', () => {
  it('no count of any list names a table or the clock in raw text, and each reads its own table', async () => {
    const lists = t.app.crud.registered().filter((crud) => !crud.wholeList);
    expect(lists.length).toBeGreaterThan(15);
    let asked = 0;
    const plans = new Set<string>();
    for (const crud of lists)
      for (const q of queriesOf(crud))
        for (const user of [admin(), staff()]) {
          const plan = await planList(crud, user, q);
          const what = `${crud.e.name} ${plan.name} ${JSON.stringify(q)} ${user.isAdmin ? 'admin' : 'staff'}`;
          const raw = readsOf(plan.countRows).raw.join(' ');
          const named = [...raw.matchAll(/[a-z_][a-z0-9_]*/gi)].map(([word]) => word.toLowerCase()).filter((word) => SCHEMA_TABLES.has(word));
          expect(named, what).toEqual([]);
          expect(raw, what).not.toMatch(CLOCK);
          if (plan.name !== 'source') expect(plan.reads.tables, what).toContain(getTableName(crud.table));
          expect(plan.reads).toEqual(readsOf(plan.countRows));
          plans.add(plan.name);
          asked++;
        }
    // Every way a page is picked was asked.
    expect([...plans].sort()).toEqual(['complex-link', 'houses-branched', 'houses-lateral', 'offset', 'source']);
    expect(asked).toBeGreaterThan(1000);
  });
});
