/**
 * The user's part of the keys of kept statements and page starts (`userKey`,
 * server/lib/keptStatements.ts) is a short name given to everything of the user a statement may
 * depend on. Two users, or one user with other rights or complexes, must never share a name, or
 * one would be answered from a statement built for the other.
 */
import { describe, expect, it } from 'vitest';
import { FULL_RULES } from '../../contract/permissions.ts';
import type { CurrentUser } from '../../server/lib/auth.ts';
import { userKey } from '../../server/lib/keptStatements.ts';

const admin = (over: Partial<CurrentUser> = {}): CurrentUser => ({
  id: 1,
  organizationId: 1,
  tokenId: 1,
  isAdmin: true,
  mustChangePassword: false,
  rules: FULL_RULES,
  complexIds: null,
  ...over,
});

describe('userKey', () => {
  it('names the same description the same, whatever the session or object', () => {
    expect(userKey(admin({ tokenId: 2 }))).toBe(userKey(admin({ tokenId: 3 })));
    expect(userKey(admin()).length).toBeLessThan(12);
  });

  it('names every difference a statement may depend on differently', () => {
    const staff = admin({ isAdmin: false, rules: { members: ['view'] }, complexIds: [1] });
    const names = (
      [
        admin(),
        admin({ id: 2 }),
        admin({ organizationId: 2 }),
        admin({ isAdmin: false }),
        staff,
        admin({ ...staff, rules: { members: ['view', 'edit'] } }),
        admin({ ...staff, complexIds: [1, 2] }),
        admin({ ...staff, complexIds: [] }),
      ] satisfies CurrentUser[]
    ).map((u) => userKey(u));
    expect(new Set(names).size).toBe(names.length);
  });

  it('never gives a name twice, also after it has named more descriptions than it keeps', () => {
    const first = userKey(admin({ id: 500_000 }));
    const names = new Set<string>([first]);
    for (let id = 1; id <= 12_000; id += 1) names.add(userKey(admin({ id: 600_000 + id })));
    expect(names.size).toBe(12_001);
    // Named again after the names started over: a new name, not one of another user.
    const again = userKey(admin({ id: 500_000 }));
    expect(again).not.toBe(first);
    expect(names.has(again)).toBe(false);
  });
});
