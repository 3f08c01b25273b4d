import { count, eq, inArray } from 'drizzle-orm';
import { canAccess } from '../../../contract/permissions.ts';
import { complexDetailRecord, complexEntity, type ComplexCounts, type ComplexInput } from '../../../contract/complexes.ts';
import type { Db } from '../../db/index.ts';
import { complexes, contacts, contactSections, houses, realty, streets, userComplexes } from '../../db/schema.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { conflict } from '../../lib/errors.ts';
import { accessChanged } from '../../lib/live.ts';
import { ukrainianSortKey } from '../../lib/list.ts';
import { naturalKeys, ordered } from '../../lib/order.ts';
import { plural } from '../../lib/words.ts';
import { selectHouses, withCounts } from '../houses/records.ts';

/** Houses and units of a complex: two grouped counts, whatever the size of the complex. */
async function complexCounts(db: Db, complexId: number): Promise<ComplexCounts> {
  const ofComplex = db.select({ id: houses.id }).from(houses).where(eq(houses.complexId, complexId));
  const [[{ n }], units] = await Promise.all([
    db.select({ n: count() }).from(houses).where(eq(houses.complexId, complexId)),
    db.select({ type: realty.type, n: count() }).from(realty).where(inArray(realty.houseId, ofComplex)).groupBy(realty.type),
  ]);
  // residents: always 0 for now — residents come with a later feature (members), then they are counted here.
  const counts: ComplexCounts = { houses: Number(n), apartment: 0, parking: 0, storage: 0, commercial: 0, residents: 0 };
  for (const u of units) counts[u.type] = Number(u.n);
  return counts;
}

/** Residential complexes: the generic CRUD of their declaration (contract/complexes.ts). */
export const complexRoutes = crudRoutes(complexEntity, {
  table: complexes,
  columns: { name: complexes.name, city: complexes.city, address: complexes.address, created_at: complexes.createdAt },
  complexColumn: complexes.id,
  /** Exactly this city (the list's `city`). */
  query: { city: complexEntity.input.shape.city.optional() },
  where: (_ctx, q) => (q.city ? eq(complexes.city, q.city as string) : undefined),
  /** Unique names are checked by the database; a clash is a field error. */
  uniqueViolation: { name: ['Комплекс з такою назвою вже існує.'] },
  values: (b: ComplexInput) => ({ name: b.name, city: b.city, address: b.address, description: b.description }),
  toRecords: async (_ctx, rows) =>
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      city: r.city,
      address: r.address,
      description: r.description,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    })),
  /** A staff user who creates a complex works in it. */
  async afterWrite({ db, user }, id, _input, created) {
    if (created && user.complexIds !== null) await db.insert(userComplexes).values({ userId: user.id, complexId: id });
  },
  /** Their open live streams include the new complex from now on. */
  async afterCommit(app, { user }, _id, created) {
    if (created && user.complexIds !== null) await accessChanged(app.live, user.organizationId, [user.id]);
  },
  /** Its contact sections go with it, but a section that still holds contacts is never deleted (as on DELETE /contacts_section). */
  async beforeDelete({ db }, id) {
    const [held] = await db
      .select({ n: count() })
      .from(contacts)
      .innerJoin(contactSections, eq(contactSections.id, contacts.sectionId))
      .where(eq(contactSections.complexId, id));
    if (held.n > 0) {
      throw conflict(
        `У комплексі ${held.n} ${plural(held.n, ['контакт', 'контакти', 'контактів'])}, тому його не можна видалити. Спершу перенесіть або видаліть їх.`,
      );
    }
  },
  /** With its houses (if the role may view houses) and its counts. Every house of a complex the user sees is in their scope. */
  detail: {
    schema: complexDetailRecord,
    async load({ db, user }, record) {
      const counts = await complexCounts(db, record.id);
      if (!canAccess(user.rules, 'houses', 'view')) return { ...record, counts };
      const houseRows = await selectHouses(db)
        .where(eq(houses.complexId, record.id))
        .orderBy(...ordered([ukrainianSortKey(streets.name), ...naturalKeys(houses.number), ukrainianSortKey(houses.building)], 'asc'), houses.id);
      return { ...record, houses: await withCounts(db, houseRows), counts };
    },
  },
});
