import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complexes, houses } from '../../server/db/schema.ts';
import { ADMIN, API, createUser, expectErrorBody, expectFieldError, type TestApp, setupApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let staff: string;
let demo: { id: number; houseIds: number[] }[];

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const rows = await t.db.select().from(complexes).where(eq(complexes.organizationId, t.organizationId)).orderBy(asc(complexes.id));
  demo = await Promise.all(
    rows.map(async (c) => ({
      id: c.id,
      houseIds: (await t.db.select({ id: houses.id }).from(houses).where(eq(houses.complexId, c.id)).orderBy(asc(houses.id))).map((h) => h.id),
    })),
  );
  const all = ['view', 'create', 'edit', 'delete'] as const;
  const user = await createUser(t.db, { organizationId: t.organizationId, permissions: { discounts: [...all], cameras: [...all] }, complexIds: [demo[0].id] });
  staff = await t.login(user.email, user.password);
});
afterAll(() => t?.close());

describe('discounts', () => {
  const R = `${API}/discounts`;
  const base = () => ({
    partner: 'Кав’ярня «Зерно»',
    title: 'Знижка на каву',
    percent: '15',
    phone: '067 123 45 67',
    link: 'https://zerno.ua',
    complex_ids: [demo[0].id],
  });

  it('CRUD with JSON, data plus pagination, normalised phone, expiry', async () => {
    const res = await t.call('POST', R, { token: admin, body: base() });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ partner: 'Кав’ярня «Зерно»', percent: 15, phone: '+380671234567', expired: false, complex_ids: [demo[0].id] });
    const list = (await t.call('GET', `${R}?active=1&per_page=100`, { token: admin })).json();
    expect(list.data.map((x: { id: number }) => x.id)).toContain(d.id);
    expect(list.pagination.total).toBeGreaterThan(0);
    const put = (await t.call('PUT', `${R}/${d.id}`, { token: admin, body: { ...base(), valid_until: '2024-01-01T00:00:00Z', percent: null } })).json().data;
    expect(put).toMatchObject({ expired: true, percent: null });
    expect((await t.call('GET', `${R}?active=0&per_page=100`, { token: admin })).json().data.map((x: { id: number }) => x.id)).toContain(d.id);
    expect((await t.call('DELETE', `${R}/${d.id}`, { token: admin })).json()).toEqual({ message: 'Знижку видалено.' });
  });

  it('validates the offer and keeps staff in their complexes', async () => {
    expectFieldError(await t.call('POST', R, { token: admin, body: { ...base(), percent: 150 } }), 'percent');
    expectFieldError(await t.call('POST', R, { token: admin, body: { ...base(), link: 'javascript:alert(1)' } }), 'link');
    expectFieldError(await t.call('POST', R, { token: admin, body: { ...base(), phone: '123' } }), 'phone');
    expectFieldError(await t.call('POST', R, { token: staff, body: { ...base(), complex_ids: [demo[1].id] } }), 'complex_ids');
    const other = (await t.call('POST', R, { token: admin, body: { ...base(), complex_ids: [demo[1].id] } })).json().data;
    expectErrorBody(await t.call('GET', `${R}/${other.id}`, { token: staff }), 404);
  });
});

describe('security cameras', () => {
  const R = `${API}/cameras`;
  it('are served by a second app of the same process too (a plain declared entity is built once, registered in each)', async () => {
    const second = await setupApp();
    try {
      const res = await second.call('GET', R, { token: await second.login(ADMIN.email, ADMIN.password) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ data: expect.any(Array) });
    } finally {
      await second.close();
    }
  });
  const base = () => ({
    house_id: demo[0].houseIds[0],
    name: 'Вхід до під’їзду',
    place: 'Над дверима',
    stream_url: 'rtsp://10.0.0.5:554/stream1',
    snapshot_url: 'https://cam.zatyshok.ua/1.jpg',
  });

  it('CRUD with JSON and data plus pagination', async () => {
    const res = await t.call('POST', R, { token: admin, body: base() });
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json().data;
    expect(c).toMatchObject({ name: 'Вхід до під’їзду', complex_id: demo[0].id, stream_url: 'rtsp://10.0.0.5:554/stream1' });
    expect(c.address).toMatch(/Липова/);
    const list = (await t.call('GET', `${R}?house_id=${demo[0].houseIds[0]}`, { token: admin })).json();
    expect(list.data.map((x: { id: number }) => x.id)).toContain(c.id);
    const put = (await t.call('PUT', `${R}/${c.id}`, { token: admin, body: { ...base(), stream_url: '', name: 'Паркінг' } })).json().data;
    expect(put).toMatchObject({ name: 'Паркінг', stream_url: null });
    expect((await t.call('DELETE', `${R}/${c.id}`, { token: admin })).json()).toEqual({ message: 'Камеру видалено.' });
  });

  it('validates addresses and the house; staff see cameras of their complexes only', async () => {
    expectFieldError(await t.call('POST', R, { token: admin, body: { ...base(), stream_url: '', snapshot_url: '' } }), 'stream_url');
    expectFieldError(await t.call('POST', R, { token: admin, body: { ...base(), snapshot_url: 'rtsp://x/1.jpg' } }), 'snapshot_url');
    expectFieldError(await t.call('POST', R, { token: admin, body: { ...base(), stream_url: 'javascript:alert(1)' } }), 'stream_url');
    expectFieldError(await t.call('POST', R, { token: staff, body: { ...base(), house_id: demo[1].houseIds[0] } }), 'house_id');
    const other = (await t.call('POST', R, { token: admin, body: { ...base(), house_id: demo[1].houseIds[0] } })).json().data;
    expectErrorBody(await t.call('GET', `${R}/${other.id}`, { token: staff }), 404);
    expect((await t.call('GET', `${R}?per_page=1000`, { token: staff })).json().data.map((x: { id: number }) => x.id)).not.toContain(other.id);
  });
});
