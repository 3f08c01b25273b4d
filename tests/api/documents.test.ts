import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complexes, houses, media, realty } from '../../server/db/schema.ts';
import { ADMIN, API, createComplex, createOrganization, createUser, expectErrorBody, expectFieldError, type TestApp, setupApp } from './helpers.ts';
import { EXE, multipartBody, PDF, type FormValue } from './multipart.ts';

let t: TestApp;
let admin: string;
/** Staff with every documents permission, working in the first demo complex only. */
let staff: string;
let dataDir: string;
let demo: { id: number; houseIds: number[] }[];
let apartmentOf: (houseId: number) => Promise<number>;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-docs-'));
  t = await setupApp({ env: { DATA_DIR: dataDir } });
  admin = await t.login(ADMIN.email, ADMIN.password);
  const rows = await t.db.select().from(complexes).where(eq(complexes.organizationId, t.organizationId)).orderBy(asc(complexes.id));
  demo = await Promise.all(
    rows.map(async (c) => ({
      id: c.id,
      houseIds: (await t.db.select({ id: houses.id }).from(houses).where(eq(houses.complexId, c.id)).orderBy(asc(houses.id))).map((h) => h.id),
    })),
  );
  apartmentOf = async (houseId) =>
    (
      await t.db
        .select({ id: realty.id })
        .from(realty)
        .where(and(eq(realty.houseId, houseId), eq(realty.type, 'apartment')))
        .limit(1)
    )[0].id;
  const user = await createUser(t.db, {
    organizationId: t.organizationId,
    permissions: { documents: ['view', 'create', 'edit', 'delete'] },
    complexIds: [demo[0].id],
  });
  staff = await t.login(user.email, user.password);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const R = `${API}/documents`;
const send = async (method: 'POST' | 'PUT', url: string, fields: Record<string, FormValue | FormValue[]>, token = admin) =>
  t.call(method, url, { token, ...(await multipartBody(fields)) });
const pdf = (name = 'Кошторис 2026.pdf'): FormValue => ({ file: PDF, name, type: 'application/pdf' });
const storedFiles = () => fs.readdirSync(t.config.uploadsDir).length;

