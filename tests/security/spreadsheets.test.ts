import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import type { CurrentUser } from '../../server/lib/auth.ts';
import { sendExport } from '../../server/lib/export.ts';
import { MAX_TABLE_CELLS } from '../../server/lib/spreadsheet.ts';
import { createWorkSlots } from '../../server/lib/workSlots.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, API, createComplex, createUser, expectErrorBody, setupApp, UKRAINIAN, type TestApp } from '../api/helpers.ts';
import { makeCity, makeHouse } from '../api/members-fixtures.ts';
import { multipartBody } from '../api/multipart.ts';
import { rows as query } from './db.ts';
import { collectRoutes, type Route } from './routes.ts';
import { columnName, xlsxFile } from './xlsx.ts';

/**
 * Spreadsheet import and export cannot take the server: an uploaded table is read as a stream
 * and refused at the first limit it passes, other requests keep being answered while a large one
 * is read, and imports and exports run a few at a time (per user and per process), the rest
 * answering 429.
 */

let t: TestApp;
let admin: string;
let adminId: number;
let houseId: number;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  [{ id: adminId }] = await query<{ id: number }>(t, sql`select id from users where email = ${ADMIN.email}`);
  const city = await makeCity(t);
  houseId = (await makeHouse(t, city.id, (await createComplex(t.db, { organizationId: t.organizationId })).id)).id;
});
afterAll(() => t?.close());

const MB = 1024 * 1024;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function importFile(file: Buffer, name: string, token = admin) {
  return t.call('POST', `${API}/members/import`, {
    token,
    ...(await multipartBody({ house_id: houseId, mode: 'preview', file: { file, name, type: name.endsWith('.csv') ? 'text/csv' : XLSX } })),
  });
}

/** A registry of `n` residents with `extra` further filled columns each (notes a manager keeps). */
function registry(n: number, extra = 0): (string | number)[][] {
  const header = ['Номер', 'Тип', 'Площа', 'ПІБ', 'Роль', ...Array.from({ length: extra }, (_v, i) => `Примітка ${i + 1}`)];
  const rows: (string | number)[][] = [header];
  for (let i = 1; i <= n; i++)
    rows.push([i, 'квартира', 40 + (i % 50), `Мешканець Номер ${i}`, 'орендар', ...Array.from({ length: extra }, (_v, j) => `нотатка ${i}-${j}`)]);
  return rows;
}

/** A full garbage collection on demand (the flag can be set at run time; `gc` then exists in a new context). */
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * Runs `call` while sampling the live heap (collected first, so that garbage does not count);
 * answers with its result, how long it took and the live heap's peak growth.
 */
