import { and, asc, desc, eq, inArray, like, notLike, sql, type SQL } from 'drizzle-orm';
import { FIND_LIMIT, searchForm } from '../../../contract/reference.ts';
import type { Db } from '../../db/index.ts';
import { settlements, streets } from '../../db/schema.ts';
import { ukrainianSortKey } from '../../lib/sortKey.ts';
import { visibleStreets } from './streets.ts';

/** Escapes LIKE's wildcards and its escape character, so user input only ever matches literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Bigger settlements first: К (Київ, Севастополь), then М (міста), Х (селища), С (села).
 * Literals, not parameters: the values are constants.
 */
const categoryRank = sql`CASE ${settlements.category} WHEN 'К' THEN 0 WHEN 'М' THEN 1 WHEN 'Х' THEN 2 ELSE 3 END`;

const cityColumns = {
  id: settlements.id,
  name: settlements.name,
  category: settlements.category,
  region: settlements.region,
  district: settlements.district,
  community: settlements.community,
};

const streetColumns = {
  id: streets.id,
  city_id: streets.settlementId,
  name: streets.name,
  type: streets.type,
  district: streets.district,
  source: streets.source,
};

/**
 * Ranked look-up in two index-backed steps: prefix matches (the text_pattern_ops b-tree; an
 * exact match is the best prefix match), then — only when they do not fill the answer — infix
 * matches (the pg_trgm GIN index once the query has three characters; below that the table is
 * small enough to scan, and a one- or two-letter query almost always fills the answer with
 * prefix matches first).
 */
async function ranked<T>(opts: {
  query: string;
  searchName: typeof settlements.searchName | typeof streets.searchName;
  run: (where: SQL, orderBy: SQL[], limit: number) => Promise<T[]>;
  /** Order within one match quality. */
  order: SQL[];
}): Promise<T[]> {
  const q = opts.query;
  const prefix = like(opts.searchName, `${escapeLike(q)}%`);
  const found = await opts.run(prefix, [desc(sql`${opts.searchName} = ${q}`), ...opts.order], FIND_LIMIT);
  if (found.length >= FIND_LIMIT) return found;
  const infix = and(like(opts.searchName, `%${escapeLike(q)}%`), notLike(opts.searchName, `${escapeLike(q)}%`))!;
  return found.concat(await opts.run(infix, opts.order, FIND_LIMIT - found.length));
}

export type CityRow = Awaited<ReturnType<typeof findCities>>[number];

/**
 * Settlements whose name contains the query, best first: exact > prefix > infix, and within each
 * К > М > Х > С, then name, region. An empty query lists the biggest cities (К, then М by name).
 */
export async function findCities(db: Db, search: string) {
  const q = searchForm(search);
  const byName = [asc(ukrainianSortKey(settlements.name)), asc(ukrainianSortKey(settlements.region)), asc(settlements.id)];
  if (!q) {
    return db
      .select(cityColumns)
      .from(settlements)
      .where(inArray(settlements.category, ['К', 'М']))
      .orderBy(asc(categoryRank), ...byName)
      .limit(FIND_LIMIT);
  }
  return ranked({
    query: q,
    searchName: settlements.searchName,
    order: [asc(categoryRank), ...byName],
    run: (where, orderBy, limit) =>
      db
        .select(cityColumns)
        .from(settlements)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit),
  });
}

/**
 * Streets of one settlement that the organization sees (the reference and its own), best first:
 * exact > prefix > infix, then name, type, district.
 */
export async function findStreets(db: Db, organizationId: number, settlementId: number, search: string) {
  const q = searchForm(search);
  const inCity = and(eq(streets.settlementId, settlementId), visibleStreets(organizationId));
  const order = [
    asc(ukrainianSortKey(streets.name)),
    asc(ukrainianSortKey(sql`coalesce(${streets.type}, '')`)),
    asc(ukrainianSortKey(sql`coalesce(${streets.district}, '')`)),
    asc(streets.id),
  ];
  const run = (where: SQL | undefined, orderBy: SQL[], limit: number) =>
    db
      .select(streetColumns)
      .from(streets)
      .where(and(inCity, where))
      .orderBy(...orderBy)
      .limit(limit);
  if (!q) return run(undefined, order, FIND_LIMIT);
  return ranked({ query: q, searchName: streets.searchName, order, run });
}
