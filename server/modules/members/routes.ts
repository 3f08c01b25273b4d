import { and, count, eq, ne, inArray, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { memberInput, memberRecord, type MemberInput } from '../../../contract/members.ts';
import type { Db } from '../../db/index.ts';
import { houses, members, realty, residents } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { expectedVersion, nextVersion, staleRecord, versionMatches } from '../../lib/concurrency.ts';
import { conflict, notFound, unprocessable, isUniqueViolation } from '../../lib/errors.ts';
import { listTotal } from '../../lib/list.ts';
import { paginate, paginationSchema } from '../../lib/pagination.ts';
import { normalisePhone } from '../../lib/phone.ts';
import { ordered } from '../../lib/order.ts';
import { memberListQuery, membersWhere, memberSortKeys } from './filters.ts';
import { requireLink, type Tx } from './links.ts';
import { toMemberRecords, type MemberRow } from './records.ts';
import { residentRolesOf } from './roles.ts';
import { memberScope } from './scope.ts';

const params = z.object({ id: idSchema });
const tags = ['members'];
const one = z.object({ data: memberRecord });
const NOT_FOUND = 'Мешканця не знайдено.';
const PHONE_TAKEN = 'Мешканець з таким телефоном уже є.';
const EMAIL_TAKEN = 'Мешканець з таким e-mail уже є.';

export async function findMember(db: Pick<Db, 'select'>, user: CurrentUser, id: number): Promise<MemberRow> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(memberScope(db, user), eq(members.id, id)))
    .limit(1);
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

/** Phone to E.164 and e-mail lower-cased; both unique per organization (422 on the field). */
export async function memberValues(
  db: Pick<Db, 'select'>,
  organizationId: number,
  body: Pick<MemberInput, 'name' | 'phone' | 'email' | 'status' | 'note'>,
  exceptId?: number,
) {
  const errors: Record<string, string[]> = {};
  const phone = body.phone === null ? null : normalisePhone(body.phone);
  if (body.phone !== null && phone === null) errors.phone = ['Вкажіть коректний номер телефону, наприклад +380 67 123 45 67.'];
  const email = body.email === null ? null : body.email.toLowerCase();
  if (email !== null && !z.email().safeParse(email).success) errors.email = ['Вкажіть коректний e-mail.'];
  const others = exceptId === undefined ? undefined : ne(members.id, exceptId);
  if (phone && !errors.phone) {
    const [taken] = await db
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.organizationId, organizationId), eq(members.phone, phone), others))
      .limit(1);
    if (taken) errors.phone = [PHONE_TAKEN];
  }
  if (email && !errors.email) {
    const [taken] = await db
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.organizationId, organizationId), eq(members.email, email), others))
      .limit(1);
    if (taken) errors.email = [EMAIL_TAKEN];
  }
  if (Object.keys(errors).length) throw unprocessable(errors);
  return { name: body.name, phone, email, status: body.status, note: body.note };
}

/** A unique index caught what the check above could not (two saves at once): the same 422. */
export function uniqueViolationErrors(err: unknown): Record<string, string[]> | undefined {
  if (!isUniqueViolation(err)) return undefined;
  const text = String(
    (err as { constraint?: string; cause?: { constraint?: string } }).constraint ?? (err as { cause?: { constraint?: string } }).cause?.constraint ?? '',
  );
  return text.includes('email') ? { email: [EMAIL_TAKEN] } : { phone: [PHONE_TAKEN] };
}

