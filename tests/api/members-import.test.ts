import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, realty, residents } from '../../server/db/schema.ts';
import { ADMIN, API, createComplex, createUser, expectErrorBody, expectFieldError, uid, type TestApp, setupApp } from './helpers.ts';
import { makeCity, makeHouse, makeUnit } from './members-fixtures.ts';

let t: TestApp;
let admin: string;
let cityId: number;
let complexId: number;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  cityId = (await makeCity(t)).id;
  complexId = (await createComplex(t.db, { organizationId: t.organizationId })).id;
});
afterAll(() => t?.close());

/** A multipart body with text fields and one file. */
function multipart(fields: Record<string, string>, file?: { name: string; content: Buffer | string; type?: string }) {
  const boundary = `----test${uid()}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'text/csv'}\r\n\r\n`),
    );
    parts.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { raw: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const upload = (fields: Record<string, string>, file?: Parameters<typeof multipart>[1], token = admin) => {
  const body = multipart(fields, file);
  return t.call('POST', `${API}/members/import`, { token, raw: body.raw, contentType: body.contentType });
};

const HEADER = 'Номер;Тип;Площа;Поверх;ПІБ;Телефон;E-mail;Роль;Частка';

async function counts(houseId: number) {
  const units = await t.db.select().from(realty).where(eq(realty.houseId, houseId));
  const links = units.length ? await t.db.select().from(residents).where(eq(residents.realtyId, units[0].id)) : [];
  return { units: units.length, links: links.length, members: (await t.db.select().from(members)).length };
}

describe('members import', () => {
  it('previews per-row errors, writes nothing when a row is invalid, and commits all rows in one go', async () => {
    const house = await makeHouse(t, cityId, complexId);
    const p = uid().replace(/\D/g, '').padEnd(7, '7').slice(0, 7);
    const csv = [
      HEADER,
      `1;квартира;54,3;2;Мельник Оксана Іванівна;067 ${p};oksana-${p}@ukr.net;співвласник;1/2`,
      `1;квартира;54,3;2;Мельник Петро Іванович;050 ${p};;співвласник;1/2`,
      `1;;;;Мельник Софія Петрівна;;;член сім'ї;`,
      `П-7;паркомісце;13,25;-1;Мельник Оксана Іванівна;067 ${p};;власник;`,
      `2;квартира;60;3;Гаврилюк Ігор;12345;;власник;`,
      `3;квартира;60;3;;;;орендар;1/2`,
      `;квартира;;;Без Номера;;;власник;`,
    ].join('\n');
    const file = { name: 'registry.csv', content: `\uFEFF${csv}` };
    const before = await counts(house.id);

    const preview = await upload({ house_id: String(house.id), mode: 'preview' }, file);
    expect(preview.statusCode, preview.body).toBe(200);
    const body = preview.json();
    expect(body).toMatchObject({ committed: false, total: 7, valid: 4, invalid: 3 });
    expect(body.rows.map((r: { line: number; errors: string[] }) => [r.line, r.errors.length > 0])).toEqual([
      [2, false],
      [3, false],
      [4, false],
      [5, false],
      [6, true],
      [7, true],
      [8, true],
    ]);
    expect(body.rows[4].errors.join(' ')).toContain('телефон');
    expect(body.rows[5].errors.join(' ')).toMatch(/ПІБ/);
    expect(body.rows[6].errors.join(' ')).toMatch(/номера/);
    expect(await counts(house.id)).toEqual(before);

    // Commit without skipping: 422 with the rows, nothing written.
    const refused = await upload({ house_id: String(house.id), mode: 'commit' }, file);
    expectFieldError(refused, 'file');
    expect(refused.json().rows).toHaveLength(7);
    expect(await counts(house.id)).toEqual(before);

    // Commit skipping bad rows: 2 units (apartment 1, parking П-7), 3 new people, 4 links.
    const done = await upload({ house_id: String(house.id), mode: 'commit', skip_invalid: '1' }, file);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ committed: true, created: { units: 2, members: 3, links: 4 } });
    const flat = (await t.call('GET', `${API}/realty?house_id=${house.id}&type=apartment`, { token: admin })).json().main_data.data[0];
    expect(flat).toMatchObject({ number: '1', area: 54.3, floor: 2 });
    const flatResidents = (await t.call('GET', `${API}/residents?realty_id=${flat.id}`, { token: admin })).json().data;
    expect(
      flatResidents
        .map((r: { member_name: string; role_code: string; ownership_share: string | null }) => [r.member_name, r.role_code, r.ownership_share])
        .sort(),
    ).toEqual([
      ['Мельник Оксана Іванівна', 'co_owner', '1/2'],
      ['Мельник Петро Іванович', 'co_owner', '1/2'],
      ['Мельник Софія Петрівна', 'family', null],
    ]);
    // The same person (by phone) on two rows is one member with two units.
    const oksana = (await t.call('GET', `${API}/members?search_query=${encodeURIComponent(`067${p}`)}`, { token: admin })).json().data;
    expect(oksana).toHaveLength(1);
    expect(oksana[0].units.map((u: { number: string }) => u.number).sort()).toEqual(['1', 'П-7']);

    // Importing the same file again: every good row is now a duplicate link or over-shared.
    const again = await upload({ house_id: String(house.id), mode: 'preview' }, file);
    expect(again.json().valid).toBe(0);
  });

  it('reads XLSX files', async () => {
    const house = await makeHouse(t, cityId, complexId);
    await makeUnit(t, house.id, '10');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Реєстр');
    ws.addRow(['№', 'ПІБ', 'Роль', 'Частка', 'Площа']);
    ws.addRow([10, 'Ткачук Марія Олегівна', 'Власник', '', 48.5]);
    ws.addRow([11, 'Ткачук Олег', 'орендар', '', '']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await upload(
      { house_id: String(house.id), mode: 'commit' },
      { name: 'r.xlsx', content: buf, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    );
    expect(res.statusCode, res.body).toBe(200);
    // Unit 10 existed; unit 11 is new.
    expect(res.json().created).toEqual({ units: 1, members: 2, links: 2 });
  });

  it('answers clear 4xx for bad uploads', async () => {
    const house = await makeHouse(t, cityId, complexId);
    expectFieldError(await upload({ house_id: String(house.id) }), 'file');
    expectFieldError(await upload({ house_id: 'x' }, { name: 'a.csv', content: `${HEADER}\n1;;;;Хтось Десь;;;;` }), 'house_id');
    expectFieldError(await upload({ house_id: '999999' }, { name: 'a.csv', content: `${HEADER}\n1;;;;Хтось Десь;;;;` }), 'house_id');
    expectFieldError(await upload({ house_id: String(house.id), mode: 'write' }, { name: 'a.csv', content: `${HEADER}\n1;;;;Хтось;;;;` }), 'mode');
    expectFieldError(await upload({ house_id: String(house.id) }, { name: 'a.csv', content: 'Колонка;Інша\n1;2' }), 'file');
    expectFieldError(await upload({ house_id: String(house.id) }, { name: 'a.csv', content: HEADER }), 'file');
    expectFieldError(await upload({ house_id: String(house.id) }, { name: 'a.xlsx', content: Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]) }), 'file');
    expectFieldError(await upload({ house_id: String(house.id) }, { name: 'a.csv', content: Buffer.from([0xff, 0xfe, 0x41, 0x00]) }), 'file');
    expectErrorBody(await t.call('POST', `${API}/members/import`, { token: admin, body: { house_id: house.id } }), 415);
    const big = upload({ house_id: String(house.id) }, { name: 'a.csv', content: Buffer.alloc(5 * 1024 * 1024 + 10, 0x41) });
    expectErrorBody(await big, 413);
    // Staff outside the house's complex, and without the create permission.
    const other = (await createComplex(t.db, { organizationId: t.organizationId })).id;
    const staff = await createUser(t.db, { organizationId: t.organizationId, permissions: { members: ['view', 'create'] }, complexIds: [other] });
    expectFieldError(
      await upload({ house_id: String(house.id) }, { name: 'a.csv', content: `${HEADER}\n1;;;;Хтось Десь;;;;` }, await t.login(staff.email, staff.password)),
      'house_id',
    );
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { members: ['view'] }, complexIds: [complexId] });
    expectErrorBody(
      await upload({ house_id: String(house.id) }, { name: 'a.csv', content: `${HEADER}\n1;;;;Хтось Десь;;;;` }, await t.login(viewer.email, viewer.password)),
      403,
    );
  });
});
