import { and, asc, count, desc, eq, inArray, sum, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { BILL_STATUSES, billRecord, billStatus, billsUpdate, billTotals, MAX_KOPIYKY, type Bill, type BillTotals } from '../../../contract/members.ts';
import { bills, members, realty, residents } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { unprocessable } from '../../lib/errors.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { formatAddress } from '../houses/address.ts';
import type { Tx } from './links.ts';
import { housesFor } from './records.ts';
import { memberScope, unitScope } from './scope.ts';

const tags = ['bills'];

const billListQuery = listQuery.extend({
  per_page: listQuery.shape.per_page.removeDefault().default(24),
  /** The member's id: the bills of every unit they are linked to. */
  resident_id: idSchema.optional(),
  realty_id: idSchema.optional(),
  status: z.enum(BILL_STATUSES, { error: 'Статус: unpaid, partial або paid.' }).optional(),
  /** By period; the newest first unless asked otherwise. */
  order: listQuery.shape.order.removeDefault().default('desc'),
});

type Reader = Pick<Tx, 'select'>;
type BillRow = typeof bills.$inferSelect;

const period = (date: string) => date.slice(0, 7);

/** Sums over the bills matching `where`: charged, paid, and what is owed (negative when paid ahead). */
async function totalsOf(db: Reader, where: SQL | undefined): Promise<BillTotals> {
  const [row] = await db
    .select({ amount: sum(bills.amount), paid: sum(bills.paid) })
    .from(bills)
    .innerJoin(realty, eq(realty.id, bills.realtyId))
    .where(where);
  const amount = Number(row?.amount ?? 0);
  const paid = Number(row?.paid ?? 0);
  return { amount, paid, debt: amount - paid };
}

async function toRecords(db: Reader, rows: BillRow[]): Promise<Bill[]> {
  if (rows.length === 0) return [];
  const units = await db
    .select({ id: realty.id, houseId: realty.houseId, type: realty.type, number: realty.number })
    .from(realty)
    .where(
      inArray(
        realty.id,
        rows.map((r) => r.realtyId),
      ),
    );
  const unitBy = new Map(units.map((u) => [u.id, u]));
  const houseBy = await housesFor(
    db,
    units.map((u) => u.houseId),
  );
  return rows.flatMap((r) => {
    const unit = unitBy.get(r.realtyId);
    const house = unit && houseBy.get(unit.houseId);
    if (!unit || !house) return [];
    return {
      id: r.id,
      realty_id: r.realtyId,
      address: formatAddress(house),
      realty_type: unit.type,
      realty_number: unit.number,
      period: period(r.period),
      service: r.service,
      amount: r.amount,
      paid: r.paid,
      debt: r.amount - r.paid,
      status: r.status,
      updated_at: r.updatedAt.toISOString(),
    };
  });
}

export const billRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  /** Bills of the units a user may see; with resident_id, of that member's units (when the member is in scope). */
  function billsWhere(user: CurrentUser, q: { resident_id?: number; realty_id?: number; status?: (typeof BILL_STATUSES)[number] }): SQL {
    const conditions: (SQL | undefined)[] = [unitScope(db, user)];
    if (q.resident_id !== undefined) {
      const memberUnits = db
        .select({ id: residents.realtyId })
        .from(residents)
        .innerJoin(members, eq(members.id, residents.memberId))
        .where(and(eq(residents.memberId, q.resident_id), memberScope(db, user)));
      conditions.push(inArray(bills.realtyId, memberUnits));
    }
    if (q.realty_id !== undefined) conditions.push(eq(bills.realtyId, q.realty_id));
    if (q.status) conditions.push(eq(bills.status, q.status));
    return and(...conditions)!;
  }

  app.get(
    '/bills',
    {
      preHandler: requirePermission('members', 'view'),
      schema: {
        tags,
        summary: 'Нарахування',
        description:
          'Щомісячні нарахування приміщень: resident_id — ідентифікатор мешканця (усі його приміщення), realty_id — одне приміщення, ' +
          'status. Суми — у копійках; totals — за всіма рахунками фільтра.',
        querystring: billListQuery,
        response: { 200: z.object({ data: z.array(billRecord), pagination: paginationSchema, totals: billTotals }) },
      },
    },
    async (request) => {
      const q = request.query;
      const where = billsWhere(request.user, q);
      const [[{ total }], rows, totals] = await Promise.all([
        db.select({ total: count() }).from(bills).innerJoin(realty, eq(realty.id, bills.realtyId)).where(where),
        db
          .select({ bill: bills })
          .from(bills)
          .innerJoin(realty, eq(realty.id, bills.realtyId))
          .where(where)
          .orderBy(q.order === 'asc' ? asc(bills.period) : desc(bills.period), asc(bills.realtyId), asc(bills.service), asc(bills.id))
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
        totalsOf(db, where),
      ]);
      return {
        data: await toRecords(
          db,
          rows.map((r) => r.bill),
        ),
        pagination: paginate(total, q.page, q.per_page),
        totals,
      };
    },
  );

  app.put(
    '/bills',
    {
      preHandler: requirePermission('members', 'edit'),
      schema: {
        tags,
        summary: 'Платежі та коригування нарахувань',
        description:
          'Кожна зміна — за id рахунку або за realty_id + period (РРРР-ММ) + service (нове нарахування, якщо такого немає). amount і ' +
          'paid встановлюють суми (коригування), payment додає платіж. Суми в копійках, ніколи не від’ємні. Усе в одній транзакції: ' +
          'помилка в будь-якій зміні — нічого не змінено (422 з полями bills.<n>.<поле>).',
        body: billsUpdate,
        response: { 200: z.object({ data: z.array(billRecord), totals: billTotals }) },
      },
    },
    async (request) => {
      const user = request.user;
      const changes = request.body.bills;
      return db.transaction(async (tx: Tx) => {
        const errors: Record<string, string[]> = {};
        const saved: BillRow[] = [];
        for (const [i, c] of changes.entries()) {
          const at = (field: string, message: string) => (errors[`bills.${i}.${field}`] ??= []).push(message);
          let existing: BillRow | undefined;
          let realtyId: number;
          if (c.id !== undefined) {
            [existing] = (
              await tx
                .select({ bill: bills })
                .from(bills)
                .innerJoin(realty, eq(realty.id, bills.realtyId))
                .where(and(unitScope(tx, user), eq(bills.id, c.id)))
                .for('update', { of: bills })
                .limit(1)
            ).map((r) => r.bill);
            if (!existing) {
              at('id', 'Рахунок не знайдено.');
              continue;
            }
            realtyId = existing.realtyId;
          } else {
            const [unit] = await tx
              .select({ id: realty.id })
              .from(realty)
              .where(and(unitScope(tx, user), eq(realty.id, c.realty_id!)))
              .limit(1);
            if (!unit) {
              at('realty_id', 'Приміщення не знайдено.');
              continue;
            }
            realtyId = unit.id;
            [existing] = await tx
              .select()
              .from(bills)
              .where(and(eq(bills.realtyId, unit.id), eq(bills.period, `${c.period}-01`), eq(bills.service, c.service!)))
              .for('update')
              .limit(1);
            if (!existing && c.amount === undefined) {
              at('amount', 'Для нового нарахування вкажіть суму.');
              continue;
            }
          }
          const amount = c.amount ?? existing!.amount;
          const paid = c.paid ?? (existing?.paid ?? 0) + (c.payment ?? 0);
          if (paid > MAX_KOPIYKY) {
            at('payment', 'Сплачена сума завелика.');
            continue;
          }
          const values = { amount, paid, status: billStatus(amount, paid), updatedAt: new Date() };
          if (existing) {
            const [row] = await tx.update(bills).set(values).where(eq(bills.id, existing.id)).returning();
            saved.push(row);
          } else {
            const [row] = await tx
              .insert(bills)
              .values({ ...values, organizationId: user.organizationId, realtyId, period: `${c.period}-01`, service: c.service! })
              .returning();
            saved.push(row);
          }
        }
        // Any invalid change rolls the whole request back.
        if (Object.keys(errors).length) throw unprocessable(errors);
        const unitIds = [...new Set(saved.map((b) => b.realtyId))];
        const totals = await totalsOf(tx, inArray(bills.realtyId, unitIds));
        const unique = [...new Map(saved.map((b) => [b.id, b])).values()];
        return { data: await toRecords(tx, unique), totals };
      });
    },
  );
};
