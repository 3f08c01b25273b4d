import { and, eq, isNull, ne, or } from 'drizzle-orm';
import { searchForm } from '../../../contract/reference.ts';
import type { Db } from '../../db/index.ts';
import { streets } from '../../db/schema.ts';

type Tx = Pick<Db, 'select' | 'insert'>;

/**
 * The id of the street called `name` in a settlement: an existing one (reference or added by
 * an admin, compared case- and apostrophe-insensitively), or a new admin street.
 */
export async function ensureStreet(db: Tx, settlementId: number, name: string, type: string | null = null): Promise<number> {
  const key = searchForm(name);
  const [existing] = await db
    .select({ id: streets.id })
    .from(streets)
    .where(and(eq(streets.settlementId, settlementId), eq(streets.searchName, key)))
    .limit(1);
  if (existing) return existing.id;
  const [created] = await db
    .insert(streets)
    .values({ settlementId, name: name.trim().replace(/\s+/g, ' '), type, searchName: key, source: 'admin' })
    .returning({ id: streets.id });
  return created.id;
}

/**
 * A street of the settlement that a street called `name` of `type` would duplicate: same name
 * (case- and apostrophe-insensitively) and the same type, where a street without a type
 * conflicts with any type. «вулиця Шевченка» and «провулок Шевченка» are two streets.
 */
export async function sameStreet(db: Pick<Db, 'select'>, settlementId: number, name: string, type: string | null, exceptId?: number) {
  const [row] = await db
    .select({ id: streets.id })
    .from(streets)
    .where(
      and(
        eq(streets.settlementId, settlementId),
        eq(streets.searchName, searchForm(name)),
        type === null ? undefined : or(isNull(streets.type), eq(streets.type, type)),
        exceptId === undefined ? undefined : ne(streets.id, exceptId),
      ),
    )
    .limit(1);
  return row;
}
