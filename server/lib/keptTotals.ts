import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../db/index.ts';
import { keepNewest } from './keptStatements.ts';
import type { ListTotal } from './pagination.ts';
import type { SqlReads } from './sqlReads.ts';

/**
 * Totals kept between list calls (docs/architecture.md, "Kept totals").
 *
 * Counting a list's matching rows is most of a list call's work once an organization is large (a
 * complex of 10,000 members), and the count rarely changes between two pages. So a list keeps
 * the total it counted with the version of the tables the count reads: the sum of `n` over their
 * rows in `list_changes` for the organization (server/db/schema/listChanges.ts). Every statement
 * that writes one of those tables adds to that sum in its own transaction (migration 0025), and
 * the version is read in the list's own statement, in the same snapshot as its rows. A snapshot
 * taken later sees every write an earlier one saw, and each write adds at least 1, so an equal
 * sum means the same writes: the kept total is the count the statement would make. The count
 * is skipped only then (`case`), in that same statement.
 */

/** The tables whose writes are logged by their triggers (migration 0025). */
export const LOGGED_TABLES: ReadonlySet<string> = new Set([
  'advertisements',
  'announcements',
  'articles',
  'bills',
  'cameras',
  'complexes',
  'contact_groups',
  'contact_sections',
  'contacts',
  'discounts',
  'documents',
  'events',
  'house_types',
  'houses',
  'interviews',
  'media',
  'member_units',
  'members',
  'realty',
  'resident_roles',
  'residents',
  'service_request_types',
  'service_requests',
  'staff_departures',
  'staff_roles',
  'users',
  'vehicles',
  'votings',
  'announcement_complexes',
  'announcement_houses',
  'article_complexes',
  'article_houses',
  'discount_complexes',
  'discount_houses',
  'document_apartments',
  'document_complexes',
  'document_houses',
  'event_complexes',
  'event_houses',
  'interview_complexes',
  'interview_houses',
  'service_request_type_roles',
  'service_request_type_staff',
  'user_complexes',
  'settlements',
  'streets',
]);

/** Above this many change rows for one list's tables and organization, they are summed into one row per table. */
const COMPACT_ABOVE = 16;
/** Totals kept per list (each filter and scope its own), the oldest dropped first. */
const KEPT_MAX = 5_000;

const dialect = new PgDialect();

export interface KeptCount {
  /** The count's tables, as one array parameter. */
  tables: string[];
  organizationId: number;
  /** The count's SQL, parameters and organization: the kept total's key. */
  key: string;
}

/** The totals of one list, with the versions they were counted at. */
export class KeptTotals {
  private readonly kept = new Map<string, { total: ListTotal; version: string }>();
  private readonly compacting = new Set<string>();

  /**
   * What the list's statement needs to check a kept total for this count (its SQL and
   * parameters are the key), or undefined when its total cannot be kept: the count reads a
   * table whose writes are not logged, or the clock, or what it reads is not all known (`reads`,
   * what the list's plan names).
   */
  countOf(count: SQL, reads: SqlReads, organizationId: number): KeptCount | undefined {
    if (reads.clock || reads.opaque || reads.tables.some((table) => !LOGGED_TABLES.has(table))) return undefined;
    const query = dialect.sqlToQuery(count);
    return { tables: reads.tables, organizationId, key: `${organizationId}\u0000${query.sql}\u0000${JSON.stringify(query.params)}` };
  }

  /** The total kept for the count, with the version it was counted at. */
  current(check: KeptCount): { total: ListTotal; version: string } | undefined {
    return this.kept.get(check.key);
  }

  keep(check: KeptCount, version: string, total: ListTotal) {
    keepNewest(this.kept, check.key, { total, version }, KEPT_MAX);
  }

  /**
   * After a call that read `rows` change rows: when there are many, sums them into one row per
   * table and organization (in the background, one at a time per list and organization). Readers
   * see the rows before or after, never a different sum.
   */
  compactAfter(db: Db, check: KeptCount, rows: number) {
    if (rows <= COMPACT_ABOVE) return;
    const running = `${check.organizationId}:${check.tables.join(',')}`;
    if (this.compacting.has(running)) return;
    this.compacting.add(running);
    compactChanges(db, check.tables, check.organizationId)
      .catch(() => undefined)
      .finally(() => this.compacting.delete(running));
  }
}

/** The statement's `with` entry that reads the version of the count's tables (`v`) and how many change rows make it (`rows`); nothing without a check. */
export const keptWith = (check: KeptCount | undefined): SQL =>
  check
    ? sql`list_version as (select coalesce(sum(n), 0)::text as v, count(*)::int as rows from list_changes
        where table_name = any(${sql.param(check.tables)}::text[]) and (organization_id = ${check.organizationId} or organization_id is null)), `
    : sql``;

/**
 * The columns of a page's statement whose total can be kept: the `version` of the count's tables
 * and how many change rows make it (`log_rows`), read in the page's snapshot; no `n`. The
 * caller compares the version with the kept one; the count itself is not in the statement
 * (`keptCountStatement`), since PostgreSQL would set it up on every call even when not run.
 */
export const keptVersionColumns = (): SQL => sql`(select v from list_version) as version, (select rows from list_version) as log_rows`;

/** The capped `count` (`n`) with the `version` of its tables, read in the same snapshot: a total to keep. */
export const keptCountStatement = (check: KeptCount, count: SQL): SQL =>
  sql`with ${keptWith(check)} counted as (select ${count} as n) select (select n from counted) as n, (select v from list_version) as version`;

/** Replaces the change rows of `tables` for the organization (and those for everyone) by one row per table holding their sum. */
export async function compactChanges(db: Db, tables: string[], organizationId: number) {
  await db.execute(sql`with gone as (
      delete from list_changes where table_name = any(${sql.param(tables)}::text[]) and (organization_id = ${organizationId} or organization_id is null)
      returning table_name, organization_id, n)
    insert into list_changes (table_name, organization_id, n) select table_name, organization_id, sum(n) from gone group by table_name, organization_id`);
}
