import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { MEMBER_STATUSES } from '../../../contract/members.ts';
import { searchForm } from '../../../contract/reference.ts';
import type { Db } from '../../db/index.ts';
import { houses, members, memberUnits, realty, residents } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import type { PageQuery, PageSource } from '../../crud/types.ts';
import { anyOf } from '../../lib/jsonSql.ts';
import { contains, fixedLimit, likePattern, plannedLimit } from '../../lib/list.ts';
import { phoneSearchDigits } from '../../lib/phone.ts';
import { idList } from '../houses/routes.ts';
import { hasUnitWhere, memberScope } from './scope.ts';

type Reader = Pick<Db, 'select' | 'selectDistinct' | '$with'>;

/** The members list's filters (contract/members.ts `memberEntity`), also of survey audiences (interview). */
export const memberFilters = z.object({
  search_query: z.string().max(200, 'Пошуковий запит задовгий.').default(''),
  status: z.enum(MEMBER_STATUSES, { error: 'Статус: active або inactive.' }).optional(),
  complex_id: idSchema.optional(),
  house_ids: idList('Будинки'),
});
export type MemberFilters = z.infer<typeof memberFilters>;

/** Digits from which a search is taken for a phone number (in a complex: found among all members first). */
const PHONE_DIGITS_MIN = 7;

/** Whether a search is taken for a phone number (as `memberSearch` takes it). */
const isPhoneSearch = (query: string) => phoneSearchDigits(query).length >= PHONE_DIGITS_MIN;

/** A unit number is short: longer queries are only names, phones and e-mails. */
const UNIT_NUMBER_MAX = 20;

/** Members with a unit in the complex. */
export const memberComplex = (db: Reader, complexId: number): SQL => hasUnitWhere(db, eq(houses.complexId, complexId));

/** Members with a unit in one of the houses (none: nobody). */
export const memberHouses = (db: Reader, houseIds: number[]): SQL =>
  houseIds.length ? hasUnitWhere(db, inArray(realty.houseId, houseIds), false) : sql`false`;

/** At most so many members of the units of a searched number. */
const UNIT_MEMBERS_MAX = 5000;

/**
 * The members of the organization's units with this number (lower-cased), at most
 * UNIT_MEMBERS_MAX, written into the text (`fixedLimit`) so that a kept plan knows it.
 */
const unitMembers = (db: Reader, user: CurrentUser, number: string) =>
  db
    .selectDistinct({ id: residents.memberId })
    .from(realty)
    .innerJoin(residents, eq(residents.realtyId, realty.id))
    .where(and(eq(realty.organizationId, user.organizationId), sql`lower(${realty.number}) = ${number}`))
    .limit(fixedLimit(UNIT_MEMBERS_MAX));

/** At most so many runs of seven of a search's digits are looked up (`digitRuns`). */
const DIGIT_RUNS_MAX = 8;

/**
 * The distinct runs of seven digits of a search's digits, as integers: all of them, or
 * DIGIT_RUNS_MAX spread from the first to the last. A text that holds the digits holds each of
 * them, so the index may ask for all at once: one common run («3809500», the country and operator
 * of many phones) is narrowed by the others.
 */
function digitRuns(digits: string): number[] {
  const runs = [...new Set(Array.from({ length: digits.length - PHONE_DIGITS_MIN + 1 }, (_, i) => Number(digits.slice(i, i + PHONE_DIGITS_MIN))))];
  if (runs.length <= DIGIT_RUNS_MAX) return runs;
  return Array.from({ length: DIGIT_RUNS_MAX }, (_, i) => runs[Math.round((i * (runs.length - 1)) / (DIGIT_RUNS_MAX - 1))]);
}

/**
 * A member's search text holds seven or more digits (a phone, or a part of one): it has the runs
 * of seven of them that `digitRuns` takes (`digit_windows`, an index made by migration 0028, which
 * also collects the statistics the planner needs to tell a common run from a rare one), and then
 * all the digits (docs/architecture.md, "Phone numbers searched").
 */
const hasDigits = (digits: string): SQL =>
  sql`(strpos(${members.search}, ${digits}) > 0 and digit_windows(${members.search}) @> ${sql.param(digitRuns(digits))}::int[])`;

/**
 * The search over name, e-mail, phone digits and unit number. The members whose unit has the
 * searched number are found first (an index on the unit number), so that the whole condition
 * stays indexable (trigram, digit runs or primary key). In a complex (`member_units`), whose
 * entries are each tested, the text is a plain substring test (`contains`): the same matches at
 * half a LIKE's cost, and a plan that does not depend on the pattern, so it is kept
 * (`complexMembersPage`).
 */
export async function memberSearch(db: Reader, user: CurrentUser, query: string): Promise<SQL | undefined> {
  const text = searchForm(query);
  const byUnit = text && text.length <= UNIT_NUMBER_MAX ? (await unitMembers(db, user, text)).map((r) => r.id) : [];
  return searchOn(db, user, query, { search: members.search, id: members.id }, byUnit);
}

/** The same search in a complex's entries (`member_units`): built from the user and the text alone, it reads nothing. */
export const complexMemberSearch = (db: Reader, user: CurrentUser, query: string) =>
  searchOn(db, user, query, { search: memberUnits.search, id: memberUnits.memberId }, []);

