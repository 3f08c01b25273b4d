import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, API, setupApp, UKRAINIAN, type TestApp } from '../api/helpers.ts';
import { EXE, JPEG, multipartBody, PDF, PNG, SVG, type FormValue } from '../api/multipart.ts';
import { changedTables, fingerprint, rows } from './db.ts';
import { xlsxFile, zip } from './xlsx.ts';

/** Uploads: size caps, types judged by content, file names that try to escape, bombs. */
let t: TestApp;
let admin: string;
let dataDir: string;
let uploadsDir: string;
let houseId: number;
let complexId: number;
let requestId: number;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-security-uploads-'));
  t = await setupApp({ env: { DATA_DIR: dataDir } });
  uploadsDir = t.config.uploadsDir;
  admin = await t.login(ADMIN.email, ADMIN.password);
  [{ id: houseId, complex_id: complexId }] = await rows<{ id: number; complex_id: number }>(
    t,
    sql`select id, complex_id from houses where complex_id is not null order by id limit 1`,
  );
  [{ id: requestId }] = await rows<{ id: number }>(t, sql`select id from service_requests order by id limit 1`);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const MB = 1024 * 1024;
type Kind = 'image' | 'document' | 'attachment' | 'table';

/** Every form that takes a file, with the fields it needs besides the file. */
const ENDPOINTS = (): { name: string; url: string; field: string; kind: Kind; max: number; fields: Record<string, FormValue | FormValue[]> }[] => [
  { name: 'picture', url: `${API}/media`, field: 'file', kind: 'image', max: 5 * MB, fields: {} },
  { name: 'document file', url: `${API}/media/document`, field: 'file', kind: 'document', max: 20 * MB, fields: {} },
  {
    name: 'advertisement',
    url: `${API}/advertisement`,
    field: 'image',
    kind: 'image',
    max: 5 * MB,
    fields: { name: 'Продам велосипед', desc: 'Майже новий.', house_id: houseId },
  },
  { name: 'document', url: `${API}/documents`, field: 'file', kind: 'document', max: 20 * MB, fields: { name: 'Кошторис', 'complexIds[]': [complexId] } },
  {
    name: 'request chat',
    url: `${API}/service_request/chat/${requestId}`,
    field: 'files[]',
    kind: 'attachment',
    max: 10 * MB,
    fields: { chat_type: 'staff_chat', message: 'Фото' },
  },
  { name: 'members import', url: `${API}/members/import`, field: 'file', kind: 'table', max: 5 * MB, fields: { house_id: houseId, mode: 'preview' } },
];

/** A file the endpoint accepts, padded to `size` bytes. */
function validFile(kind: Kind, size?: number): Buffer {
  const base = kind === 'table' ? Buffer.from('Номер;Тип;ПІБ\n1;квартира;Іваненко Іван\n') : kind === 'document' ? PDF : PNG;
  return size === undefined ? base : Buffer.concat([base, Buffer.alloc(Math.max(0, size - base.length), kind === 'table' ? 0x20 : 0)]);
}
const fileName = (kind: Kind) => (kind === 'table' ? 'мешканці.csv' : kind === 'document' ? 'кошторис.pdf' : 'фото.png');

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

async function send(url: string, fields: Record<string, FormValue | FormValue[]>) {
  return t.call('POST', url, { token: admin, ...(await multipartBody(fields)) });
}

/** Calls `fn`, expecting a refusal that leaves no file and no row behind. */
async function expectRefusedCleanly(fn: () => Promise<Awaited<ReturnType<typeof send>>>, statuses: number[]) {
  const before = await fingerprint(t);
  const files = listFiles(dataDir);
  const res = await fn();
  expect(statuses, res.body).toContain(res.statusCode);
  expect(res.json().message).toMatch(UKRAINIAN);
  expect(listFiles(dataDir)).toEqual(files);
  expect(changedTables(before, await fingerprint(t))).toEqual([]);
  return res;
}

