import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, createComplex, createRole, createUser, setupApp, uid, type TestApp } from '../api/helpers.ts';

/**
 * A list's records and the keys beside them are built in SQL once for each description of the
 * user and kept (docs/security.md, "List statements kept between calls"). Two staff members of the same
 * organization and the same complexes but with different rights must each get an answer built
 * for their own rights, in whichever order they ask: the staff list's `can_manage` and the form's
 * roles compare every role with the viewer's rights, so an answer rendered for the stronger one
 * and handed to the weaker one would let the weaker one believe they manage a stronger colleague
 * and show them roles they may not hand out.
 */
let t: TestApp;

beforeAll(async () => {
  t = await setupApp();
});
afterAll(() => t?.close());

/**
 * A complex of its own (what is kept is told apart by organization, complexes and rights, so a
 * new complex starts with nothing kept), two staff members of it with the same rights over staff,
 * the strong one also with requests, and a colleague whose role has requests only.
 */
async function world() {
  const complex = await createComplex(t.db, { organizationId: t.organizationId });
  const login = async (permissions: Parameters<typeof createRole>[2]) => {
    const u = await createUser(t.db, { organizationId: t.organizationId, permissions, complexIds: [complex.id] });
    return t.login(u.email, u.password);
  };
  const strong = await login({ staff: ['view', 'edit'], service_requests: ['view'] });
  const weak = await login({ staff: ['view', 'edit'] });
  const requestsRole = (await createRole(t.db, t.organizationId, { service_requests: ['view'] })).id;
  const name = `Колега ${uid()}`;
  const colleague = await createUser(t.db, { organizationId: t.organizationId, name, roleId: requestsRole, complexIds: [complex.id] });
  return { strong, weak, requestsRole, colleague: { id: colleague.id, name } };
}

type StaffList = { data: { data: { id: number; can_manage: boolean }[] }; form: { roles: { id: number }[] } };

async function staffList(token: string, name: string): Promise<StaffList> {
  const res = await t.call('GET', `${API}/staff?search_query=${encodeURIComponent(name)}`, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('kept list SQL follows the viewer’s rights, not only their organization and complexes', () => {
  for (const order of [
    ['strong', 'weak'],
    ['weak', 'strong'],
  ] as const) {
    it(`answers each viewer for their own rights (${order.join(' first, then ')})`, async () => {
      const { strong, weak, requestsRole, colleague } = await world();
      for (const who of [...order, ...order]) {
        const list = await staffList(who === 'strong' ? strong : weak, colleague.name);
        const row = list.data.data.find((r) => r.id === colleague.id);
        expect(row, who).toBeDefined();
        expect(row!.can_manage, who).toBe(who === 'strong');
        expect(
          list.form.roles.some((r) => r.id === requestsRole),
          who,
        ).toBe(who === 'strong');
      }
    });
  }
});
