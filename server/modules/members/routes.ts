import { and, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { memberEntity, type Member, type MemberInput, type MemberStatus } from '../../../contract/members.ts';
import { houses, members, realty, residents } from '../../db/schema.ts';
import { nextVersion } from '../../lib/concurrency.ts';
import { crudRoutes } from '../../crud/routes.ts';
import type { CrudContext } from '../../crud/types.ts';
import { conflict, unprocessable } from '../../lib/errors.ts';
import { ordered } from '../../lib/order.ts';
import { normalisePhone } from '../../lib/phone.ts';
import { idList } from '../houses/routes.ts';
import { complexMembersPage, memberComplex, memberHouses, memberSearch } from './filters.ts';
import { requireLink, type Tx } from './links.ts';
import { toMemberRecords, memberRecordsJson } from './records.ts';
import { residentRoleById, residentRolesOf } from './roles.ts';
import { hasUnitWhere } from './scope.ts';
import { staffComplexes } from '../../lib/scope.ts';

const PHONE_TAKEN = 'Мешканець з таким телефоном уже є.';
const EMAIL_TAKEN = 'Мешканець з таким e-mail уже є.';

/** Phone in E.164 (null when it is not a number: the check says so first) and e-mail lower-cased. */
const phoneOf = (body: Pick<MemberInput, 'phone'>) => (body.phone === null ? null : normalisePhone(body.phone));
const emailOf = (body: Pick<MemberInput, 'email'>) => (body.email === null ? null : body.email.toLowerCase());

/** Phone and e-mail are valid and unique per organization (422 on the field). */
async function checkContacts({ db, user }: CrudContext, body: MemberInput, exceptId?: number) {
  const errors: Record<string, string[]> = {};
  const phone = phoneOf(body);
  if (body.phone !== null && phone === null) errors.phone = ['Вкажіть коректний номер телефону, наприклад +380 67 123 45 67.'];
  const email = emailOf(body);
  if (email !== null && !z.email().safeParse(email).success) errors.email = ['Вкажіть коректний e-mail.'];
  const others = exceptId === undefined ? undefined : ne(members.id, exceptId);
  const taken = async (where: ReturnType<typeof eq>) =>
    (
      await db
        .select({ id: members.id })
        .from(members)
        .where(and(eq(members.organizationId, user.organizationId), where, others))
        .limit(1)
    ).length > 0;
  if (phone && !errors.phone && (await taken(eq(members.phone, phone)))) errors.phone = [PHONE_TAKEN];
  if (email && !errors.email && (await taken(eq(members.email, email)))) errors.email = [EMAIL_TAKEN];
  if (Object.keys(errors).length) throw unprocessable(errors);
}

/** Two saves at once took the same phone or e-mail: the unique index that refused the row says which field. */
function uniqueViolationErrors(err: unknown): Record<string, string[]> {
  const e = err as { constraint?: string; cause?: { constraint?: string } };
  return String(e.constraint ?? e.cause?.constraint ?? '').includes('email') ? { email: [EMAIL_TAKEN] } : { phone: [PHONE_TAKEN] };
}

/**
 * Members: the generic CRUD of their declaration (contract/members.ts) and its export
 * (GET /members/export, file members-YYYY-MM-DD). What members add: the scope through their units,
 * the complex and house filters through them, the search by phone digits and unit number, phone
 * and e-mail unique per organization, and the first unit linked on create (workflow of /residents).
 */
export const memberRoutes = crudRoutes(memberEntity, {
  table: members,
  columns: { name: members.name, status: members.status, created_at: members.createdAt },
  /** Staff: members with a unit in one of their complexes (a member without units is an admin's). */
  scope: ({ db, user }) =>
    user.complexIds === null
      ? undefined
      : user.complexIds.length === 0
        ? sql`false`
        : hasUnitWhere(db, inArray(houses.complexId, staffComplexes(user.complexIds))),
  complexFilter: ({ db }, complexId) => memberComplex(db, complexId),
  pageFrom: ({ db, user }, q) => complexMembersPage(db, user, q),
  query: { house_ids: idList('Будинки') },
  where: ({ db }, q) => (q.house_ids !== undefined ? memberHouses(db, q.house_ids as number[]) : undefined),
  searchReading: ({ db, user }, text) => memberSearch(db, user, text),
  sortKeys: {
    name: (order) => ordered([members.nameKey], order),
    created_at: (order) => ordered([members.createdAt], order),
  },
  references: {
    'resident-roles': async ({ db, user }, id) => (await residentRoleById(db, user.organizationId, id)) !== undefined,
  },
  async check(ctx, body: MemberInput, id) {
    // A staff member's new member needs a unit in their complexes: otherwise nobody of them could see it.
    if (id === undefined && (body.realty_id ?? null) === null && ctx.user.complexIds !== null)
      throw unprocessable({ realty_id: ['Оберіть приміщення в одному з ваших комплексів.'] });
    await checkContacts(ctx, body, id);
  },
  uniqueViolation: uniqueViolationErrors,
  values: (b: MemberInput) => ({ name: b.name, phone: phoneOf(b), email: emailOf(b), status: b.status, note: b.note }),
  /** The list's bulk status change: the status alone, as an update that changes only the status writes it. */
  async bulk(_app, { db }, row, data) {
    await db
      .update(members)
      .set({ status: data.status as MemberStatus, updatedAt: nextVersion(members.updatedAt) })
      .where(eq(members.id, row.id));
  },
  /** The first unit of a new member: its role (an owner by default) and share, checked as /residents checks a link. */
  async afterWrite({ db, user }, id, body: MemberInput, created) {
    const realtyId = body.realty_id ?? null;
    if (!created || realtyId === null) return;
    const tx = db as unknown as Tx;
    const roleId = body.role_id ?? (await residentRolesOf(tx, user.organizationId)).find((r) => r.code === 'owner')!.id;
    const link = await requireLink(tx, user, { memberId: id, realtyId, roleId, share: body.ownership_share ?? null });
    await tx.insert(residents).values({ ...link, organizationId: user.organizationId, memberId: id });
  },
  /** Staff may not delete someone who also lives in a complex they do not work in. */
  async beforeDelete({ db, user }, id) {
    if (user.complexIds === null) return;
    const [{ outside }] = await db
      .select({ outside: count() })
      .from(residents)
      .innerJoin(realty, eq(realty.id, residents.realtyId))
      .innerJoin(houses, eq(houses.id, realty.houseId))
      .where(
        and(
          eq(residents.memberId, id),
          sql`(${houses.complexId} is null or ${user.complexIds.length ? sql`not ${inArray(houses.complexId, staffComplexes(user.complexIds))}` : sql`true`})`,
        ),
      );
    if (outside > 0) throw conflict("Мешканця пов'язано з приміщеннями в інших комплексах: видалити його може адміністратор.");
  },
  toRecords: ({ db, user }, rows) => toMemberRecords(db, user, rows),
  recordsJson: ({ db, user }) => memberRecordsJson(db, user),
  exportCells: {
    /** Each unit with its address, the member's role and share. */
    units: (m: Member) => m.units.map((u) => `${u.address}, № ${u.number} (${u.role}${u.ownership_share ? `, ${u.ownership_share}` : ''})`).join('; ') || null,
  },
});
