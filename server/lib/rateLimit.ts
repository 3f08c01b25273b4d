import { createHash } from 'node:crypto';
import { and, desc, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { rateLimitHits } from '../db/schema.ts';
import { HttpError } from './errors.ts';

/** At most `limit` requests per `windowMs` under `key`; `message` explains a refusal (in Ukrainian). */
export interface Limit {
  key: string;
  limit: number;
  windowMs: number;
  message: (retryAfterSeconds: number) => string;
}

/** Longest window a limit may have: older rows are pruned. */
const KEEP_MS = 24 * 3600_000;

/** A key part that names a person's address without storing it (a phone or an e-mail of anyone). */
export const keyDigest = (value: string) => createHash('sha256').update(`rate-limit:${value}`).digest('base64url').slice(0, 32);

/** «45 с» / «3 хв»: how long to wait, for a 429's message. */
export const waitText = (seconds: number) => (seconds < 90 ? `${seconds} с` : `${Math.ceil(seconds / 60)} хв`);

/**
 * Counts one request against every limit, or refuses it: 429 with the first exceeded limit's
 * message and `Retry-After`, counting nothing. The counts live in the database, so a limit holds
 * across processes; two requests racing each other may both pass the last free place.
 */
export async function takeRateLimit(db: Db, limits: Limit[], now = Date.now()): Promise<void> {
  for (const l of limits) {
    if (l.windowMs > KEEP_MS) throw new Error(`rate limit window of ${l.key} is longer than a day`);
    const recent = await db
      .select({ at: rateLimitHits.at })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.key, l.key), gt(rateLimitHits.at, new Date(now - l.windowMs))))
      .orderBy(desc(rateLimitHits.at))
      .limit(l.limit);
    if (recent.length >= l.limit) {
      const oldest = recent[recent.length - 1].at.getTime();
      const wait = Math.max(1, Math.ceil((oldest + l.windowMs - now) / 1000));
      throw new HttpError(429, l.message(wait), undefined, { 'Retry-After': String(wait) });
    }
  }
  const keys = [...new Set(limits.map((l) => l.key))];
  await db.insert(rateLimitHits).values(keys.map((key) => ({ key, at: new Date(now) })));
  // A bounded piece of upkeep per request: rows past every window go away.
  const stale = db
    .select({ id: rateLimitHits.id })
    .from(rateLimitHits)
    .where(lt(rateLimitHits.at, new Date(now - KEEP_MS)))
    .limit(100);
  await db.delete(rateLimitHits).where(inArray(rateLimitHits.id, stale));
}

/** Resolves no sooner than `ms` after `started`: answers that did different work take alike long. */
export async function notBefore(started: number, ms: number): Promise<void> {
  const rest = ms - (Date.now() - started);
  if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
}
