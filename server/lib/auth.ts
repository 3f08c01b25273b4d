import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
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

/**
 * The user of a valid token with their role's rules and complexes, in one statement: it runs
 * before every protected call, so it is prepared once per database (a named statement on
 * PostgreSQL, planned once per connection) with the token's hash and the moment as parameters.
 */
function userOf(db: Db, tokenCondition: SQL) {
  return db
    .select({
      tokenId: authTokens.id,
      id: users.id,
      organizationId: users.organizationId,
      isAdmin: users.isAdmin,
      mustChangePassword: users.mustChangePassword,
      permissions: staffRoles.permissions,
      complexIds: sql<number[] | null>`case when ${users.isAdmin} then null else array(select ${userComplexes.complexId} from ${userComplexes} where ${userComplexes.userId} = ${users.id} order by 1) end`,
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .leftJoin(staffRoles, eq(staffRoles.id, users.roleId))
    .where(and(tokenCondition, isNull(authTokens.revokedAt), gt(authTokens.expiresAt, sql.placeholder('now'))))
    .limit(1);
}
type UserRow = Awaited<ReturnType<ReturnType<typeof userOf>['execute']>>[number];

const byHash = new WeakMap<Db, ReturnType<ReturnType<typeof userOf>['prepare']>>();

export async function loadCurrentUser(db: Db, token: string): Promise<CurrentUser | undefined> {
  let query = byHash.get(db);
  if (!query) byHash.set(db, (query = userOf(db, eq(authTokens.tokenHash, sql.placeholder('hash'))).prepare('auth_user_by_token')));
  const [row] = await query.execute({ hash: hashToken(token), now: new Date().toISOString() });
  return row && currentUser(row);
}

/** The user of a token known by its id (the live stream's ticket names it), while it is valid. */
export async function loadCurrentUserByTokenId(db: Db, tokenId: number): Promise<CurrentUser | undefined> {
  const [row] = await userOf(db, eq(authTokens.id, tokenId)).execute({ now: new Date().toISOString() });
  return row && currentUser(row);
}

function currentUser(row: UserRow): CurrentUser {
  return {
    id: row.id,
    organizationId: row.organizationId,
    tokenId: row.tokenId,
    isAdmin: row.isAdmin,
    mustChangePassword: row.mustChangePassword,
    rules: row.isAdmin ? FULL_RULES : normaliseRules(row.permissions ?? {}),
    complexIds: row.isAdmin ? null : (row.complexIds ?? []).map(Number),
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
