import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { MEMBER_STATUSES } from '../../../contract/members.ts';
import { searchForm } from '../../../contract/reference.ts';
import type { Db } from '../../db/index.ts';
import { houses, members, realty, residents } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { likePattern } from '../../lib/list.ts';
import { phoneSearchDigits } from '../../lib/phone.ts';
import { idList } from '../houses/routes.ts';
import { hasUnitWhere, memberScope } from './scope.ts';

type Reader = Pick<Db, 'select' | 'selectDistinct'>;

/** The members list's filters (contract/members.ts `memberEntity`), also of survey audiences (interview). */
export const memberFilters = z.object({
  search_query: z.string().max(200, 'Пошуковий запит задовгий.').default(''),
  status: z.enum(MEMBER_STATUSES, { error: 'Статус: active або inactive.' }).optional(),
  complex_id: idSchema.optional(),
  house_ids: idList('Будинки'),
});
export type MemberFilters = z.infer<typeof memberFilters>;

/** A unit number is short: longer queries are only names, phones and e-mails. */
const UNIT_NUMBER_MAX = 20;

/** Members with a unit in the complex. */
export const memberComplex = (db: Reader, complexId: number): SQL => hasUnitWhere(db, eq(houses.complexId, complexId));

/** Members with a unit in one of the houses (none: nobody). */
export const memberHouses = (db: Reader, houseIds: number[]): SQL =>
  houseIds.length ? hasUnitWhere(db, inArray(realty.houseId, houseIds), false) : sql`false`;

/**
 * The search over name, e-mail, phone digits and unit number. The members whose unit has the
 * searched number are found first (an index on the unit number), so that the whole condition
 * stays indexable (trigram OR primary key).
 */
export async function memberSearch(db: Reader, user: CurrentUser, query: string): Promise<SQL | undefined> {
  const text = searchForm(query);
  if (!text) return undefined;
  const matches: SQL[] = [sql`${members.search} like ${likePattern(text)}`];
  const digits = phoneSearchDigits(query);
  if (digits.length >= 3) matches.push(sql`${members.search} like ${likePattern(digits)}`);
  if (text.length <= UNIT_NUMBER_MAX) {
    const byUnit = await db
      .selectDistinct({ id: residents.memberId })
      .from(realty)
      .innerJoin(residents, eq(residents.realtyId, realty.id))
      .where(and(eq(realty.organizationId, user.organizationId), sql`lower(${realty.number}) = ${text}`))
      .limit(5000);
    if (byUnit.length)
      matches.push(
        inArray(
          members.id,
          byUnit.map((r) => r.id),
        ),
      );
  }
  return or(...matches);
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
