import { and, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { discountEntity, type DiscountInput } from '../../../contract/discounts.ts';
import { discountComplexes, discountHouses, discounts } from '../../db/schema.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { audienceHooks, loadAudiences, type AudienceTables } from '../community/audience.ts';
import { NOW } from '../../lib/sqlReads.ts';

const AUDIENCE: AudienceTables = {
  complexes: {
    table: discountComplexes,
    parentId: discountComplexes.discountId,
    complexId: discountComplexes.complexId,
    row: (discountId, complexId) => ({ discountId, complexId }),
  },
  houses: {
    table: discountHouses,
    parentId: discountHouses.discountId,
    houseId: discountHouses.houseId,
    row: (discountId, houseId) => ({ discountId, houseId }),
  },
};
const audience = audienceHooks<DiscountInput>(AUDIENCE, discounts.id);

/**
 * Partner discounts for residents: the generic CRUD of their declaration (contract/discounts.ts), with an audience of
 * complexes and houses; `active` narrows to valid (1) or ended (0) offers.
 */
export const discountRoutes = crudRoutes(discountEntity, {
  table: discounts,
  columns: { partner: discounts.partner, title: discounts.title, valid_until: discounts.validUntil, created_at: discounts.createdAt },
  ...audience,
  query: { ...audience.query, active: z.enum(['0', '1'], { error: 'active: 0 або 1.' }).optional() },
  where: (ctx, q) => {
    const active =
      q.active === '1'
        ? or(sql`${discounts.validUntil} is null`, sql`${discounts.validUntil} >= ${NOW}`)
        : q.active === '0'
          ? sql`${discounts.validUntil} < ${NOW}`
          : undefined;
    return and(active, audience.where(ctx, q));
  },
  async toRecords({ db }, rows) {
    const audiences = await loadAudiences(
      db,
      AUDIENCE,
      rows.map((r) => r.id),
    );
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
  },
  values: (b: DiscountInput) => ({
    partner: b.partner,
    title: b.title,
    description: b.description,
    percent: b.percent,
    promoCode: b.promo_code,
    address: b.address,
    phone: b.phone,
    link: b.link,
    validUntil: b.valid_until,
  }),
});