describe('documents', () => {
  it('multipart create for two houses, main_data list, item, authorised download', async () => {
    const [h1, h2] = demo[0].houseIds;
    const res = await send('POST', R, { name: 'Кошторис на 2026 рік', file: pdf(), 'houseIds[]': [h1, h2], is_public: 1 });
    expect(res.statusCode, res.body).toBe(200);
    const doc = res.json().data;
    expect(doc).toMatchObject({
      name: 'Кошторис на 2026 рік',
      file_name: 'Кошторис 2026.pdf',
      mime: 'application/pdf',
      size: PDF.length,
      is_public: true,
      houseIds: [h1, h2],
      complexIds: [],
      apartmentIds: [],
    });
    expect(doc.houses.map((h: { address: string }) => h.address).join()).toMatch(/Липова/);
    expect(doc.file_url).toBe(`/api/admin/documents/${doc.id}/file`);

    const list = (await t.call('GET', `${R}?search_query=${encodeURIComponent('Кошторис')}`, { token: admin })).json();
    expect(Object.keys(list)).toEqual(['main_data']);
    expect(list.main_data.data[0]).toEqual(doc);
    expect((await t.call('GET', `${R}/${doc.id}`, { token: admin })).json()).toEqual({ data: doc });

    const file = await t.call('GET', doc.file_url, { token: admin });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload).toEqual(PDF);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="[^"]+\.pdf"; filename\*=UTF-8''/);
    expect((await t.call('GET', doc.file_url, { token: staff })).statusCode).toBe(200);
    expectErrorBody(await t.call('GET', doc.file_url), 401);
  });

  it("another complex's document is 404 for staff, in the list, the item and the download", async () => {
    const foreign = (await send('POST', R, { name: 'Протокол Сонячної гавані', file: pdf(), 'complexIds[]': [demo[1].id] })).json().data;
    const viaApartment = (await send('POST', R, { name: 'Акт квартири', file: pdf(), 'apartmentIds[]': [await apartmentOf(demo[0].houseIds[0])] })).json().data;
    const ids = (await t.call('GET', `${R}?per_page=1000`, { token: staff })).json().main_data.data.map((d: { id: number }) => d.id);
    expect(ids).not.toContain(foreign.id);
    expect(ids).toContain(viaApartment.id);
    expectErrorBody(await t.call('GET', `${R}/${foreign.id}`, { token: staff }), 404);
    expectErrorBody(await t.call('GET', foreign.file_url, { token: staff }), 404);
    expectErrorBody(await send('PUT', `${R}/${foreign.id}`, { name: 'x', 'complexIds[]': [demo[0].id] }, staff), 404);
    expectErrorBody(await t.call('DELETE', `${R}/${foreign.id}`, { token: staff }), 404);
    // Another organization's admin does not see it either.
    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const token = await t.login(other.email, other.password);
    expectErrorBody(await t.call('GET', foreign.file_url, { token }), 404);
  });

  it('validates scopes against the user: out-of-reach complexes, houses and apartments are 422', async () => {
    const before = storedFiles();
    const stranger = await createComplex(t.db, { organizationId: (await createOrganization(t.db)).id });
    expectFieldError(await send('POST', R, { name: 'x', file: pdf(), 'complexIds[]': [stranger.id] }), 'complexIds');
    expectFieldError(await send('POST', R, { name: 'x', file: pdf(), 'complexIds[]': [demo[1].id] }, staff), 'complexIds');
    expectFieldError(await send('POST', R, { name: 'x', file: pdf(), 'houseIds[]': [demo[1].houseIds[0]] }, staff), 'houseIds');
    expectFieldError(await send('POST', R, { name: 'x', file: pdf(), 'apartmentIds[]': [await apartmentOf(demo[2].houseIds[0])] }, staff), 'apartmentIds');
    expectFieldError(await send('POST', R, { name: 'x', file: pdf(), 'houseIds[]': ['abc'] }), 'houseIds.0');
    expectFieldError(await send('POST', R, { name: 'x', file: pdf() }), 'complexIds');
    expectFieldError(await send('POST', R, { name: 'x', 'complexIds[]': [demo[0].id] }), 'file');
    expectFieldError(await send('POST', R, { name: '', file: pdf(), 'complexIds[]': [demo[0].id] }), 'name');
    expectFieldError(await send('POST', R, { name: 'x', file: pdf(), 'complexIds[]': [demo[0].id], is_public: 'так' }), 'is_public');
    expectErrorBody(await send('POST', R, { name: 'x', file: { file: EXE, name: 'virus.pdf' }, 'complexIds[]': [demo[0].id] }), 415);
    expectErrorBody(await t.call('POST', R, { token: admin, body: { name: 'x', complexIds: [demo[0].id] } }), 415);
    expect(storedFiles()).toBe(before);
  });

  it('PUT multipart changes name and scopes, keeps or replaces the file; DELETE removes the file', async () => {
    const doc = (await send('POST', R, { name: 'Правила', file: pdf('v1.pdf'), 'complexIds[]': [demo[0].id] }, staff)).json().data;
    const kept = await send(
      'PUT',
      `${R}/${doc.id}`,
      { name: 'Правила проживання', 'complexIds[]': [demo[0].id], 'houseIds[]': [demo[0].houseIds[1]], is_public: 0 },
      staff,
    );
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data).toMatchObject({ name: 'Правила проживання', file_name: 'v1.pdf', houseIds: [demo[0].houseIds[1]], is_public: false });
    const replaced = (await send('PUT', `${R}/${doc.id}`, { name: 'Правила проживання', file: pdf('v2.pdf'), 'complexIds[]': [demo[0].id] }, staff)).json()
      .data;
    expect(replaced.file_name).toBe('v2.pdf');
    expect(await t.db.select().from(media).where(eq(media.originalName, 'v1.pdf'))).toEqual([]);
    // A document also for another complex is read-only for this staff user.
    const mixed = (await send('POST', R, { name: 'Спільне', file: pdf(), 'complexIds[]': [demo[0].id, demo[1].id] })).json().data;
    expect((await t.call('GET', `${R}/${mixed.id}`, { token: staff })).statusCode).toBe(200);
    expectErrorBody(await send('PUT', `${R}/${mixed.id}`, { name: 'x', 'complexIds[]': [demo[0].id] }, staff), 403);

    const before = storedFiles();
    expect((await t.call('DELETE', `${R}/${doc.id}`, { token: staff })).json()).toEqual({ message: 'Документ видалено.' });
    expect(storedFiles()).toBe(before - 1);
    expectErrorBody(await t.call('GET', replaced.file_url, { token: admin }), 404);
  });

  it('filters by complex and house', async () => {
    const [h1, h2] = demo[0].houseIds;
    const forH1 = (await send('POST', R, { name: 'Для секції 1', file: pdf(), 'houseIds[]': [h1] })).json().data;
    const ids = async (q: string) => (await t.call('GET', `${R}?per_page=1000&${q}`, { token: admin })).json().main_data.data.map((d: { id: number }) => d.id);
    expect(await ids(`house_id=${h1}`)).toContain(forH1.id);
    expect(await ids(`house_id=${h2}`)).not.toContain(forH1.id);
    expect(await ids(`complex_id=${demo[0].id}`)).toContain(forH1.id);
    expect(await ids(`complex_id=${demo[1].id}`)).not.toContain(forH1.id);
  });
});
