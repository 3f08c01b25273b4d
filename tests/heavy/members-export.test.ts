import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, createOrganization, createUser, type TestApp, setupApp } from '../api/helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await setupApp();
});
afterAll(() => t?.close());

const E = `${API}/members/export`;

describe('members export', () => {
  it('exports 100,000 members of an organization completely', async () => {
    const org = await createOrganization(t.db);
    const owner = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    await t.db.execute(sql`insert into members (organization_id, name, phone, email)
      select ${org.id}, 'Мешканець ' || g, '+38067' || lpad(g::text, 7, '0'), 'm' || g || '@ukr.net' from generate_series(1, 100000) g`);
    const token = await t.login(owner.email, owner.password);
    const res = await t.call('GET', `${E}?format=csv`, { token });
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split('\n');
    expect(lines).toHaveLength(100_001);
    // Phones start with «+»: the CSV writes them with a leading quote, so no spreadsheet takes them for a formula.
    expect(lines[1]).toContain("Мешканець 1;'+380670000001;m1@ukr.net");
    expect(lines[100_000]).toContain("Мешканець 100000;'+380670100000;m100000@ukr.net");

    // The list of so many counts no further than 10,000 and says its total is an estimate.
    await t.db.execute(sql`analyze members`);
    const list = await t.call('GET', `${API}/members?per_page=25`, { token });
    expect(list.statusCode, list.body).toBe(200);
    const { pagination } = list.json() as { pagination: { total: number; estimated?: boolean; to: number } };
    expect(pagination.estimated).toBe(true);
    expect(pagination.total).toBeGreaterThan(10_000);
    expect(pagination.to).toBe(25);
    // A filter matching fewer rows is counted exactly, without the flag.
    const few = (await t.call('GET', `${API}/members?per_page=25&search_query=m99999%40`, { token })).json() as {
      pagination: { total: number; estimated?: boolean };
    };
    expect(few.pagination).toMatchObject({ total: 1 });
    expect(few.pagination.estimated).toBeUndefined();
  });
});
