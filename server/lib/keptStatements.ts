import type { CurrentUser } from './auth.ts';

/** Sets `key` in `map` as its newest entry, first dropping the oldest when it already holds `max`. */
export function keepNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/**
 * Statements built and rendered once per key and kept (docs/architecture.md, "Lists in one
 * statement"): a hot route whose statement text depends only on the user and the query builds
 * it with Drizzle on the first call and then only fills its placeholders. A build that may have
 * read the database (or the clock outside SQL) clears `built.pure`: its statement is answered
 * but not kept, so the next call builds it again.
 */
export class KeptStatements<V> {
  private readonly kept = new Map<string, V>();

  /** At most `max` statements, the oldest dropped first. */
  constructor(private readonly max: number) {}

  async get(key: string, build: (built: { pure: boolean }) => Promise<V>): Promise<V> {
    const hit = this.kept.get(key);
    if (hit !== undefined) return hit;
    const built = { pure: true };
    const value = await build(built);
    if (built.pure) keepNewest(this.kept, key, value, this.max);
    return value;
  }
}

const userKeys = new WeakMap<CurrentUser, string>();
const rightsKeys = new WeakMap<CurrentUser, string>();
/** Each distinct user description's short name (`userKey`, `rightsKey`), so that keys built on it stay short. */
const shortNames = new Map<string, string>();
/** Descriptions named at most (an admin's is about 1 KB): past it the names start again, never reused. */
const SHORT_NAMES_MAX = 10_000;
let named = 0;

/** The short name of a description, worked out once per user object (a confirmed session keeps its user: server/lib/auth.ts). */
function shortName(cache: WeakMap<CurrentUser, string>, user: CurrentUser, describe: (user: CurrentUser) => unknown[]): string {
  let key = cache.get(user);
  if (key === undefined) {
    const described = JSON.stringify(describe(user));
    key = shortNames.get(described);
    if (key === undefined) {
      // Names are never reused: a description named again after the clearing gets a new one.
      if (shortNames.size >= SHORT_NAMES_MAX) shortNames.clear();
      shortNames.set(described, (key = `u${(named += 1)}`));
    }
    cache.set(user, key);
  }
  return key;
}

/**
 * The user's part of a kept statement's key: everything of them a statement may depend on (who,
 * which organization, admin or not, rights, complexes), as a short name given to that description
 * (an admin's rights alone are 800 characters, hashed again in every key built on them).
 */
export const userKey = (user: CurrentUser): string =>
  shortName(userKeys, user, ({ id, organizationId, isAdmin, rules, complexIds }) => ['user', id, organizationId, isAdmin, rules, complexIds]);

/**
 * The same without who the user is: what a part shared by users of the same organization, admin
 * flag, rights and complexes may depend on (server/crud/rendered.ts).
 */
export const rightsKey = (user: CurrentUser): string =>
  shortName(rightsKeys, user, ({ organizationId, isAdmin, rules, complexIds }) => ['rights', organizationId, isAdmin, rules, complexIds]);
