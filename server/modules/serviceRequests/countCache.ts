import type { LiveBus } from '../../lib/live.ts';
import type { ListTotal } from '../../lib/pagination.ts';

/** How long a total may be reused at most: `overdue` changes with the clock, not only with writes. */
const TTL_MS = 10_000;
const MAX_PER_ORG = 500;

/**
 * Totals of the request list per organization and filter, so that paging through one filter does
 * not count 200,000 rows again for every page. Any change of a request in the organization — here
 * or, through the live bus (NOTIFY/LISTEN), in another process — drops that organization's totals.
 */
export class ListCountCache {
  private readonly byOrg = new Map<number, Map<string, { total: ListTotal; at: number }>>();
  private readonly watched = new Set<number>();

  constructor(private readonly live: LiveBus) {}

  get(organizationId: number, key: string): ListTotal | undefined {
    const hit = this.byOrg.get(organizationId)?.get(key);
    if (!hit || Date.now() - hit.at > TTL_MS) return undefined;
    return hit.total;
  }

  set(organizationId: number, key: string, total: ListTotal) {
    if (!this.watched.has(organizationId)) {
      this.watched.add(organizationId);
      this.live.subscribe(organizationId, (e) => {
        if (e.type === 'request') this.invalidate(organizationId);
      });
    }
    let totals = this.byOrg.get(organizationId);
    if (!totals) this.byOrg.set(organizationId, (totals = new Map()));
    if (totals.size >= MAX_PER_ORG) totals.delete(totals.keys().next().value!);
    totals.set(key, { total, at: Date.now() });
  }

  invalidate(organizationId: number) {
    this.byOrg.delete(organizationId);
  }
}
