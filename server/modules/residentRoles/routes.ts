import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RESIDENT_ROLE_CODES, type ResidentRoleCode } from '../../../contract/members.ts';
import { residentRoleEntity, type ResidentRoleInput } from '../../../contract/residentRoles.ts';
import { realty, residentRoles, residents } from '../../db/schema.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { unprocessable } from '../../lib/errors.ts';
import { plural } from '../../lib/words.ts';
import { residentScope } from '../members/records.ts';
import { DEFAULT_RESIDENT_ROLES, residentRolesOf } from '../members/roles.ts';

const isDefault = (code: string): code is ResidentRoleCode => (RESIDENT_ROLE_CODES as readonly string[]).includes(code);

/** Resident roles: the generic CRUD of their declaration (contract/residentRoles.ts). */
const roleRoutes = crudRoutes(residentRoleEntity, {
  table: residentRoles,
  columns: { name: residentRoles.name, holds_share: residentRoles.holdsShare, created_at: residentRoles.createdAt },
  sortKeys: { position: (order) => [order === 'desc' ? desc(residentRoles.position) : asc(residentRoles.position)] },
  unique: { field: 'name', message: 'Роль з такою назвою вже існує.' },
  async toRecords({ db, user }, rows) {
    const ids = rows.map((r) => r.id);
    // How many links with each role the reader can see.
    const counts = ids.length
      ? await db
          .select({ roleId: residents.roleId, n: count() })
          .from(residents)
          .innerJoin(realty, eq(realty.id, residents.realtyId))
          .where(and(residentScope(db, user), inArray(residents.roleId, ids)))
          .groupBy(residents.roleId)
      : [];
    const countOf = new Map(counts.map((c) => [c.roleId, Number(c.n)]));
    return rows.map((r) => ({
      id: r.id,
      code: r.code,
      name: r.name,
      holds_share: r.holdsShare,
      residents_count: countOf.get(r.id) ?? 0,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
  },
  values: (b: ResidentRoleInput, _ctx, created) => ({
    name: b.name,
    holdsShare: b.holds_share,
    // The organization's own roles come after the four, each with a code of its own.
    ...(created ? { code: `own_${randomUUID().slice(0, 8)}`, position: 100 } : {}),
  }),
  async check({ db }, input, id) {
    if (id === undefined) return;
    const [row] = await db.select({ code: residentRoles.code }).from(residentRoles).where(eq(residentRoles.id, id)).limit(1);
    if (row && isDefault(row.code) && DEFAULT_RESIDENT_ROLES[row.code].holdsShare !== input.holds_share)
      throw unprocessable({ holds_share: ['Чи має роль частку у власності, для основних ролей змінити не можна: від цього залежить підрахунок голосів.'] });
  },
  async inUse({ db }, id) {
    const [row] = await db.select({ code: residentRoles.code, name: residentRoles.name }).from(residentRoles).where(eq(residentRoles.id, id)).limit(1);
    if (row && isDefault(row.code)) return `Роль «${row.name}» — одна з основних ролей, її не можна видалити.`;
    const [{ n }] = await db.select({ n: count() }).from(residents).where(eq(residents.roleId, id));
    if (n > 0) return `Роль мають ${n} ${plural(n, ['мешканець', 'мешканці', 'мешканців'])}, тому її не можна видалити. Спершу призначте їм іншу роль.`;
  },
});

/**
 * Resident roles under /resident-roles. The four roles every organization has are added the first
 * time its list is read (organizations created before residents existed have none).
 */
export const residentRoleRoutes: FastifyPluginAsyncZod = async (app) => {
  // The list and its export: a call naming one role needs no defaults (without them there is no such role: 404, nothing written).
  app.addHook('preHandler', async (request) => {
    if (request.user && request.method === 'GET' && (request.params as { id?: unknown }).id === undefined)
      await residentRolesOf(app.db, request.user.organizationId);
  });
  await app.register(roleRoutes);
};