async function measured<T>(call: () => Promise<T>) {
  collectGarbage();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const sample = () => {
    collectGarbage();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  const sampler = setInterval(sample, 200);
  const started = performance.now();
  try {
    const result = await call();
    const ms = performance.now() - started;
    sample();
    return { result, ms, heapGrowthMb: (peak - base) / MB };
  } finally {
    clearInterval(sampler);
  }
}

describe('reading an uploaded spreadsheet', () => {
  it('reads the first sheet of a workbook written as Excel writes it (control)', async () => {
    const file = xlsxFile(registry(3), {
      extraSheets: [
        [
          ['Номер', 'ПІБ'],
          [99, 'Інший Аркуш'],
        ],
      ],
    });
    const res = await importFile(file, 'реєстр.xlsx');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 3, valid: 3, invalid: 0 });
    expect(body.rows.map((r: { number: string; name: string }) => [r.number, r.name])).toEqual([
      ['1', 'Мешканець Номер 1'],
      ['2', 'Мешканець Номер 2'],
      ['3', 'Мешканець Номер 3'],
    ]);
  });

  const padded = (bytes: number) => {
    const head =
      '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Номер</t></is></c><c r="B1" t="inlineStr"><is><t>ПІБ</t></is></c></row>';
    return Buffer.concat([
      Buffer.from(head),
      Buffer.alloc(bytes, 0x20),
      Buffer.from('<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="inlineStr"><is><t>Іван Петренко</t></is></c></row></sheetData></worksheet>'),
    ]);
  };
  /** A sheet of `cells` one-digit cells, `width` to a row; with `brokenTail`, malformed XML follows the last row. */
  const tinyCells = (cells: number, width: number, brokenTail = false) => {
    const parts = ['<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'];
    for (let r = 1; r <= Math.ceil(cells / width); r++) {
      parts.push(`<row r="${r}">`);
      for (let c = 1; c <= width; c++) parts.push(`<c r="${columnName(c)}${r}"><v>${c}</v></c>`);
      parts.push('</row>');
    }
    if (brokenTail) parts.push('<row r="0"><c></row></sheetData>');
    parts.push('</sheetData></worksheet>');
    return Buffer.from(parts.join(''));
  };
  /** A CSV file of `rows` rows of 30 cells; with `brokenTail`, a quote that never closes follows them. */
  const csvCells = (rows: number, brokenTail = false) =>
    Buffer.from(`Номер;ПІБ${';Примітка'.repeat(28)}\n${`1;Іван${';x'.repeat(28)}\n`.repeat(rows)}${brokenTail ? '2;"Петро\n' : ''}`);
  const emptyRows = (n: number) =>
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
        `${Array.from({ length: n }, (_v, i) => `<row r="${i + 1}" ht="15"/>`).join('')}</sheetData></worksheet>`,
    );

  const overCap: [string, () => { file: Buffer; name: string }, number[], RegExp][] = [
    ['a file over 5 MB', () => ({ file: Buffer.alloc(5 * MB + 10, 0x41), name: 'реєстр.csv' }), [413], /не більше 5 МБ/],
    [
      'a sheet that declares 30 MB of XML (a zip bomb)',
      () => ({ file: xlsxFile([], { sheetXml: padded(30 * MB) }), name: 'реєстр.xlsx' }),
      [413, 422],
      /розпакування завеликий/,
    ],
    [
      'a sheet of 800,000 small cells',
      () => ({ file: xlsxFile([], { sheetXml: tinyCells(800_000, 20) }), name: 'реєстр.xlsx' }),
      [422],
      /забагато заповнених клітинок/,
    ],
    ['a sheet of 10,001 residents', () => ({ file: xlsxFile(registry(10_001)), name: 'реєстр.xlsx' }), [422], /забагато рядків/],
    [
      'a sheet of 200,000 empty formatted rows',
      () => ({ file: xlsxFile([], { sheetXml: emptyRows(200_000) }), name: 'реєстр.xlsx' }),
      [422],
      /забагато рядків/,
    ],
    [
      'a value in column 150',
      () => ({
        file: xlsxFile([
          ['Номер', 'ПІБ', ...Array.from({ length: 147 }, () => ''), 'зайве'],
          [1, 'Іван Петренко'],
        ]),
        name: 'реєстр.xlsx',
      }),
      [422],
      /колонок/,
    ],
    ['a CSV file of 270,000 cells', () => ({ file: csvCells(9_000), name: 'реєстр.csv' }), [422], /забагато заповнених клітинок/],
    [
      'a CSV file of 10,001 residents',
      () => ({ file: Buffer.from(`Номер;ПІБ\n${'1;Іван Петренко\n'.repeat(10_001)}`), name: 'реєстр.csv' }),
      [422],
      /забагато рядків/,
    ],
  ];

  it.each(overCap)('%s is refused in Ukrainian without taking memory', async (_label, build, statuses, message) => {
    const { file, name } = build();
    const { result: res, heapGrowthMb } = await measured(() => importFile(file, name));
    expect(statuses, res.body.slice(0, 300)).toContain(res.statusCode);
    const body = expectErrorBody(res, res.statusCode);
    expect(JSON.stringify(body)).toMatch(message);
    expect(body.message).toMatch(UKRAINIAN);
    // Reading the whole file into a workbook takes hundreds of megabytes here.
    expect(heapGrowthMb).toBeLessThan(100);
    expect(t.app.workSlots.inUse()).toBe(0);
  });

  // Whether the reader stops at a limit or reads on to the end is seen without a clock: the file
  // ends in a defect that only a reader going on to the end meets. Under the limit the defect is
  // met and named (the control); over it, the limit answers first.
  const stopsAtLimit: [string, string, (cells: number, broken: boolean) => Buffer][] = [
    ['an XLSX sheet', 'реєстр.xlsx', (cells, broken) => xlsxFile([], { sheetXml: tinyCells(cells, 40, broken) })],
    ['a CSV file', 'реєстр.csv', (cells, broken) => csvCells(Math.ceil(cells / 30), broken)],
  ];
  it.each(stopsAtLimit)('%s over the cell limit is refused at the limit, before the rest is read', async (_label, name, build) => {
    const underLimit = await importFile(build(MAX_TABLE_CELLS / 20, true), name);
    expect(expectErrorBody(underLimit, 422).message).toMatch(/Не вдалося прочитати файл/);
    const overLimit = await importFile(build(MAX_TABLE_CELLS * 2, true), name);
    expect(expectErrorBody(overLimit, 422).message).toMatch(/забагато заповнених клітинок/);
    expect(t.app.workSlots.inUse()).toBe(0);
  });

  it('while a large file is read, the event loop stays free and other calls answer fast', async () => {
    // 10,000 residents with 14 more filled columns: 190,000 cells, inside every limit.
    const file = xlsxFile(registry(10_000, 14));
    const delay = monitorEventLoopDelay({ resolution: 5 });
    const light: number[] = [];
    let done = false;
    delay.enable();
    const running = importFile(file, 'реєстр.xlsx').finally(() => (done = true));
    while (!done) {
      const started = performance.now();
      const res = await t.call('GET', `${API}/user`, { token: admin });
      expect(res.statusCode).toBe(200);
      light.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
    delay.disable();
    const res = await running;
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json()).toMatchObject({ total: 10_000, valid: 10_000 });
    const maxDelayMs = delay.max / 1e6;
    // Reading the workbook in one piece blocks the loop for seconds; read as a stream, in slices
    // of a few milliseconds, the longest pause is a small fraction of that.
    expect(light.length).toBeGreaterThan(3);
    expect(maxDelayMs, `longest event-loop delay ${Math.round(maxDelayMs)} ms; GET /user took ${light.map(Math.round).join(', ')} ms`).toBeLessThan(400);
    expect(Math.max(...light)).toBeLessThan(1000);
  });
});

