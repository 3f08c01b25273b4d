import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complexes, houses } from '../../server/db/schema.ts';
import { ADMIN, API, createUser, expectErrorBody, expectFieldError, type TestApp, setupApp } from './helpers.ts';
import { multipartBody, PNG } from './multipart.ts';

let t: TestApp;
let admin: string;
/** A staff user with every community permission, working in the first demo complex only. */
let staff: string;
let demo: { id: number; houseIds: number[] }[];
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-ann-'));
  t = await setupApp({ env: { DATA_DIR: dataDir } });
  admin = await t.login(ADMIN.email, ADMIN.password);
  const rows = await t.db.select().from(complexes).where(eq(complexes.organizationId, t.organizationId)).orderBy(asc(complexes.id));
  demo = await Promise.all(
    rows.map(async (c) => ({
      id: c.id,
      houseIds: (await t.db.select({ id: houses.id }).from(houses).where(eq(houses.complexId, c.id)).orderBy(asc(houses.id))).map((h) => h.id),
    })),
  );
  const all = ['view', 'create', 'edit', 'delete'] as const;
  const user = await createUser(t.db, {
    organizationId: t.organizationId,
    permissions: { announcements: [...all], events: [...all] },
    complexIds: [demo[0].id],
  });
  staff = await t.login(user.email, user.password);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const day = 24 * 3600 * 1000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe('announcements', () => {
  const R = `${API}/announcements`;
  const base = () => ({
    title: 'Повірка лічильників',
    body: 'Просимо забезпечити доступ до квартир.',
    valid_from: iso(-day),
    valid_until: iso(day),
    complex_ids: [demo[0].id],
  });
  const create = (body: unknown, token = admin) => t.call('POST', R, { token, body });
  const ids = async (query: string, token = admin) => {
    const res = await t.call('GET', `${R}${query}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as { id: number }[]).map((r) => r.id);
  };

  it('JSON create, data-plus-pagination list, read, PUT update and delete', async () => {
    const res = await create(base());
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json().data;
    expect(created).toMatchObject({ title: 'Повірка лічильників', state: 'active', complex_ids: [demo[0].id], house_ids: [], author: 'Адміністратор' });
    const list = (await t.call('GET', `${R}?per_page=5`, { token: admin })).json();
    expect(Object.keys(list).sort()).toEqual(['data', 'pagination']);
    expect(Object.keys(list.pagination).sort()).toEqual(['current_page', 'from', 'last_page', 'per_page', 'to', 'total']);
    expect((await t.call('GET', `${R}/${created.id}`, { token: admin })).json()).toEqual({ data: created });
    const put = await t.call('PUT', `${R}/${created.id}`, { token: admin, body: { ...base(), title: 'Повірка перенесена', valid_until: null } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ title: 'Повірка перенесена', valid_until: null, state: 'active' });
    expect((await t.call('DELETE', `${R}/${created.id}`, { token: admin })).json()).toEqual({ message: 'Оголошення видалено.' });
    expectErrorBody(await t.call('GET', `${R}/${created.id}`, { token: admin }), 404);
  });

  it('derives the state from the validity period and filters by it', async () => {
    const upcoming = (await create({ ...base(), valid_from: iso(day), valid_until: iso(2 * day) })).json().data;
    const expired = (await create({ ...base(), valid_from: iso(-3 * day), valid_until: iso(-day) })).json().data;
    expect(upcoming.state).toBe('upcoming');
    expect(expired.state).toBe('expired');
    expect(await ids('?state=upcoming&per_page=1000')).toContain(upcoming.id);
    expect(await ids('?state=active&per_page=1000')).not.toContain(upcoming.id);
    expect(await ids('?state=expired&per_page=1000')).toContain(expired.id);
  });

  it('validates dates, text and audience', async () => {
    expectFieldError(await create({ ...base(), valid_until: iso(-2 * day) }), 'valid_until');
    expectFieldError(await create({ ...base(), valid_from: '31.12.2026' }), 'valid_from');
    expectFieldError(await create({ ...base(), body: '' }), 'body');
    expectFieldError(await create({ ...base(), complex_ids: [demo[1].id] }, staff), 'complex_ids');
    expectFieldError(await create({ ...base(), house_ids: [demo[1].houseIds[0]] }), 'house_ids');
    expectFieldError(await t.call('GET', `${R}?state=soon`, { token: admin }), 'state');
    const { raw, contentType } = await multipartBody({ title: 'x' });
    expectErrorBody(await t.call('POST', R, { token: admin, raw, contentType }), 415);
  });

  it('keeps staff inside their complexes and filters by the header selection', async () => {
    const mine = (await create(base(), staff)).json().data;
    const other = (await create({ ...base(), complex_ids: [demo[1].id] })).json().data;
    const forHouse = (await create({ ...base(), complex_ids: [demo[1].id], house_ids: [demo[1].houseIds[1]] })).json().data;
    expect(await ids('?per_page=1000', staff)).toContain(mine.id);
    expect(await ids('?per_page=1000', staff)).not.toContain(other.id);
    expectErrorBody(await t.call('GET', `${R}/${other.id}`, { token: staff }), 404);
    expectErrorBody(await t.call('PUT', `${R}/${other.id}`, { token: staff, body: base() }), 404);
    expectErrorBody(await t.call('DELETE', `${R}/${other.id}`, { token: staff }), 404);
    const filtered = await ids(`?complex_id=${demo[1].id}&house_ids[]=${demo[1].houseIds[0]}&per_page=1000`);
    expect(filtered).toContain(other.id);
    expect(filtered).not.toContain(forHouse.id);
    expect(filtered).not.toContain(mine.id);
  });
});

describe('events', () => {
  const R = `${API}/events`;
  const base = () => ({
    title: 'Дитяче свято у дворі',
    description: 'Аніматори, батут і морозиво.',
    place: 'Дитячий майданчик',
    starts_at: iso(2 * day),
    ends_at: iso(2 * day + 3 * 3600 * 1000),
    complex_ids: [demo[0].id],
  });
  const create = (body: unknown, token = admin) => t.call('POST', R, { token, body });

  it('JSON create with a picture, list in data plus pagination, PUT update, delete', async () => {
    const image = (await t.call('POST', `${API}/media`, { token: admin, ...(await multipartBody({ file: { file: PNG, name: 'poster.png' } })) })).json().data;
    const res = await create({ ...base(), image_id: image.id });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json().data;
    expect(created).toMatchObject({ title: 'Дитяче свято у дворі', place: 'Дитячий майданчик', state: 'upcoming', image_url: image.url });
    const list = (await t.call('GET', `${R}?search_query=${encodeURIComponent('майданчик')}`, { token: admin })).json();
    expect(list.data.map((e: { id: number }) => e.id)).toContain(created.id);
    expect(list.pagination.total).toBeGreaterThan(0);
    const put = await t.call('PUT', `${R}/${created.id}`, { token: admin, body: { ...base(), starts_at: iso(-3600 * 1000), ends_at: null } });
    expect(put.json().data).toMatchObject({ state: 'ongoing', image_id: null, ends_at: null });
    expect((await t.call('DELETE', `${R}/${created.id}`, { token: admin })).json()).toEqual({ message: 'Захід видалено.' });
  });

  it('validates the time, the place and the audience', async () => {
    expectFieldError(await create({ ...base(), ends_at: iso(day) }), 'ends_at');
    expectFieldError(await create({ ...base(), place: '' }), 'place');
    expectFieldError(await create({ ...base(), image_id: 999999 }), 'image_id');
    expectFieldError(await create({ ...base(), complex_ids: [demo[2].id] }, staff), 'complex_ids');
  });

  it('filters by state and by the header selection; staff see only their complexes', async () => {
    const past = (await create({ ...base(), starts_at: iso(-3 * day), ends_at: iso(-3 * day + 3600 * 1000) })).json().data;
    const elsewhere = (await create({ ...base(), complex_ids: [demo[3].id] })).json().data;
    expect(past.state).toBe('past');
    const pastIds = (await t.call('GET', `${R}?state=past&per_page=1000`, { token: admin })).json().data.map((e: { id: number }) => e.id);
    expect(pastIds).toContain(past.id);
    const inFirst = (await t.call('GET', `${R}?complex_id=${demo[0].id}&per_page=1000`, { token: admin })).json().data.map((e: { id: number }) => e.id);
    expect(inFirst).toContain(past.id);
    expect(inFirst).not.toContain(elsewhere.id);
    expectErrorBody(await t.call('GET', `${R}/${elsewhere.id}`, { token: staff }), 404);
  });
});
