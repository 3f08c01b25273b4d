import { sql, type SQL } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canAccess, FULL_RULES, normaliseRules, type Action, type Area, type Rules } from '../../contract/permissions.ts';
import type { Db } from '../db/index.ts';
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
    /**
     * The session's token hash, and whether `user` was read from the database for this request
     * (false: taken from the sessions this process has seen, to be confirmed by the route's own
     * statement — see `sessionSql`).
     */
    session: { hash: string; confirmed: boolean };
  }
  interface FastifyContextConfig {
    /** The route confirms a known session inside its own statement (`sessionSql`, `confirmSession`). */
    confirmsSession?: boolean;
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
 * A valid session's user with their role's rules and complexes, as one JSON value (null when the
 * token is unknown, ended or expired): the sign-in check of every protected call, and the check
 * a list's own statement makes of a session it was started with (`sessionSql`).
 */
const sessionJson = (token: SQL) => sql<SessionRow | string | null>`(select json_build_object(
    'token_id', t.id, 'id', u.id, 'organization_id', u.organization_id, 'is_admin', u.is_admin,
    'must_change_password', u.must_change_password, 'permissions', r.permissions,
    'complex_ids', case when u.is_admin then null else array(select uc.complex_id from user_complexes uc where uc.user_id = u.id order by 1) end)
  from auth_tokens t join users u on u.id = t.user_id left join staff_roles r on r.id = u.role_id
  where ${token} and t.revoked_at is null and t.expires_at > now())`;
/** The session's token in `sessionJson` (whose tables are aliased t, u, r). */
const tokenHashIs = (hash: unknown) => sql`t.token_hash = ${hash}`;

interface SessionRow {
  token_id: number;
  id: number;
  organization_id: number;
  is_admin: boolean;
  must_change_password: boolean;
  permissions: Record<string, string[]> | null;
  complex_ids: number[] | null;
}

function currentUser(row: SessionRow | string | null): CurrentUser | undefined {
  const r = (typeof row === 'string' ? JSON.parse(row) : row) as SessionRow | null;
  if (!r) return undefined;
  return {
    id: r.id,
    organizationId: r.organization_id,
    tokenId: r.token_id,
    isAdmin: r.is_admin,
    mustChangePassword: r.must_change_password,
    rules: r.is_admin ? FULL_RULES : normaliseRules(r.permissions ?? {}),
    complexIds: r.is_admin ? null : (r.complex_ids ?? []),
  };
}

const byHash = new WeakMap<Db, { execute(values: { hash: string }): Promise<{ session: SessionRow | string | null }[]> }>();

/** The user of a token, while it is valid: one statement, prepared once per database (named, so planned once per connection). */
export async function loadCurrentUser(db: Db, token: string): Promise<CurrentUser | undefined> {
  return userByHash(db, hashToken(token));
}

async function userByHash(db: Db, hash: string): Promise<CurrentUser | undefined> {
  let query = byHash.get(db);
  if (!query) {
    query = db
      .select({ session: sessionJson(tokenHashIs(sql.placeholder('hash'))) })
      .from(sql`(select 1) as one`)
      .prepare('auth_session_by_token');
    byHash.set(db, query);
  }
  const [row] = await query!.execute({ hash });
  return currentUser(row?.session ?? null);
}

/** The user of a token known by its id (the live stream's ticket names it), while it is valid. */
export async function loadCurrentUserByTokenId(db: Db, tokenId: number): Promise<CurrentUser | undefined> {
  const [row] = await db.select({ session: sessionJson(sql`t.id = ${tokenId}`) }).from(sql`(select 1) as one`);
  return currentUser(row?.session ?? null);
}

// ── Sessions known to this process ─────────────────────────────────────────────────────────
// A list that builds its answer in one statement (server/crud/kept.ts) need not read the session
// first: it starts with the user this process saw for the token last time and checks the session
// in that same statement (`sessionSql`). Only when the statement finds it as it was is the answer
// sent; an ended session is a 401 and changed rights run the call again with them
// (docs/security.md, "Sessions confirmed in the list's statement"). No answer is ever built on
// rights that were not read in the statement that built it, or before it.

/** Sessions kept per database (the newest used; each is only a guess until confirmed). */
const KEPT_SESSIONS = 10_000;
const known = new WeakMap<Db, Map<string, CurrentUser>>();
const knownOf = (db: Db) => {
  let m = known.get(db);
  if (!m) known.set(db, (m = new Map()));
  return m;
};
function remember(db: Db, hash: string, user: CurrentUser | undefined) {
  const m = knownOf(db);
  m.delete(hash);
  if (!user) return;
  if (m.size >= KEPT_SESSIONS) m.delete(m.keys().next().value!);
  m.set(hash, user);
}

const sameUser = (a: CurrentUser, b: CurrentUser) =>
  a.id === b.id &&
  a.organizationId === b.organizationId &&
  a.tokenId === b.tokenId &&
  a.isAdmin === b.isAdmin &&
  a.mustChangePassword === b.mustChangePassword &&
  // An admin's rules are FULL_RULES itself: the same object needs no comparing.
  (a.rules === b.rules || JSON.stringify(a.rules) === JSON.stringify(b.rules)) &&
  (a.complexIds === b.complexIds || JSON.stringify(a.complexIds) === JSON.stringify(b.complexIds));

/** The session check to select beside a route's answer while the request's user is not confirmed yet (null once it is). */
export function sessionSql(request: FastifyRequest): SQL {
  return !request.session || request.session.confirmed ? sql`null` : sessionJson(tokenHashIs(request.session.hash));
}

/** Whether the request's user is still to be confirmed by the route's own statement (`sessionSql`). */
export const sessionToConfirm = (request: FastifyRequest): boolean => Boolean(request.session) && !request.session.confirmed;

/**
 * `sessionSql` for a statement rendered once (`fixedStatement` in server/db/index.ts), as the
 * request needs it (`sessionToConfirm`): the token's hash is its `session_hash` value.
 */
export const sessionSqlFixed = (toConfirm: boolean): SQL => (toConfirm ? sessionJson(tokenHashIs(sql.placeholder('session_hash'))) : sql`null`);

/**
 * What the route's statement found of the session (`sessionSql`): true when the answer may be
 * sent (confirmed now, or already before); false when the rights changed — the request now holds
 * them and the route runs again; throws 401 when the session ended.
 */
export function confirmSession(db: Db, request: FastifyRequest, found: unknown): boolean {
  if (!request.session || request.session.confirmed) return true;
  const fresh = currentUser(found as SessionRow | string | null);
  request.session.confirmed = true;
  // The user as it was stays the same object: what is kept per user (a list's statements) is found again.
  const same = fresh !== undefined && sameUser(fresh, request.user);
  remember(db, request.session.hash, same ? request.user : fresh);
  if (!fresh) throw unauthenticated();
  if (same) return true;
  request.user = fresh;
  if (mustChangeFirst(fresh, request)) throw new HttpError(403, MUST_CHANGE_PASSWORD);
  return false;
}

/** Reads the session now (an unconfirmed request that is refused, or that takes another path): 401 when it ended. */
export async function confirmNow(db: Db, request: FastifyRequest): Promise<void> {
  if (!request.session || request.session.confirmed) return;
  const fresh = await userByHash(db, request.session.hash);
  request.session.confirmed = true;
  remember(db, request.session.hash, fresh);
  if (!fresh) throw unauthenticated();
  request.user = fresh;
  if (mustChangeFirst(fresh, request)) throw new HttpError(403, MUST_CHANGE_PASSWORD);
}

const MUST_CHANGE_PASSWORD = 'Спочатку змініть тимчасовий пароль.';
const mustChangeFirst = (user: CurrentUser, request: FastifyRequest) => user.mustChangePassword && !/\/(user|logout)$/.test(request.routeOptions.url ?? '');

/** Registers a bearer-token check for every route of the scope it is registered in. */
export const requireAuth = fp(
  async (app, opts: { db: Db }) => {
    app.decorateRequest('user', undefined as unknown as CurrentUser);
    app.decorateRequest('session', undefined as unknown as FastifyRequest['session']);
    app.addHook('onRequest', async (request) => {
      const token = bearerToken(request);
      if (!token || token.length > 200) throw unauthenticated();
      const hash = hashToken(token);
      const guess = request.routeOptions.config.confirmsSession ? knownOf(opts.db).get(hash) : undefined;
      if (guess && !mustChangeFirst(guess, request)) {
        request.user = guess;
        request.session = { hash, confirmed: false };
        return;
      }
      const user = await userByHash(opts.db, hash);
      remember(opts.db, hash, user);
      if (!user) throw unauthenticated();
      request.user = user;
      request.session = { hash, confirmed: true };
      if (mustChangeFirst(user, request)) throw new HttpError(403, MUST_CHANGE_PASSWORD);
    });
  },
  { name: 'require-auth' },
);

/** preHandler that refuses the request unless the user's role grants `action` on `area`. */
export function requirePermission(area: Area, action: Action) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (canAccess(request.user.rules, area, action)) return;
    // A refusal is never based on a session not confirmed: its rights may have grown meanwhile.
    if (request.session && !request.session.confirmed) {
      await confirmNow(request.server.db, request);
      if (canAccess(request.user.rules, area, action)) return;
    }
    throw forbidden();
  };
}
