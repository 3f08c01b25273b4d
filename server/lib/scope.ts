import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { CurrentUser } from './auth.ts';

/**
 * The rows a user may see: those of their organization and, for staff, only inside the
 * complexes assigned to them. Anything outside answers 404, as if it did not exist.
 */
export function complexScope(user: CurrentUser, cols: { organizationId: PgColumn; complexId: PgColumn }): SQL {
  const org = eq(cols.organizationId, user.organizationId);
  if (user.complexIds === null) return org;
  if (user.complexIds.length === 0) return sql`false`;
  return and(org, inArray(cols.complexId, staffComplexes(user.complexIds)))!;
}

/**
 * A staff member's complexes as they go into a statement: written into its text (ids read from
 * the database, integers only), not as parameters. A statement planned once for all calls
 * (server/db/index.ts, `planOnce`) is then planned for these complexes, not for an average of
 * everyone's; the text is per set of complexes, as the lists' records already are.
 */
export function staffComplexes(complexIds: number[]): SQL {
  if (!complexIds.every((id) => Number.isSafeInteger(id))) throw new Error('complex ids must be integers');
  return complexIds.length ? sql.raw(`(${complexIds.join(', ')})`) : sql`(null)`;
}
