import { isIP } from 'node:net';
import { and, desc, gte, inArray, or } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { authAttempts } from '../db/schema.ts';
import { HttpError } from './errors.ts';

/**
 * Throttling of password guesses (sign-in, the settings' current-password checks): failures are
 * rows of `auth_attempts` under a key, kept in the database so that every process sees them.
 * Each key has a limit: a few failures cost nothing, then every further attempt waits for a
 * time that doubles with each failure (a progressive delay, OWASP / NIST SP 800-63B), up to a
 * ceiling. Policy — which keys an attempt is counted under — is the caller's.
 */

export const MINUTE_MS = 60_000;

/** How many failures a key may collect before attempts have to wait, and how long. */
export interface Limit {
  /** failures older than this are forgotten */
  windowMs: number;
  /** failures within the window that cost nothing */
  free: number;
  /** the wait after the `free`-th failure; it doubles with every further failure */
  firstWaitMs: number;
  /** the longest wait */
  maxWaitMs: number;
}

/** One key an attempt is counted under, and its limit. */
export interface Check {
  key: string;
  limit: Limit;
}

/**
 * Seconds until the next attempt is allowed after these failures (any order), or undefined when
 * it is allowed now: after `free` failures within the window, `firstWaitMs` after the latest
 * one, doubled for every further failure, at most `maxWaitMs`.
 */
export function retryAfter(failures: readonly Date[], limit: Limit, now = Date.now()): number | undefined {
  const recent = failures.map((at) => at.getTime()).filter((at) => at > now - limit.windowMs);
  if (recent.length < limit.free) return undefined;
  const wait = Math.min(limit.maxWaitMs, limit.firstWaitMs * 2 ** (recent.length - limit.free));
  const until = recent.reduce((a, b) => Math.max(a, b)) + wait;
  return until > now ? Math.ceil((until - now) / 1000) : undefined;
}

/** 429 with Retry-After and a Ukrainian sentence saying what and for how long. */
export function tooManyAttempts(seconds: number, what: string): HttpError {
  return new HttpError(429, `${what} Спробуйте через ${Math.ceil(seconds / 60)} хв.`, undefined, { 'Retry-After': String(seconds) });
}

/** A booked attempt: a failure on each of its keys until `passed` says otherwise. */
export interface Attempt {
  /** The password was right: the attempt is not a failure, and the failures of `clear` are forgiven. */
  passed(clear?: string[]): Promise<void>;
}

export function createThrottle(db: Db) {
  async function failures(keys: string[], since: Date) {
    return db
      .select({ id: authAttempts.id, key: authAttempts.key, at: authAttempts.at })
      .from(authAttempts)
      .where(and(inArray(authAttempts.key, keys), gte(authAttempts.at, since)))
      .orderBy(desc(authAttempts.at));
  }

  /** The longest wait any check asks for; `before` limits each key to the rows booked before its own. */
  function longestWait(rows: { id: number; key: string; at: Date }[], checks: Check[], now: number, before?: Map<string, number>) {
    let longest: number | undefined;
    for (const { key, limit } of checks) {
      const own = before?.get(key);
      const times = rows.filter((r) => r.key === key && (own === undefined || r.id < own)).map((r) => r.at);
      const wait = retryAfter(times, limit, now);
      if (wait !== undefined && (longest === undefined || wait > longest)) longest = wait;
    }
    return longest;
  }

  return {
    /**
     * Starts an attempt: throws `refuse(seconds)` while any key has to wait (nothing is written
     * then), otherwise books the attempt as a failure on every key before the password is even
     * checked, so that guesses sent in parallel — to this process or another — count against
     * each other: of those booked together only the ones still within the limit go on.
     */
    async begin(checks: Check[], refuse: (seconds: number) => Error): Promise<Attempt> {
      const now = Date.now();
      const keys = checks.map((c) => c.key);
      const since = new Date(now - Math.max(...checks.map((c) => c.limit.windowMs)));
      const waitNow = longestWait(await failures(keys, since), checks, now);
      if (waitNow !== undefined) throw refuse(waitNow);

      const booked = await db
        .insert(authAttempts)
        .values(keys.map((key) => ({ key, at: new Date(now) })))
        .returning({ id: authAttempts.id, key: authAttempts.key });
      const ids = booked.map((b) => b.id);
      const own = new Map(booked.map((b) => [b.key, b.id]));
      const waitAfter = longestWait(await failures(keys, since), checks, Date.now(), own);
      if (waitAfter !== undefined) {
        await db.delete(authAttempts).where(inArray(authAttempts.id, ids));
        throw refuse(waitAfter);
      }
      return {
        async passed(clear = []) {
          await db
            .delete(authAttempts)
            .where(clear.length ? or(inArray(authAttempts.id, ids), inArray(authAttempts.key, clear)) : inArray(authAttempts.id, ids));
        },
      };
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;

/**
 * The network a client address belongs to, as throttling counts it: an IPv4 address itself, an
 * IPv6 address's /64 (one household or one server usually holds a whole /64, so counting single
 * IPv6 addresses would let one client rotate through billions of them).
 */
export function clientNetwork(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  const address = ip.split('%')[0];
  if (isIP(address) !== 6) return ip;
  // An embedded IPv4 tail is two groups.
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const [head, tail] = address.split('::');
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const full = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** One cookie's value from a Cookie request header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
