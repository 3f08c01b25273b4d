import { and, eq, gt, isNull, type SQL } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canAccess, FULL_RULES, normaliseRules, type Action, type Area, type Rules } from '../../contract/permissions.ts';
import type { Db } from '../db/index.ts';
import { authTokens, staffRoles, userComplexes, users } from '../db/schema.ts';
import { forbidden, HttpError } from './errors.ts';
import { hashToken } from './secrets.ts';

/** The signed-in user as every protected handler sees it. */
export interface CurrentUser {
  id: number;
  organizationId: number;
  tokenId: number;
  isAdmin: boolean;
  /** Until the password is changed only GET /user and POST /logout answer. */
  mustChangePassword: boolean;
  rules: Rules;
  /** Complexes the user may touch; `null` means every complex of the organization (admins). */
  complexIds: number[] | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: CurrentUser;
  }
}

export const unauthenticated = () => new HttpError(401, 'Unauthenticated.');

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

export async function loadCurrentUser(db: Db, token: string): Promise<CurrentUser | undefined> {
  return loadUserWhere(db, eq(authTokens.tokenHash, hashToken(token)));
}

/** The user of a token known by its id (the live stream's ticket names it), while it is valid. */
export async function loadCurrentUserByTokenId(db: Db, tokenId: number): Promise<CurrentUser | undefined> {
  return loadUserWhere(db, eq(authTokens.id, tokenId));
}

async function loadUserWhere(db: Db, tokenCondition: SQL): Promise<CurrentUser | undefined> {
  const [row] = await db
    .select({
      tokenId: authTokens.id,
      id: users.id,
      organizationId: users.organizationId,
      isAdmin: users.isAdmin,
      mustChangePassword: users.mustChangePassword,
      permissions: staffRoles.permissions,
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .leftJoin(staffRoles, eq(staffRoles.id, users.roleId))
    .where(and(tokenCondition, isNull(authTokens.revokedAt), gt(authTokens.expiresAt, new Date())))
    .limit(1);
  if (!row) return undefined;
  let complexIds: number[] | null = null;
  if (!row.isAdmin) {
    const links = await db.select({ id: userComplexes.complexId }).from(userComplexes).where(eq(userComplexes.userId, row.id));
    complexIds = links.map((l) => l.id);
  }
  return {
    id: row.id,
    organizationId: row.organizationId,
    tokenId: row.tokenId,
    isAdmin: row.isAdmin,
    mustChangePassword: row.mustChangePassword,
    rules: row.isAdmin ? FULL_RULES : normaliseRules(row.permissions ?? {}),
    complexIds,
  };
}

/** Registers a bearer-token check for every route of the scope it is registered in. */
export const requireAuth = fp(
  async (app, opts: { db: Db }) => {
    app.decorateRequest('user', undefined as unknown as CurrentUser);
    app.addHook('onRequest', async (request) => {
      const token = bearerToken(request);
      if (!token || token.length > 200) throw unauthenticated();
      const user = await loadCurrentUser(opts.db, token);
      if (!user) throw unauthenticated();
      request.user = user;
      const route = request.routeOptions.url ?? '';
      if (user.mustChangePassword && !/\/(user|logout)$/.test(route)) {
        throw new HttpError(403, 'Спочатку змініть тимчасовий пароль.');
      }
    });
  },
  { name: 'require-auth' },
);

/** preHandler that refuses the request unless the user's role grants `action` on `area`. */
export function requirePermission(area: Area, action: Action) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!canAccess(request.user.rules, area, action)) throw forbidden();
  };
}
