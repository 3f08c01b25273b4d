import { and, asc, eq } from 'drizzle-orm';
import { RESIDENT_ROLE_CODES, type ResidentRoleCode } from '../../../contract/members.ts';
import type { Db } from '../../db/index.ts';
import { residentRoles } from '../../db/schema.ts';

type Tx = Pick<Db, 'select' | 'insert'>;

/** The four roles every organization has; owners and co-owners hold a share of the unit. */
export const DEFAULT_RESIDENT_ROLES: Record<ResidentRoleCode, { name: string; holdsShare: boolean }> = {
  owner: { name: 'Власник', holdsShare: true },
  co_owner: { name: 'Співвласник', holdsShare: true },
  tenant: { name: 'Орендар', holdsShare: false },
  family: { name: "Член сім'ї", holdsShare: false },
};

export type ResidentRoleRow = typeof residentRoles.$inferSelect;

/**
 * The organization's resident roles, adding the default four the first time they are needed
 * (organizations created before residents existed, or by tests, have none yet).
 */
export async function residentRolesOf(db: Tx, organizationId: number): Promise<ResidentRoleRow[]> {
  const rows = await db
    .select()
    .from(residentRoles)
    .where(eq(residentRoles.organizationId, organizationId))
    .orderBy(asc(residentRoles.position), asc(residentRoles.id));
  const missing = RESIDENT_ROLE_CODES.filter((code) => !rows.some((r) => r.code === code));
  if (missing.length === 0) return rows;
  await db
    .insert(residentRoles)
    .values(missing.map((code) => ({ organizationId, code, ...DEFAULT_RESIDENT_ROLES[code], position: RESIDENT_ROLE_CODES.indexOf(code) })))
    .onConflictDoNothing();
  return db.select().from(residentRoles).where(eq(residentRoles.organizationId, organizationId)).orderBy(asc(residentRoles.position), asc(residentRoles.id));
}

export async function residentRoleById(db: Tx, organizationId: number, id: number): Promise<ResidentRoleRow | undefined> {
  const [row] = await db
    .select()
    .from(residentRoles)
    .where(and(eq(residentRoles.organizationId, organizationId), eq(residentRoles.id, id)))
    .limit(1);
  if (row) return row;
  // The defaults may not exist yet for this organization.
  return (await residentRolesOf(db, organizationId)).find((r) => r.id === id);
}
