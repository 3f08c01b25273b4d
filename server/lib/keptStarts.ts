import type { CurrentUser } from './auth.ts';
import { keepNewest, userKey } from './keptStatements.ts';

/**
 * Where a list's pages begin, kept between calls (docs/architecture.md, "Kept page starts").
 *
 * A page far from the start walks every row before it (page 200 of a complex's members: 5,000
 * index entries). Once a page has been answered, the statement that answered it also tells the sort
 * key of its first row and of its last one, read in its own snapshot with the version of the
 * tables it reads (server/lib/keptTotals.ts). The same page asked again, or the next one, while
 * that version holds (checked in the list's own statement, in the same snapshot as its rows),
 * starts at that key on the index and reads only the page. An equal version means no write to
 * those tables since, so the key stands where it stood: the page is the one the offset would give.
 */

/** The placeholders of a kept start in a list's statement: the version it was read at, its key and id. */
export const START_VERSION = 'start_version';
export const START_KEY = 'start_key';
export const START_ID = 'start_id';

/** Page starts kept per list (each user and query its own), the oldest dropped first. */
const KEPT_MAX = 5_000;

interface PageStart {
  version: string;
  key: string;
  id: number;
}

/** A list page's query as the key of its start: the user and every parameter, the page included. */
const keyOf = (user: CurrentUser, q: { page: number }, page: number) => `${userKey(user)}\u0000${JSON.stringify({ ...q, page })}`;

/** The values of a statement's start placeholders: none kept is a version no statement reads (''), so it walks the offset. */
export const startValues = (start: PageStart | undefined): Record<string, unknown> => ({
  [START_VERSION]: start?.version ?? '',
  [START_KEY]: start?.key ?? '',
  [START_ID]: start?.id ?? 0,
});

/** `[key, id]` as the statement wrote it, or undefined (an empty page, or not that shape). */
function parseKey(json: string | null): { key: string; id: number } | undefined {
  if (json === null) return undefined;
  const value: unknown = JSON.parse(json);
  if (!Array.isArray(value) || typeof value[0] !== 'string' || !Number.isSafeInteger(value[1])) return undefined;
  return { key: value[0], id: value[1] as number };
}

export class KeptStarts {
  private readonly kept = new Map<string, PageStart>();

  /** The kept start of this page for this user, with the version it was read at. */
  current(user: CurrentUser, q: { page: number }): PageStart | undefined {
    return this.kept.get(keyOf(user, q, q.page));
  }

  /**
   * After a page was answered at `version`: it begins at its first row's key, and the next page
   * just after its last row (the same key and the next id in the order: ids are integers).
   */
  keepAfter(user: CurrentUser, q: { page: number }, version: string, first: string | null, last: string | null, step: 1 | -1) {
    const begins = parseKey(first);
    const ends = parseKey(last);
    if (!begins || !ends) return;
    keepNewest(this.kept, keyOf(user, q, q.page), { version, ...begins }, KEPT_MAX);
    keepNewest(this.kept, keyOf(user, q, q.page + 1), { version, key: ends.key, id: ends.id + step }, KEPT_MAX);
  }
}