export const memberRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  async function record(user: CurrentUser, row: MemberRow) {
    const [rec] = await toMemberRecords(db, user, [row]);
    return rec;
  }

  app.get(
    '/members',
    {
      preHandler: requirePermission('members', 'view'),
      schema: {
        tags,
        summary: 'Список мешканців',
        description:
          'Фільтри: complex_id, house_ids[] (будинки приміщень мешканця), status; search_query — частина ПІБ, e-mail чи телефону, або ' +
          'точний номер приміщення. Сортування: name (за українською абеткою), created_at, id.',
        querystring: memberListQuery,
        response: { 200: z.object({ data: z.array(memberRecord), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      const q = request.query;
      const where = await membersWhere(db, request.user, q);
      const [total, rows] = await Promise.all([
        listTotal(
          db,
          db
            .select({ one: sql`1` })
            .from(members)
            .where(where),
        ),
        db
          .select()
          .from(members)
          .where(where)
          .orderBy(...ordered([...memberSortKeys[q.sort]], q.order))
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { data: await toMemberRecords(db, request.user, rows), pagination: paginate(total, q.page, q.per_page) };
    },
  );

  app.get(
    '/members/:id',
    { preHandler: requirePermission('members', 'view'), schema: { tags, summary: 'Мешканець', params, response: { 200: one } } },
    async (request) => ({ data: await record(request.user, await findMember(db, request.user, request.params.id)) }),
  );

  app.post(
    '/members',
    {
      preHandler: requirePermission('members', 'create'),
      schema: {
        tags,
        summary: 'Додати мешканця',
        description:
          "realty_id, role_id (число або об'єкт опції з value) і ownership_share одразу пов'язують мешканця з приміщенням; працівнику " +
          "без прав на всі комплекси приміщення обов'язкове.",
        body: memberInput,
        response: { 200: one },
      },
    },
    async (request) => {
      const user = request.user;
      const body = request.body;
      const realtyId = body.realty_id ?? null;
      if (realtyId === null && user.complexIds !== null) throw unprocessable({ realty_id: ['Оберіть приміщення в одному з ваших комплексів.'] });
      const values = await memberValues(db, user.organizationId, body);
      try {
        const row = await db.transaction(async (tx: Tx) => {
          const [created] = await tx
            .insert(members)
            .values({ ...values, organizationId: user.organizationId })
            .returning();
          if (realtyId !== null) {
            const roles = await residentRolesOf(tx, user.organizationId);
            const roleId = body.role_id ?? roles.find((r) => r.code === 'owner')!.id;
            const link = await requireLink(tx, user, { memberId: created.id, realtyId, roleId, share: body.ownership_share ?? null });
            await tx.insert(residents).values({ ...link, organizationId: user.organizationId, memberId: created.id });
          }
          return created;
        });
        return { data: await record(user, row) };
      } catch (err) {
        const errors = uniqueViolationErrors(err);
        if (errors) throw unprocessable(errors);
        throw err;
      }
    },
  );

  app.put(
    '/members/:id',
    {
      preHandler: requirePermission('members', 'edit'),
      schema: { tags, summary: 'Змінити мешканця', description: 'Приміщення змінюються через /residents.', params, body: memberInput, response: { 200: one } },
    },
    async (request) => {
      const user = request.user;
      await findMember(db, user, request.params.id);
      const version = expectedVersion(request);
      const values = await memberValues(db, user.organizationId, request.body, request.params.id);
      try {
        const [row] = await db
          .update(members)
          .set({ ...values, updatedAt: nextVersion(members.updatedAt) })
          .where(and(eq(members.id, request.params.id), versionMatches(members.updatedAt, version)))
          .returning();
        if (!row) throw version ? staleRecord() : notFound('Мешканця не знайдено.');
        return { data: await record(user, row) };
      } catch (err) {
        const errors = uniqueViolationErrors(err);
        if (errors) throw unprocessable(errors);
        throw err;
      }
    },
  );

  app.delete(
    '/members/:id',
    {
      preHandler: requirePermission('members', 'delete'),
      schema: { tags, summary: 'Видалити мешканця', params, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      const user = request.user;
      const member = await findMember(db, user, request.params.id);
      if (user.complexIds !== null) {
        // Staff may not delete someone who also lives in a complex they do not work in.
        const [{ outside }] = await db
          .select({ outside: count() })
          .from(residents)
          .innerJoin(realty, eq(realty.id, residents.realtyId))
          .innerJoin(houses, eq(houses.id, realty.houseId))
          .where(
            and(
              eq(residents.memberId, member.id),
              sql`(${houses.complexId} is null or ${user.complexIds.length ? sql`not ${inArray(houses.complexId, user.complexIds)}` : sql`true`})`,
            ),
          );
        if (outside > 0) throw conflict("Мешканця пов'язано з приміщеннями в інших комплексах: видалити його може адміністратор.");
      }
      await db.delete(members).where(eq(members.id, member.id));
      return { message: 'Мешканця видалено.' };
    },
  );
};
