import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceRequests } from '../../server/db/schema.ts';
import { ADMIN, API, createComplex, createUser, expectFieldError, setupApp, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

const get = (q = '', token = admin) => t.call('GET', `${API}/dashboard${q}`, { token });

describe('GET /dashboard', () => {
  it('counts the organization’s requests by stage, with 14 days of new requests', async () => {
    const res = await get();
    expect(res.statusCode, res.body).toBe(200);
    const { requests, votings, messages, bills } = res.json().data;
    const [{ n }] = await t.db.select({ n: count() }).from(serviceRequests).where(eq(serviceRequests.organizationId, t.organizationId));
    expect(n).toBeGreaterThan(0);
    const stages = requests.by_stage as Record<string, number>;
    expect(Object.values(stages).reduce((a, b) => a + b, 0)).toBe(n);
    expect(requests.open).toBe(stages.new + stages.underReview + stages.executor);
    expect(requests.per_day).toHaveLength(14);
    expect(Array.isArray(votings)).toBe(true);
    // The demo survey is active and has answers.
    expect(res.json().data.surveys.length).toBeGreaterThan(0);
    expect(res.json().data.surveys[0].answers).toBeGreaterThan(0);
    expect(Array.isArray(messages)).toBe(true);
    // The demo charges: the latest month with charges, some of it paid.
    expect(bills.charged).toBeGreaterThan(0);
    expect(bills.collected).toBeLessThanOrEqual(bills.charged);
  });

  it('narrows every tile to the chosen complex', async () => {
    const empty = await createComplex(t.db, { organizationId: t.organizationId });
    const { data } = (await get(`?complex_id=${empty.id}`)).json();
    expect(data.requests.open).toBe(0);
    expect(data.requests.per_day.every((d: { count: number }) => d.count === 0)).toBe(true);
    expect(data.votings).toEqual([]);
    expect(data.surveys).toEqual([]);
    expect(data.messages).toEqual([]);
    expect(data.bills).toMatchObject({ charged: 0, collected: 0 });
  });

  it('leaves out the tiles a role may not view, and another complex’s figures', async () => {
    const mine = await createComplex(t.db, { organizationId: t.organizationId });
    const clerk = await createUser(t.db, { organizationId: t.organizationId, permissions: { complexes: ['view'] }, complexIds: [mine.id] });
    const { data } = (await get('', await t.login(clerk.email, clerk.password))).json();
    expect(data).toEqual({ requests: null, votings: null, surveys: null, messages: null, bills: null });

    const dispatcher = await createUser(t.db, {
      organizationId: t.organizationId,
      permissions: { service_requests: ['view'], votings: ['view'] },
      complexIds: [mine.id],
    });
    const scoped = (await get('', await t.login(dispatcher.email, dispatcher.password))).json().data;
    expect(scoped.requests.open).toBe(0);
    expect(scoped.bills).toBeNull();
  });

  it('refuses a bad complex id with 422', async () => {
    expectFieldError(await get('?complex_id=abc'), 'complex_id');
  });
});