describe('imports and exports run a few at a time', () => {
  it('a second import by the same user while the first runs answers 429 in Ukrainian; another user is not held up', async () => {
    const big = xlsxFile(registry(10_000, 10));
    const first = importFile(big, 'реєстр.xlsx');
    for (let i = 0; i < 200 && t.app.workSlots.inUse(adminId) === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(t.app.workSlots.inUse(adminId)).toBe(1);
    const second = await importFile(xlsxFile(registry(2)), 'реєстр.xlsx');
    const body = expectErrorBody(second, 429);
    expect(body.message).toMatch(/попередній імпорт або експорт ще виконується/);
    expect(second.headers['retry-after']).toBeDefined();
    const colleague = await createUser(t.db, { organizationId: t.organizationId, isAdmin: true });
    const theirs = await importFile(xlsxFile(registry(2)), 'реєстр.xlsx', await t.login(colleague.email, colleague.password));
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect((await first).statusCode).toBe(200);
    expect(t.app.workSlots.inUse()).toBe(0);
    // Once the first is done, the same user may import again.
    expect((await importFile(xlsxFile(registry(2)), 'реєстр.xlsx')).statusCode).toBe(200);
  });

  let heavyRoutes: Route[] = [];
  beforeAll(async () => {
    heavyRoutes = (await collectRoutes(t)).routes.filter((r) => /import|export/i.test(r.path));
  });
  const callRoute = async (r: Route) =>
    r.method === 'GET'
      ? t.call('GET', `${r.path}?format=csv`, { token: admin })
      : t.call(r.method, r.path, {
          token: admin,
          ...(await multipartBody({
            house_id: houseId,
            mode: 'preview',
            file: { file: Buffer.from('Номер;ПІБ\n1;Іван Петренко\n'), name: 'a.csv', type: 'text/csv' },
          })),
        });

  it('every import and export route of the route table takes a slot: 429 beyond the user’s and the process’s limits', async () => {
    expect(heavyRoutes.map((r) => r.key)).toEqual(
      expect.arrayContaining([`POST ${API}/members/import`, `GET ${API}/members/export`, `GET ${API}/staff/export`]),
    );
    const wrong: string[] = [];
    for (const r of heavyRoutes) {
      // The user's earlier work still running.
      const mine = t.app.workSlots.take(adminId);
      let res = await callRoute(r);
      if (res.statusCode !== 429 || !/попередній/.test(res.json().message)) wrong.push(`${r.key} with the user's slot taken → ${res.statusCode}`);
      mine();
      // Other users' work filling the process.
      const others = Array.from({ length: t.config.workLimits.perProcess }, (_v, i) => t.app.workSlots.take(-1 - i));
      res = await callRoute(r);
      if (res.statusCode !== 429 || !/Сервер зараз виконує забагато/.test(res.json().message)) wrong.push(`${r.key} with the process full → ${res.statusCode}`);
      for (const give of others) give();
      // Free again: the route works and gives its slot back.
      res = await callRoute(r);
      if (res.statusCode !== 200) wrong.push(`${r.key} when free → ${res.statusCode} ${res.body.slice(0, 200)}`);
      for (let i = 0; i < 100 && t.app.workSlots.inUse() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      if (t.app.workSlots.inUse() !== 0) wrong.push(`${r.key} kept its slot after answering`);
    }
    expect(wrong).toEqual([]);
  });

  it.each(['csv', 'xlsx'] as const)('an endless %s export whose client hangs up stops and gives its slot back at once', async (format) => {
    // The generic export (server/lib/export.ts) behind a route of its own, fed rows that never end:
    // only the client's leaving can stop it.
    const app = Fastify({ forceCloseConnections: true });
    app.decorate('workSlots', createWorkSlots({ perProcess: 4, perUser: 1 }));
    app.addHook('onRequest', async (request) => {
      request.user = { id: 7 } as CurrentUser;
    });
    let stopped = false;
    app.get('/export', (_request, reply) =>
      sendExport(reply, {
        format,
        filename: 'endless',
        columns: [
          { header: 'Рядок', value: (n: number) => n },
          { header: 'Текст', value: () => 'x'.repeat(100) },
        ],
        batches: (async function* () {
          try {
            for (let n = 0; ; n += 1000) {
              // A database read between batches.
              await new Promise((r) => setImmediate(r));
              yield Array.from({ length: 1000 }, (_v, i) => n + i);
            }
          } finally {
            stopped = true;
          }
        })(),
      }),
    );
    try {
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const abort = new AbortController();
      const res = await fetch(`${address}/export`, { signal: abort.signal });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      await reader.read();
      expect(app.workSlots.inUse(7)).toBe(1);
      // A second export of the same user meanwhile: 429.
      expect((await app.inject({ method: 'GET', url: '/export' })).statusCode).toBe(429);
      abort.abort();
      await reader.cancel().catch(() => undefined);
      const started = performance.now();
      while ((app.workSlots.inUse(7) > 0 || !stopped) && performance.now() - started < 3000) await new Promise((r) => setTimeout(r, 20));
      expect(app.workSlots.inUse(7)).toBe(0);
      expect(stopped).toBe(true);
    } finally {
      await app.close();
    }
  });
});
