import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, API, createUser, expectErrorBody, expectFieldError, STAFF, UKRAINIAN, type TestApp, setupApp } from './helpers.ts';
import { EXE, JPEG, multipartBody, PDF, PNG, SVG, type FormValue } from './multipart.ts';

let t: TestApp;
let admin: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-media-'));
  t = await setupApp({ env: { DATA_DIR: dataDir } });
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const upload = async (url: string, fields: Record<string, FormValue | FormValue[]>, token = admin) => {
  const { raw, contentType } = await multipartBody(fields);
  return t.call('POST', `${API}${url}`, { token, raw, contentType });
};
const storedFiles = () => (fs.existsSync(t.config.uploadsDir) ? fs.readdirSync(t.config.uploadsDir) : []);

describe('POST /media', () => {
  it('stores an image under a random name and serves it back to its uploader by a random key', async () => {
    const res = await upload('/media', { file: { file: PNG, name: 'обкладинка.png', type: 'image/png' } });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    const [row] = await t.db.query.media.findMany({ where: (m, { eq }) => eq(m.id, data.id) });
    expect(data).toMatchObject({ kind: 'image', name: 'обкладинка.png', mime: 'image/png', size: PNG.length, url: `/api/admin/media/${row.key}` });
    expect(row.key).toMatch(/^[0-9a-f]{32}$/);
    expect(row.storedName).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(fs.readFileSync(path.join(t.config.uploadsDir, row.storedName))).toEqual(PNG);

    const served = await t.call('GET', data.url, { token: admin });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload).toEqual(PNG);
    // Until a form takes it, nobody else gets it; anonymous callers never do.
    const staff = await t.login(STAFF.email, STAFF.password);
    expectErrorBody(await t.call('GET', data.url, { token: staff }), 404);
    expect((await t.call('GET', data.url)).statusCode).toBe(401);
  });

  it('judges the type by content, not by the name or the declared type', async () => {
    const res = await upload('/media', { file: { file: JPEG, name: 'photo.png', type: 'image/png' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.mime).toBe('image/jpeg');
    for (const file of [SVG, EXE, PDF]) {
      const before = storedFiles().length;
      const bad = await upload('/media', { file: { file, name: 'image.png', type: 'image/png' } });
      const body = expectErrorBody(bad, 415);
      expect(body.message).toMatch(UKRAINIAN);
      expect(body.message).toContain('JPEG');
      expect(storedFiles().length).toBe(before);
    }
  });

  it('refuses a file over 5 MB with 413 and keeps nothing', async () => {
    const before = storedFiles().length;
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const body = expectErrorBody(await upload('/media', { file: { file: big, name: 'big.png' } }), 413);
    expect(body.message).toBe('Файл завеликий: не більше 5 МБ.');
    expect(storedFiles().length).toBe(before);
    expect(storedFiles().some((f) => f.endsWith('.part'))).toBe(false);
  });

  it('asks for a file, one file only, multipart only', async () => {
    expectFieldError(await upload('/media', { type: 'image' }), 'file');
    expectFieldError(await upload('/media', { file: { file: Buffer.alloc(0), name: 'empty.png' } }), 'file');
    expectFieldError(
      await upload('/media', {
        file: [
          { file: PNG, name: 'a.png' },
          { file: PNG, name: 'b.png' },
        ],
      }),
      'file',
    );
    expectFieldError(await upload('/media', { picture: { file: PNG, name: 'a.png' } }), 'picture');
    const json = await t.call('POST', `${API}/media`, { token: admin, body: { file: 'x' } });
    expect(expectErrorBody(json, 415).message).toMatch(UKRAINIAN);
    const broken = await t.call('POST', `${API}/media`, {
      token: admin,
      raw: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
      contentType: 'multipart/form-data; boundary=x',
    });
    expect(broken.statusCode).toBeGreaterThanOrEqual(400);
    expect(broken.statusCode).toBeLessThan(500);
  });

  it('needs a permission to create or edit content', async () => {
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { articles: ['view'] } });
    const token = await t.login(viewer.email, viewer.password);
    expectErrorBody(await upload('/media', { file: { file: PNG, name: 'a.png' } }, token), 403);
    const staff = await t.login(STAFF.email, STAFF.password);
    expect((await upload('/media', { file: { file: PNG, name: 'a.png' } }, staff)).statusCode).toBe(200);
  });
});

describe('POST /media/document', () => {
  it('takes PDF and office files and serves them only to the uploader', async () => {
    const res = await upload('/media/document', { file: { file: PDF, name: 'Протокол зборів.pdf' }, type: 'document' });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ kind: 'document', mime: 'application/pdf', name: 'Протокол зборів.pdf' });
    const served = await t.call('GET', data.url, { token: admin });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-disposition']).toContain("filename*=UTF-8''%D0%9F%D1%80%D0%BE%D1%82%D0%BE%D0%BA%D0%BE%D0%BB");
    expect(served.headers['content-disposition']).toMatch(/^attachment/);
    const staff = await t.login(STAFF.email, STAFF.password);
    expectErrorBody(await t.call('GET', data.url, { token: staff }), 404);

    const zipNotOffice = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40)]);
    expectErrorBody(await upload('/media/document', { file: { file: zipNotOffice, name: 'archive.zip' } }), 415);
    expect((await upload('/media/document', { file: { file: zipNotOffice, name: 'Кошторис.xlsx' } })).json().data.mime).toContain('spreadsheetml');
  });

  it('allows 20 MB for documents', async () => {
    const body = expectErrorBody(
      await upload('/media/document', { file: { file: Buffer.concat([PDF, Buffer.alloc(20 * 1024 * 1024)]), name: 'big.pdf' } }),
      413,
    );
    expect(body.message).toBe('Файл завеликий: не більше 20 МБ.');
  });

  it('answers 404 for an unknown key and 422 for what is no key (a sequential id included)', async () => {
    expectErrorBody(await t.call('GET', `${API}/media/${'0'.repeat(32)}`, { token: admin }), 404);
    for (const bad of ['abc', '1', 'ABCDEF0123456789ABCDEF0123456789']) expectErrorBody(await t.call('GET', `${API}/media/${bad}`, { token: admin }), 422);
  });
});
