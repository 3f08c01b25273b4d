import type { FastifyRequest } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { HttpError } from './errors.ts';

/**
 * Optimistic concurrency for edits: a client that read a record sends its `updated_at` back in
 * the `If-Match` header (`If-Match: "2026-11-22T10:15:30.123Z"`, quotes optional). The update
 * only happens while the row still has that version; otherwise the answer is 409 and nothing is
 * written. A request without the header updates unconditionally, as before.
 */
export const STALE_MESSAGE = 'Запис змінив інший користувач. Оновіть сторінку й повторіть.';

export const staleRecord = () => new HttpError(409, STALE_MESSAGE);

/** The version the client read, from `If-Match`; undefined when absent or `*`. */
export function expectedVersion(request: Pick<FastifyRequest, 'headers'>): Date | undefined {
  const raw = request.headers['if-match'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value || value === '*') return undefined;
  const unquoted = value.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
  const date = /^\d{4}-\d\d-\d\dT/.test(unquoted) ? new Date(unquoted) : new Date(NaN);
  if (Number.isNaN(date.getTime())) {
    throw new HttpError(400, 'Заголовок If-Match має містити updated_at запису, як його повернув сервер.');
  }
  return date;
}

/**
 * The WHERE condition "the row still has the version the client read" (undefined without a
 * version, so `and(...)` drops it). Versions are compared to the millisecond, as records show them.
 */
export function versionMatches(column: PgColumn, expected: Date | undefined): SQL | undefined {
  if (!expected) return undefined;
  return sql`date_trunc('milliseconds', ${column}) = ${expected.toISOString()}::timestamptz`;
}

/**
 * The new `updated_at` of a changed row, computed by the database: now, but always at least a
 * millisecond after the version it replaces, so a concurrent writer holding the old version
 * never matches again (even with clocks that differ between API processes).
 */
export function nextVersion(column: PgColumn): SQL<Date> {
  return sql<Date>`greatest(clock_timestamp(), ${column} + interval '1 millisecond')`;
}

/** For a row already read and locked (SELECT … FOR UPDATE): 409 unless it has the version the client read. */
export function assertVersion(current: Date, expected: Date | undefined): void {
  if (expected && Math.floor(current.getTime()) !== expected.getTime()) throw staleRecord();
}
