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
  return and(org, inArray(cols.complexId, user.complexIds))!;
}
