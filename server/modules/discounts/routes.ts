import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audienceFilters } from '../../../contract/audience.ts';
import { idSchema } from '../../../contract/common.ts';
import { discountInput, discountRecord, type Discount, type DiscountInput } from '../../../contract/discounts.ts';
import { discountComplexes, discountHouses, discounts } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { notFound } from '../../lib/errors.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { ordered } from '../../lib/order.ts';
import { assertWholeAudienceInScope, audienceFilter, audienceScope, loadAudiences, resolveAudience, writeAudience, type AudienceTables } from '../community/audience.ts';

type Row = typeof discounts.$inferSelect;

const AUDIENCE: AudienceTables = {
  complexes: { table: discountComplexes, parentId: discountComplexes.discountId, complexId: discountComplexes.complexId, row: (discountId, complexId) => ({ discountId, complexId }) },
  houses: { table: discountHouses, parentId: discountHouses.discountId, houseId: discountHouses.houseId, row: (discountId, houseId) => ({ discountId, houseId }) },
};

const discountListQuery = listQuery.extend({
  sort: z.enum(['id', 'partner', 'valid_until', 'created_at'], { error: 'Сортування можливе за: id, partner, valid_until, created_at.' }).default('created_at'),
  order: z.enum(['asc', 'desc'], { error: 'Порядок сортування: asc або desc.' }).default('desc'),
  active: z.enum(['0', '1'], { error: 'active: 0 або 1.' }).optional(),
  ...audienceFilters,
});
const params = z.object({ id: idSchema });
const tags = ['discounts'];
const one = z.object({ data: discountRecord });

/** Partner discounts for residents: JSON calls, audience of complexes (and houses) as for news. */
export const discountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const scope = (user: CurrentUser) => and(eq(discounts.organizationId, user.organizationId), audienceScope(db, user, AUDIENCE, discounts.id));

  async function toRecords(rows: Row[]): Promise<Discount[]> {
    const audiences = await loadAudiences(db, AUDIENCE, rows.map((r) => r.id));
    const now = new Date();
    return rows.map((r) => ({
      id: r.id,
      partner: r.partner,
      title: r.title,
      description: r.description,
      percent: r.percent,
      promo_code: r.promoCode,
      address: r.address,
      phone: r.phone,
      link: r.link,
      valid_until: r.validUntil?.toISOString() ?? null,
      expired: r.validUntil !== null && r.validUntil < now,
      ...audiences.get(r.id)!,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
  }
  async function findOne(user: CurrentUser, id: number) {
    const [row] = await db.select().from(discounts).where(and(scope(user), eq(discounts.id, id))).limit(1);
    if (!row) throw notFound('Знижку не знайдено.');
    return row;
  }
  const recordOf = async (id: number) => (await toRecords(await db.select().from(discounts).where(eq(discounts.id, id))))[0];
  const values = (b: DiscountInput) => ({ partner: b.partner, title: b.title, description: b.description, percent: b.percent, promoCode: b.promo_code, address: b.address, phone: b.phone, link: b.link, validUntil: b.valid_until });

  app.get(
    '/discounts',
    {
      preHandler: requirePermission('discounts', 'view'),
      schema: {
        tags,
        summary: 'Знижки партнерів',
        description: 'search_query — у назві партнера або пропозиції; active=1 — ще чинні, 0 — завершені; complex_id, house_ids[].',
        querystring: discountListQuery,
        response: { 200: z.object({ data: z.array(discountRecord), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [scope(request.user), audienceFilter(db, AUDIENCE, discounts.id, q.complex_id, q.house_ids)];
      if (q.active === '1') conditions.push(or(sql`${discounts.validUntil} is null`, sql`${discounts.validUntil} >= now()`));
      if (q.active === '0') conditions.push(sql`${discounts.validUntil} < now()`);
      const search = q.search_query.trim();
      if (search) conditions.push(or(ilike(discounts.partner, likePattern(search)), ilike(discounts.title, likePattern(search))));
      const where = and(...conditions);
      const key = { id: discounts.id, partner: ukrainianSortKey(discounts.partner), valid_until: discounts.validUntil, created_at: discounts.createdAt }[q.sort];
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(discounts).where(where),
        db.select().from(discounts).where(where).orderBy(...ordered([key], q.order), q.order === 'desc' ? desc(discounts.id) : discounts.id).limit(q.per_page).offset((q.page - 1) * q.per_page),
      ]);
      return { data: await toRecords(rows), pagination: paginate(total, q.page, q.per_page) };
    },
  );
  app.get('/discounts/:id', { preHandler: requirePermission('discounts', 'view'), schema: { tags, summary: 'Знижка', params, response: { 200: one } } }, async (request) => ({
    data: (await toRecords([await findOne(request.user, request.params.id)]))[0],
  }));
  app.post('/discounts', { preHandler: requirePermission('discounts', 'create'), schema: { tags, summary: 'Додати знижку', body: discountInput, response: { 200: one } } }, async (request) => {
    const audience = await resolveAudience(db, request.user, request.body);
    const id = await db.transaction(async (tx) => {
      const [row] = await tx.insert(discounts).values({ ...values(request.body), organizationId: request.user.organizationId }).returning({ id: discounts.id });
      await writeAudience(tx, AUDIENCE, row.id, audience);
      return row.id;
    });
    return { data: await recordOf(id) };
  });
  app.put('/discounts/:id', { preHandler: requirePermission('discounts', 'edit'), schema: { tags, summary: 'Змінити знижку', params, body: discountInput, response: { 200: one } } }, async (request) => {
    const { id } = request.params;
    await findOne(request.user, id);
    await assertWholeAudienceInScope(db, request.user, AUDIENCE, id);
    const audience = await resolveAudience(db, request.user, request.body);
    await db.transaction(async (tx) => {
      await tx.update(discounts).set({ ...values(request.body), updatedAt: new Date() }).where(eq(discounts.id, id));
      await writeAudience(tx, AUDIENCE, id, audience);
    });
    return { data: await recordOf(id) };
  });
  app.delete('/discounts/:id', { preHandler: requirePermission('discounts', 'delete'), schema: { tags, summary: 'Видалити знижку', params, response: { 200: z.object({ message: z.string() }) } } }, async (request) => {
    const { id } = request.params;
    await findOne(request.user, id);
    await assertWholeAudienceInScope(db, request.user, AUDIENCE, id);
    await db.delete(discounts).where(eq(discounts.id, id));
    return { message: 'Знижку видалено.' };
  });
};
