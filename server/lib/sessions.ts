import { createHash } from 'node:crypto';
import { and, desc, eq, getTableName, gt, isNull, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { queryRows, type Db } from '../db/index.ts';
import { authAttempts, authTokens, liveTickets, passwordResets, verificationCodes, votingCodes, votingSessions } from '../db/schema.ts';
import { accessChanged, type LiveBus } from './live.ts';
import { newToken } from './secrets.ts';

type Runner = Pick<Db, 'update'>;

/**
 * Sessions (bearer tokens) a user keeps at once. Signing in once more ends the oldest of them,
 * so a leaked or forgotten device does not stay signed in for ever and the table cannot grow
 * without bound by signing in in a loop.
 */
export const SESSIONS_PER_USER = 10;

/** The background job type of the periodic purge (server/app.ts). */
export const PURGE_JOB = 'maintenance.purge-expired';

/** What the periodic purge keeps, and how often it runs. */
export const PURGE_RULES = {
  /** How often any one process of the deployment purges. */
  everySeconds: 3600,
  /** Failed sign-ins are kept a day: longer than any throttling window looks back. */
  attemptsKeptMs: 24 * 3600_000,
  /** One-time codes are kept a day: their hourly limits look back one hour. */
  codesKeptMs: 24 * 3600_000,
  /** Used or expired password links are kept an hour: the hourly mail limits count them. */
  linksKeptMs: 3600_000,
} as const;

/**
 * What a password link (reset or invitation) is bound to: the account's password hash and
 * e-mail at the time it was issued. A link whose stamp no longer matches is refused, so a new
 * password or a new sign-in e-mail voids every link sent before — whichever way it was changed.
 */
export function accountStamp(account: { passwordHash: string; email: string }): string {
  return createHash('sha256').update(`${account.passwordHash}\n${account.email}`).digest('hex');
}

/**
 * Opens a session: a token for the client (only its hash is stored). Of the user's live sessions
 * the newest SESSIONS_PER_USER stay; older ones end, and their live streams with them.
 */
export async function openSession(db: Db, live: LiveBus, user: { id: number; organizationId: number }, ttlSeconds: number): Promise<string> {
  const { token, hash } = newToken();
  const now = new Date();
  await db.insert(authTokens).values({ userId: user.id, tokenHash: hash, expiresAt: new Date(now.getTime() + ttlSeconds * 1000) });
  const newest = db
    .select({ id: authTokens.id })
    .from(authTokens)
    .where(and(eq(authTokens.userId, user.id), isNull(authTokens.revokedAt), gt(authTokens.expiresAt, now)))
    .orderBy(desc(authTokens.id))
    .limit(SESSIONS_PER_USER);
  const ended = await db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(and(eq(authTokens.userId, user.id), isNull(authTokens.revokedAt), gt(authTokens.expiresAt, now), notInArray(authTokens.id, newest)))
    .returning({ id: authTokens.id });
  if (ended.length > 0) await accessChanged(live, user.organizationId, [user.id]);
  return token;
}

/**
 * Ends every session of a user, or every one but `keep` (the session that made the change when
 * users change their own password, e-mail or phone). Runs in the caller's transaction; the caller
 * announces it with `accessChanged` once committed, so that open live streams end too.
 */
export async function endSessions(db: Runner, userId: number, keep?: number): Promise<void> {
  await db
    .update(authTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(authTokens.userId, userId), isNull(authTokens.revokedAt), keep === undefined ? undefined : ne(authTokens.id, keep)));
}

/** The rows each purge deletes, table by table: `now` is the purge's moment, `ago(ms)` a moment before it. */
const PURGES = {
  /** Ended or expired sessions; their live tickets go with them. */
  sessions: { table: authTokens, where: (now: SQL) => sql`${authTokens.expiresAt} < ${now} or ${authTokens.revokedAt} is not null` },
  /** Expired live-stream tickets (used ones too: a ticket serves once, within a minute). */
  liveTickets: { table: liveTickets, where: (now: SQL) => sql`${liveTickets.expiresAt} < ${now}` },
  /** Used or expired password links, once the hourly mail limits no longer count them. */
  passwordLinks: {
    table: passwordResets,
    where: (now: SQL, ago: (ms: number) => SQL) =>
      sql`(${passwordResets.expiresAt} < ${now} or ${passwordResets.usedAt} is not null) and ${passwordResets.createdAt} < ${ago(PURGE_RULES.linksKeptMs)}`,
  },
  codes: { table: verificationCodes, where: (_now: SQL, ago: (ms: number) => SQL) => sql`${verificationCodes.createdAt} < ${ago(PURGE_RULES.codesKeptMs)}` },
  votingCodes: { table: votingCodes, where: (_now: SQL, ago: (ms: number) => SQL) => sql`${votingCodes.createdAt} < ${ago(PURGE_RULES.codesKeptMs)}` },
  signInAttempts: { table: authAttempts, where: (_now: SQL, ago: (ms: number) => SQL) => sql`${authAttempts.at} < ${ago(PURGE_RULES.attemptsKeptMs)}` },
  votingSessions: { table: votingSessions, where: (now: SQL) => sql`${votingSessions.expiresAt} < ${now}` },
} satisfies Record<string, { table: PgTable; where: (now: SQL, ago: (ms: number) => SQL) => SQL }>;

/** The number of rows each kind lost in one purge. */
export type PurgeCounts = Record<keyof typeof PURGES, number>;

/** The tables the purge keeps small. */
export const PURGED_TABLES: string[] = Object.values(PURGES).map((p) => getTableName(p.table));

/**
 * Deletes what can no longer be used: ended or expired sessions (their live tickets go with
 * them), expired live tickets, used or expired password links, old one-time codes (staff's and
 * co-owners'), old failed sign-ins and expired co-owners' voting sessions. Safe to run at any
 * time and in any process; each table is one DELETE that answers only its count.
 */
export async function purgeExpired(db: Db, at = new Date()): Promise<PurgeCounts> {
  const ago = (ms: number) => sql`${new Date(at.getTime() - ms).toISOString()}::timestamptz`;
  const counts = {} as PurgeCounts;
  for (const [kind, { table, where }] of Object.entries(PURGES) as [keyof typeof PURGES, (typeof PURGES)[keyof typeof PURGES]][]) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`with gone as (delete from ${table} where ${where(ago(0), ago)} returning 1) select count(*)::int as n from gone`,
    );
    counts[kind] = Number(row?.n ?? 0);
  }
  return counts;
}
