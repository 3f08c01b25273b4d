import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { and, asc, eq } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { complexes, houses, media } from '../../server/db/schema.ts';
import { s3Storage } from '../../server/lib/storageS3.ts';
import { ADMIN, API, expectErrorBody, type TestApp, setupApp } from './helpers.ts';
import { EXE, multipartBody, PDF, PNG, type FormValue } from './multipart.ts';

/**
 * Uploads on S3-compatible object storage: a local S3 server in this process, the app configured
 * with S3_* variables; files appear in and disappear from the bucket, never under DATA_DIR/uploads.
 */
const BUCKET = 'zhk-uploads';
const KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

let server: S3rver;
let s3Dir: string;
let dataDir: string;
let endpoint: string;
let client: S3Client;
let t: TestApp;
let admin: string;
let houseId: number;

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-s3-'));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-s3-data-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: KEYS });
  t = await setupApp({
    env: {
      DATA_DIR: dataDir,
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: KEYS.accessKeyId,
      S3_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
    },
  });
  admin = await t.login(ADMIN.email, ADMIN.password);
  const [complex] = await t.db.select().from(complexes).where(eq(complexes.organizationId, t.organizationId)).orderBy(asc(complexes.id)).limit(1);
  [{ id: houseId }] = await t.db.select({ id: houses.id }).from(houses).where(eq(houses.complexId, complex.id)).orderBy(asc(houses.id)).limit(1);
});
afterAll(async () => {
  await t?.close();
  client?.destroy();
  await server?.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const objects = async () => ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key!).sort();
const inBucket = async (key: string) => (await objects()).includes(key);
const storedNameOf = async (mediaId: number) => (await t.db.select({ n: media.storedName }).from(media).where(eq(media.id, mediaId)))[0].n;
const send = async (method: 'POST' | 'PUT', url: string, fields: Record<string, FormValue | FormValue[]>) =>
  t.call(method, `${API}${url}`, { token: admin, ...(await multipartBody(fields)) });
/** Nothing of the uploads goes to the local folder. */
const expectNoLocalUploads = () => expect(fs.existsSync(path.join(dataDir, 'uploads')) ? fs.readdirSync(path.join(dataDir, 'uploads')) : []).toEqual([]);

describe('uploads on S3-compatible storage', () => {
  it('reads the S3 variables into the configuration', () => {
    expect(t.config.s3).toEqual({ bucket: BUCKET, endpoint, region: 'us-east-1', ...KEYS, forcePathStyle: true });
    expect(t.app.storage.kind).toBe('s3');
  });

  it('stores a media image in the bucket and serves it back', async () => {
    const res = await send('POST', '/media', { file: { file: PNG, name: 'обкладинка.png', type: 'image/png' } });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    const key = await storedNameOf(data.id);
    expect(key).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(await inBucket(key)).toBe(true);
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(head.ContentLength).toBe(PNG.length);
    expect(head.ContentType).toBe('image/png');

    const served = await t.call('GET', data.url, { token: admin });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload).toEqual(PNG);
    expectNoLocalUploads();
  });

  it('uploads, downloads, replaces and deletes a document; the bucket follows', async () => {
    const before = await objects();
    const created = await send('POST', '/documents', {
      name: 'Кошторис',
      file: { file: PDF, name: 'Кошторис.pdf', type: 'application/pdf' },
      'houseIds[]': [houseId],
      is_public: 1,
    });
    expect(created.statusCode, created.body).toBe(200);
    const doc = created.json().data;
    const [row] = await t.db
      .select({ fileId: media.id, key: media.storedName })
      .from(media)
      .where(and(eq(media.organizationId, t.organizationId), eq(media.originalName, 'Кошторис.pdf')));
    expect(await objects()).toEqual([...before, row.key].sort());

    const file = await t.call('GET', doc.file_url, { token: admin });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload).toEqual(PDF);
    expect(file.headers['content-length']).toBe(String(PDF.length));

    // A file larger than one part goes up as a multipart upload and comes back whole.
    const big = Buffer.concat([PDF, Buffer.alloc(6 * 1024 * 1024 + 123, 7)]);
    const replaced = await send('PUT', `/documents/${doc.id}`, {
      name: 'Кошторис',
      file: { file: big, name: 'Великий.pdf', type: 'application/pdf' },
      'houseIds[]': [houseId],
      is_public: 1,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await inBucket(row.key)).toBe(false);
    const after = await objects();
    expect(after.length).toBe(before.length + 1);
    const bigFile = await t.call('GET', doc.file_url, { token: admin });
    expect(bigFile.statusCode).toBe(200);
    expect(bigFile.rawPayload.length).toBe(big.length);
    expect(bigFile.rawPayload.equals(big)).toBe(true);

    const deleted = await t.call('DELETE', `${API}/documents/${doc.id}`, { token: admin });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await objects()).toEqual(before);
    expectNoLocalUploads();
  });

  it('leaves nothing in the bucket when an upload is refused', async () => {
    const before = await objects();
    expectErrorBody(await send('POST', '/media', { file: { file: EXE, name: 'a.png' } }), 415);
    expectErrorBody(await send('POST', '/media', { file: { file: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), name: 'big.png' } }), 413);
    // A valid file with an invalid field: stored, then removed again.
    const bad = await send('POST', '/documents', { name: '', file: { file: PDF, name: 'a.pdf' } });
    expect(bad.statusCode).toBe(422);
    expect(await objects()).toEqual(before);
    expectNoLocalUploads();
  });

  it('answers 404 when the object is gone from the bucket', async () => {
    const res = await send('POST', '/media', { file: { file: PNG, name: 'x.png' } });
    const { data } = res.json();
    await t.app.storage.delete(await storedNameOf(data.id));
    expectErrorBody(await t.call('GET', data.url, { token: admin }), 404);
  });

  it('the storage itself: put, get, delete; keys cannot be paths', async () => {
    const storage = s3Storage(
      loadConfig({ S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true' }).s3!,
    );
    await storage.put('probe.txt', Readable.from([Buffer.from('при'), Buffer.from('віт')]), { contentType: 'text/plain' });
    const chunks: Buffer[] = [];
    for await (const c of (await storage.get('probe.txt'))!) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('привіт');
    await storage.delete('probe.txt');
    expect(await storage.get('probe.txt')).toBeUndefined();
    await storage.delete('probe.txt');
    await expect(storage.put('../x', Readable.from([Buffer.from('x')]))).rejects.toThrow(/invalid storage key/);
    storage.client.destroy();
  });
});

describe('S3 configuration', () => {
  it('stops the start with one line naming the variable', () => {
    expect(() => loadConfig({ S3_BUCKET: 'Bad_Bucket' })).toThrow(/^Invalid configuration: S3_BUCKET /);
    expect(() => loadConfig({ S3_BUCKET: 'ok-bucket', S3_ENDPOINT: 'ftp://x' })).toThrow(/^Invalid configuration: S3_ENDPOINT /);
    expect(() => loadConfig({ S3_BUCKET: 'ok-bucket', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/^Invalid configuration: S3_FORCE_PATH_STYLE /);
    expect(() => loadConfig({ S3_BUCKET: 'ok-bucket', S3_REGION: 'EU Central' })).toThrow(/^Invalid configuration: S3_REGION /);
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/^Invalid configuration: S3_BUCKET is required when S3_ENDPOINT is set/);
    expect(() => loadConfig({ S3_BUCKET: 'ok-bucket', S3_ACCESS_KEY_ID: 'key' })).toThrow(/^Invalid configuration: S3_SECRET_ACCESS_KEY /);
    expect(loadConfig({}).s3).toBeUndefined();
  });
});