describe('size limits', () => {
  for (const e of ENDPOINTS()) {
    it(`${e.name}: one byte over ${e.max / MB} MB answers 413 in Ukrainian and keeps nothing`, async () => {
      const ep = ENDPOINTS().find((x) => x.name === e.name)!;
      const res = await expectRefusedCleanly(
        () => send(ep.url, { ...ep.fields, [ep.field]: { file: validFile(ep.kind, ep.max + 1), name: fileName(ep.kind) } }),
        [413, 422],
      );
      expect(res.json().message).toMatch(/МБ/);
    });
  }

  it('a file just under the cap is accepted (control)', async () => {
    const res = await send(`${API}/media`, { file: { file: validFile('image', 5 * MB - 1), name: 'фото.png', type: 'image/png' } });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('types are judged by content, not by name or declared type', () => {
  const disguised: [string, Buffer][] = [
    ['HTML', Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>')],
    ['SVG with a script', SVG],
    ['a Windows program', EXE],
    ['a ZIP archive', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60)])],
    ['a shell script', Buffer.from('#!/bin/sh\nrm -rf /\n')],
  ];
  for (const e of ENDPOINTS().filter((x) => x.kind !== 'table')) {
    it.each(disguised)(`${e.name}: %s named .png is refused with 415`, async (_label, bytes) => {
      const ep = ENDPOINTS().find((x) => x.name === e.name)!;
      const res = await expectRefusedCleanly(() => send(ep.url, { ...ep.fields, [ep.field]: { file: bytes, name: 'фото.png', type: 'image/png' } }), [415]);
      expect(res.json().message).toMatch(/Непідтримуваний тип файлу/);
    });
  }

  it('a PDF is no picture, a picture is no table', async () => {
    await expectRefusedCleanly(() => send(`${API}/media`, { file: { file: PDF, name: 'фото.png', type: 'image/png' } }), [415]);
    await expectRefusedCleanly(
      () => send(`${API}/members/import`, { house_id: houseId, mode: 'preview', file: { file: PNG, name: 'мешканці.csv', type: 'text/csv' } }),
      [422],
    );
  });

  it('the type stored and served is the sniffed one, with nosniff', async () => {
    const res = await send(`${API}/media`, { file: { file: JPEG, name: 'фото.png', type: 'text/html' } });
    expect(res.statusCode, res.body).toBe(200);
    const got = await t.call('GET', res.json().data.url, { token: admin });
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('file names never choose where a file goes', () => {
  const NAMES = [
    '../../etc/passwd',
    '../../../../tmp/evil.pdf',
    '/etc/passwd',
    'C:\\Windows\\evil.pdf',
    '..\\..\\evil.pdf',
    'a\u0000.pdf',
    '....//....//evil.pdf',
    '%2e%2e%2fevil.pdf',
    'ok.pdf\r\nX-Injected: 1',
  ];

  it.each(NAMES)('%j is stored under a random name inside the uploads folder', async (name) => {
    const outside = listFiles(dataDir).filter((f) => !f.startsWith(uploadsDir + path.sep));
    const before = new Set(listFiles(uploadsDir));
    const res = await send(`${API}/media/document`, { file: { file: PDF, name, type: 'application/pdf' } });
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(listFiles(dataDir).filter((f) => !f.startsWith(uploadsDir + path.sep))).toEqual(outside);
    const added = listFiles(uploadsDir).filter((f) => !before.has(f));
    for (const f of added) expect(path.basename(f)).toMatch(/^[0-9a-f]{32}\.[a-z]+$/);
    for (const target of ['/etc/passwd.pdf', '/tmp/evil.pdf', path.resolve(dataDir, '../evil.pdf'), path.resolve(uploadsDir, '../evil.pdf')]) {
      expect(fs.existsSync(target), target).toBe(false);
    }
    if (res.statusCode === 200) {
      const media = res.json().data;
      expect(media.name).not.toMatch(/[/\\\r\n]/);
      expect(media.name).not.toContain('\u0000');
      const got = await t.call('GET', media.url, { token: admin });
      expect(got.statusCode).toBe(200);
      expect(String(got.headers['content-disposition'])).not.toMatch(/[/\\\r\n]|\.\./);
      expect(got.headers['x-injected']).toBeUndefined();
    }
  });
});

/** A minimal XLSX whose sheet is padded with `padding` bytes of blanks (valid XML all the same). */
function xlsx(padding: number): Buffer {
  const sheetXml = Buffer.concat([
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ' +
        'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Номер</t>' +
        '</is></c></row>',
    ),
    Buffer.alloc(padding, 0x20),
    Buffer.from('<row r="2"><c r="A2" t="inlineStr"><is><t>1</t></is></c></row></sheetData></worksheet>'),
  ]);
  return xlsxFile([], { sheetXml });
}

describe('decompression bombs', () => {
  const importFile = (file: Buffer) =>
    send(`${API}/members/import`, {
      house_id: houseId,
      mode: 'preview',
      file: { file, name: 'мешканці.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    });

  it('a small spreadsheet that unpacks to hundreds of megabytes is refused before it is read', async () => {
    const bomb = xlsx(120 * MB);
    expect(bomb.length).toBeLessThan(1 * MB);
    const started = Date.now();
    const res = await expectRefusedCleanly(() => importFile(bomb), [413, 422]);
    expect(JSON.stringify(res.json())).toMatch(/розпакування завеликий/);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect((await t.call('GET', `${API}/user`, { token: admin })).statusCode).toBe(200);
  });

  it('a zip whose written sizes lie is judged by what it unpacks to', async () => {
    const bomb = xlsx(120 * MB);
    // Rewrite every declared uncompressed size to 1 byte: only the unpacking tells.
    for (let at = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4))
      bomb.writeUInt32LE(1, at + 24);
    const res = await expectRefusedCleanly(() => importFile(bomb), [413, 422]);
    expect(JSON.stringify(res.json())).toMatch(/розпакування завеликий|Не вдалося прочитати/);
  });

  it('the same spreadsheet without the padding is read (control)', async () => {
    const res = await importFile(xlsx(1000));
    expect(res.statusCode, res.body).not.toBe(413);
    expect(JSON.stringify(res.json())).not.toMatch(/розпакування завеликий/);
  });

  /** Picture headers claiming sizes that would take gigabytes to draw. */
  const png = (w: number, h: number) => {
    const head = Buffer.alloc(33);
    PNG.copy(head, 0, 0, 16);
    head.writeUInt32BE(w, 16);
    head.writeUInt32BE(h, 20);
    return Buffer.concat([head, PNG.subarray(33)]);
  };
  const gif = (w: number, h: number) => {
    const b = Buffer.from('GIF89a\0\0\0\0\u0080\0\0', 'latin1');
    b.writeUInt16LE(w, 6);
    b.writeUInt16LE(h, 8);
    return Buffer.concat([b, Buffer.alloc(40)]);
  };
  const webp = (w: number, h: number) => {
    const b = Buffer.alloc(40);
    b.write('RIFF', 0, 'latin1');
    b.writeUInt32LE(32, 4);
    b.write('WEBPVP8X', 8, 'latin1');
    b.writeUInt32LE(10, 16);
    b.writeUIntLE(w - 1, 24, 3);
    b.writeUIntLE(h - 1, 27, 3);
    return b;
  };

  it.each([
    ['PNG 100000 × 100000', png(100_000, 100_000), 'фото.png'],
    ['GIF 65535 × 65535', gif(65_535, 65_535), 'фото.gif'],
    ['WEBP 16384 × 16384', webp(16_384, 16_384), 'фото.webp'],
  ])('a picture claiming %s is refused with a Ukrainian message', async (_label, file, name) => {
    for (const e of ENDPOINTS().filter((x) => x.kind === 'image' || x.kind === 'attachment')) {
      const res = await expectRefusedCleanly(() => send(e.url, { ...e.fields, [e.field]: { file, name } }), [413, 422]);
      expect(JSON.stringify(res.json()), e.name).toMatch(/Зображення завелике/);
    }
  });

  it('an ordinary picture passes the same check (control)', async () => {
    for (const file of [png(4000, 3000), gif(640, 480), webp(1920, 1080)]) {
      const res = await send(`${API}/media`, { file: { file, name: 'фото' } });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('archives are not accepted as such anywhere: a .zip is refused by type', async () => {
    const archive = zip([{ name: 'a.txt', data: Buffer.alloc(10 * MB) }], 9);
    for (const e of ENDPOINTS().filter((x) => x.kind !== 'table')) {
      await expectRefusedCleanly(() => send(e.url, { ...e.fields, [e.field]: { file: archive, name: 'архів.zip', type: 'application/zip' } }), [415]);
    }
  });
});
