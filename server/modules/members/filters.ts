import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { MEMBER_SORTS, MEMBER_STATUSES } from '../../../contract/members.ts';
import { searchForm } from '../../../contract/reference.ts';
import type { Db } from '../../db/index.ts';
import { houses, members, realty, residents } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { listQuery } from '../../lib/pagination.ts';
import { phoneSearchDigits } from '../../lib/phone.ts';
import { idList } from '../houses/routes.ts';
import { hasUnitWhere, memberScope } from './scope.ts';

/** The members list's filters, shared by the list and its export. */
export const memberFilters = z.object({
  search_query: z.string().max(200, 'Пошуковий запит задовгий.').default(''),
  status: z.enum(MEMBER_STATUSES, { error: 'Статус: active або inactive.' }).optional(),
  complex_id: idSchema.optional(),
  house_ids: idList('Будинки'),
});
export type MemberFilters = z.infer<typeof memberFilters>;

export const memberListQuery = listQuery.extend(memberFilters.shape).extend({
  sort: z.enum(MEMBER_SORTS, { error: 'Сортування можливе за: id, name, created_at.' }).default('name'),
});

export const memberSortKeys = {
  id: [members.id],
  name: [ukrainianSortKey(members.name), members.id],
  created_at: [members.createdAt, members.id],
} as const;

/** A unit number is short: longer queries are only names, phones and e-mails. */
const UNIT_NUMBER_MAX = 20;

/**
 * The WHERE of a members list: scope, status, complex and houses (through the member's units),
 * and the search over name, e-mail, phone digits and unit number. The members whose unit has the
 * searched number are found first (an index on the unit number), so that the whole condition
 * stays indexable (trigram OR primary key).
 */
export async function membersWhere(db: Db, user: CurrentUser, q: MemberFilters): Promise<SQL> {
  const conditions: (SQL | undefined)[] = [memberScope(db, user)];
  if (q.status) conditions.push(eq(members.status, q.status));
  if (q.complex_id !== undefined) conditions.push(hasUnitWhere(db, eq(houses.complexId, q.complex_id)));
  if (q.house_ids !== undefined) conditions.push(q.house_ids.length ? hasUnitWhere(db, inArray(realty.houseId, q.house_ids), false) : sql`false`);
  const text = searchForm(q.search_query);
  if (text) {
    const matches: SQL[] = [sql`${members.search} like ${likePattern(text)}`];
    const digits = phoneSearchDigits(q.search_query);
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
    conditions.push(or(...matches));
  }
  return and(...conditions)!;
}
