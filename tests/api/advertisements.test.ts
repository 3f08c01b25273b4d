import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complexes, houses } from '../../server/db/schema.ts';
import { ADMIN, API, createUser, expectErrorBody, expectFieldError, type TestApp, setupApp } from './helpers.ts';
import { multipartBody, PNG, SVG, type FormValue } from './multipart.ts';

let t: TestApp;
let admin: string;
let staff: string;
let dataDir: string;
let demo: { id: number; houseIds: number[] }[];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-ads-'));
  t = await setupApp({ env: { DATA_DIR: dataDir } });
  admin = await t.login(ADMIN.email, ADMIN.password);
  const rows = await t.db.select().from(complexes).where(eq(complexes.organizationId, t.organizationId)).orderBy(asc(complexes.id));
  demo = await Promise.all(
    rows.map(async (c) => ({
      id: c.id,
      houseIds: (await t.db.select({ id: houses.id }).from(houses).where(eq(houses.complexId, c.id)).orderBy(asc(houses.id))).map((h) => h.id),
    })),
  );
  const user = await createUser(t.db, {
    organizationId: t.organizationId,
    permissions: { advertisements: ['view', 'create', 'edit', 'delete'] },
    complexIds: [demo[0].id],
  });
  staff = await t.login(user.email, user.password);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const R = `${API}/advertisement`;
const send = async (method: 'POST' | 'PUT', url: string, fields: Record<string, FormValue | FormValue[]>, token = admin) =>
  t.call(method, url, { token, ...(await multipartBody(fields)) });
const createOk = async (fields: Record<string, FormValue> = {}, token = admin) => {
  const res = await send('POST', R, { name: 'Продам велосипед', desc: 'Майже новий, 26 дюймів.', house_id: demo[0].houseIds[0], ...fields }, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

describe('advertisements', () => {
  it('multipart create with an image, main_data list, item in data', async () => {
    const ad = await createOk({ image: { file: PNG, name: 'bike.png', type: 'image/png' } });
    expect(ad).toMatchObject({
      name: 'Продам велосипед',
      desc: 'Майже новий, 26 дюймів.',
      house_id: demo[0].houseIds[0],
      complex_id: demo[0].id,
      published: 0,
    });
    expect(ad.image).toMatch(/^\/api\/admin\/media\/[0-9a-f]{32}$/);
    const img = await t.call('GET', ad.image, { token: admin });
    expect(img.statusCode).toBe(200);
    expect(img.rawPayload).toEqual(PNG);
    expect(ad.address).toMatch(/Липова/);

    const list = (await t.call('GET', `${R}?page=1&search_query=${encodeURIComponent('велосипед')}`, { token: admin })).json();
    expect(Object.keys(list)).toEqual(['main_data']);
    expect(list.main_data.data.map((a: { id: number }) => a.id)).toContain(ad.id);
    expect(list.main_data.current_page).toBe(1);
    expect((await t.call('GET', `${R}/${ad.id}`, { token: admin })).json()).toEqual({ data: ad });
  });

  it('toggles published with POST /advertisement/{id} (multipart published 0/1)', async () => {
    const ad = await createOk();
    const on = await send('POST', `${R}/${ad.id}`, { published: 1 });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data.published).toBe(1);
    expect((await t.call('GET', `${R}?published=1&per_page=1000`, { token: admin })).json().main_data.data.map((a: { id: number }) => a.id)).toContain(ad.id);
    expect((await send('POST', `${R}/${ad.id}`, { published: '0' })).json().data.published).toBe(0);
    expectFieldError(await send('POST', `${R}/${ad.id}`, { published: 'так' }), 'published');
    expectFieldError(await send('POST', `${R}/${ad.id}`, {}), 'published');
    expectErrorBody(await t.call('POST', `${R}/${ad.id}`, { token: admin, body: { published: 1 } }), 415);
  });

  it('PUT multipart changes name and description; the image is optional, replaced or removed', async () => {
    const ad = await createOk({ image: { file: PNG, name: 'a.png' } });
    const kept = await send('PUT', `${R}/${ad.id}`, { name: 'Продам велосипед (знижка)', desc: '' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data).toMatchObject({ name: 'Продам велосипед (знижка)', desc: '', image_id: ad.image_id, house_id: ad.house_id });
    const replaced = (await send('PUT', `${R}/${ad.id}`, { name: 'x', image: { file: PNG, name: 'b.png' } })).json().data;
    expect(replaced.image_id).not.toBe(ad.image_id);
    const removed = (await send('PUT', `${R}/${ad.id}`, { name: 'x', remove_image: 1 })).json().data;
    expect(removed.image).toBeNull();
  });

  it('validates fields, the house and the file; nothing is stored on failure', async () => {
    const files = () => fs.readdirSync(t.config.uploadsDir).length;
    const before = files();
    expectFieldError(await send('POST', R, { name: '', house_id: demo[0].houseIds[0], image: { file: PNG, name: 'a.png' } }), 'name');
    expectFieldError(await send('POST', R, { name: 'x', house_id: 'abc' }), 'house_id');
    expectFieldError(await send('POST', R, { name: 'x', house_id: demo[1].houseIds[0], image: { file: PNG, name: 'a.png' } }, staff), 'house_id');
    expectErrorBody(await send('POST', R, { name: 'x', house_id: demo[0].houseIds[0], image: { file: SVG, name: 'a.svg' } }), 415);
    expect(files()).toBe(before);
    expectErrorBody(await t.call('POST', R, { token: admin, body: { name: 'x', house_id: demo[0].houseIds[0] } }), 415);
  });

  it('staff see and change only advertisements of their complexes; deleting', async () => {
    const mine = await createOk({}, staff);
    const other = await createOk({ house_id: demo[2].houseIds[0] });
    const ids = (await t.call('GET', `${R}?per_page=1000`, { token: staff })).json().main_data.data.map((a: { id: number }) => a.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(other.id);
    expectErrorBody(await t.call('GET', `${R}/${other.id}`, { token: staff }), 404);
    expectErrorBody(await send('POST', `${R}/${other.id}`, { published: 1 }, staff), 404);
    expectErrorBody(await send('PUT', `${R}/${other.id}`, { name: 'x' }, staff), 404);
    expectErrorBody(await t.call('DELETE', `${R}/${other.id}`, { token: staff }), 404);
    expect((await t.call('DELETE', `${R}/${mine.id}`, { token: staff })).json()).toEqual({ message: 'Оголошення видалено.' });
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { advertisements: ['view'] }, complexIds: [demo[0].id] });
    const token = await t.login(viewer.email, viewer.password);
    expectErrorBody(await send('POST', `${R}/${other.id}`, { published: 1 }, token), 403);
  });
});