/** The search's condition on `on`; `byUnit`: the members of a unit numbered so, read already (the members table's search). */
function searchOn(db: Reader, user: CurrentUser, query: string, on: { search: PgColumn; id: PgColumn }, byUnit: readonly number[]): SQL | undefined {
  const text = searchForm(query);
  if (!text) return undefined;
  const digits = phoneSearchDigits(query);
  const phone = digits.length >= PHONE_DIGITS_MIN;
  // A text that holds the digits («0671234567», «+380…») finds no one the digits do not.
  const textToo = !phone || !text.includes(digits);
  if (phone && on.search !== members.search) {
    // A phone number names a few members: they are found among all the organization's members
    // (member_units repeats their search text), with those of a unit of that number, and only
    // then taken from the complex — in the same statement.
    const byText = db
      .select({ id: members.id })
      .from(members)
      .where(
        and(eq(members.organizationId, user.organizationId), or(hasDigits(digits), textToo ? sql`${members.search} like ${likePattern(text)}` : undefined)),
      );
    return sql`${on.id} = any(array((${byText}) union (${unitMembers(db, user, text)})))`;
  }
  const test = (p: string) => (on.search === members.search ? sql`${on.search} like ${likePattern(p)}` : contains(on.search, p));
  const matches: SQL[] = textToo ? [test(text)] : [];
  if (phone) matches.push(hasDigits(digits));
  else if (digits.length >= 3) matches.push(test(digits));
  if (text.length <= UNIT_NUMBER_MAX && on.search !== members.search) {
    // A complex's entries are each tested anyway: the members of a unit of that number come in the same statement.
    matches.push(sql`${on.id} = any(array(${unitMembers(db, user, text)}))`);
  } else if (byUnit.length) matches.push(inArray(on.id, [...byUnit]));
  return or(...matches);
}

/**
 * The page and the total of a members list narrowed to one complex (its houses, a status, a
 * search), sorted by name: the complex's entries of `member_units` in name order, one index walked
 * from the page's start, the page's members read by primary key (docs/benchmarks.md, "Members of a
 * complex"). A member with several units there is one entry of the page. Other queries (no
 * complex, the creation date's order, a staff member's complex that is not theirs) answer
 * undefined and take the general WHERE.
 */
export function complexMembersPage(db: Reader, user: CurrentUser, q: PageQuery): PageSource | undefined {
  const complexId = q.complex_id as number | undefined;
  if (complexId === undefined || q.sort !== 'name') return undefined;
  if (user.complexIds !== null && !user.complexIds.includes(complexId)) return undefined;
  const houseIds = q.house_ids as number[] | undefined;
  const status = q.status as MemberFilters['status'];
  const search = complexMemberSearch(db, user, q.search_query);
  const where = and(
    eq(memberUnits.complexId, complexId),
    eq(memberUnits.organizationId, user.organizationId),
    // With a search, the houses are a filter on the complex's index walk, never an index of their
    // own: a kept plan costs any list of houses as a few and would read the rows by a bitmap.
    houseIds === undefined ? undefined : anyOf(search ? sql`(${memberUnits.houseId} + 0)` : memberUnits.houseId, houseIds),
    status ? eq(memberUnits.status, status) : undefined,
    search,
  );
  const dir = q.order === 'desc' ? desc : asc;
  const walk = (from: SQL | undefined) =>
    db
      .selectDistinct({ id: memberUnits.memberId, key: memberUnits.nameKey })
      .from(memberUnits)
      .where(and(where, from))
      .orderBy(dir(memberUnits.nameKey), dir(memberUnits.memberId))
      .limit(plannedLimit(q.per_page));
  const page = walk(undefined)
    .offset((q.page - 1) * q.per_page)
    .as('page');
  const entry = sql`(${memberUnits.nameKey}, ${memberUnits.memberId})`;
  return {
    page,
    id: page.id,
    order: [dir(page.key), dir(page.id)],
    // Grouped by the index's own order, the distinct members stream off it without a hash.
    count: db.select({ id: memberUnits.memberId }).from(memberUnits).where(where).groupBy(memberUnits.nameKey, memberUnits.memberId),
    // The complex's index walked in order whatever the page and the pattern. With a search, the
    // page stops at its last match, and the count (which tests every entry) runs only when the
    // kept total no longer holds (docs/architecture.md, "Kept totals").
    planOnce: true,
    // A kept start is a place on the same index: the entries from it on, in the page's order.
    // Page 1 of a phone number's search has none: its few members are found by the digit runs'
    // index before the walk, so there is nothing before its first match to step over, and the
    // statement without the start's second walk and keys costs the database less on every call
    // (docs/architecture.md, "Kept page starts").
    fromStart:
      q.page === 1 && isPhoneSearch(q.search_query)
        ? undefined
        : {
            ids: ({ key, id }) => {
              const from = walk(q.order === 'desc' ? sql`${entry} <= (${key}, ${id})` : sql`${entry} >= (${key}, ${id})`).as('from_start');
              return db.select({ id: from.id }).from(from).orderBy(dir(from.key), dir(from.id));
            },
            keyOf: (id) => sql`select json_build_array(${memberUnits.nameKey}, ${memberUnits.memberId}) from ${memberUnits}
        where ${memberUnits.memberId} = ${id} and ${memberUnits.complexId} = ${complexId} limit 1`,
            step: q.order === 'desc' ? -1 : 1,
          },
  };
}

/** The WHERE of a members list as the members list builds it: scope, status, complex, houses and the search. */
export async function membersWhere(db: Db, user: CurrentUser, q: MemberFilters): Promise<SQL> {
  return and(
    memberScope(db, user),
    q.status ? eq(members.status, q.status) : undefined,
    q.complex_id !== undefined ? memberComplex(db, q.complex_id) : undefined,
    q.house_ids !== undefined ? memberHouses(db, q.house_ids) : undefined,
    await memberSearch(db, user, q.search_query),
  )!;
}
