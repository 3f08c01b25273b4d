import { count, inArray } from 'drizzle-orm';
import { houseTypeEntity } from '../../../contract/houses.ts';
import type { Db } from '../../db/index.ts';
import { houses, houseTypes } from '../../db/schema.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { plural } from '../../lib/words.ts';

async function housesCount(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: houses.houseTypeId, n: count() }).from(houses).where(inArray(houses.houseTypeId, ids)).groupBy(houses.houseTypeId);
  return new Map(rows.map((r) => [r.id!, Number(r.n)]));
}

/**
 * House types of the organization, guarded by the `houses` area: the generic CRUD of their
 * declaration (contract/houses.ts). A type some house has cannot be deleted (409 with the count).
 */
export const houseTypeRoutes = crudRoutes(houseTypeEntity, {
  table: houseTypes,
  columns: { name: houseTypes.name, created_at: houseTypes.createdAt },
  unique: { field: 'name', message: 'Тип будинку з такою назвою вже існує.' },
  async toRecords({ db }, rows) {
    const counts = await housesCount(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      houses_count: counts.get(r.id) ?? 0,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
  },
  values: (b: { name: string }) => ({ name: b.name }),
  async inUse({ db }, id) {
    const n = (await housesCount(db, [id])).get(id) ?? 0;
    if (n > 0) return `Тип використовують ${n} ${plural(n, ['будинок', 'будинки', 'будинків'])}, тому його не можна видалити. Спершу змініть тип цих будинків.`;
  },
});
