import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, API, createComplex, createUser, expectErrorBody, expectFieldError, uid, type TestApp, setupApp } from './helpers.ts';
import { makeCity, makeHouse, makeUnit } from './members-fixtures.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

const E = `${API}/members/export`;

describe('members export', () => {
  it('exports the current filters as CSV and XLSX, with units', async () => {
    const tag = uid();
    const cityId = (await makeCity(t)).id;
    const complex = await createComplex(t.db, { organizationId: t.organizationId });
    const unit = await makeUnit(t, (await makeHouse(t, cityId, complex.id)).id, '42');
    for (const [name, status] of [
      [`Андрієнко ${tag}`, 'active'],
      [`Бабенко ${tag}`, 'inactive'],
    ]) {
      const res = await t.call('POST', `${API}/members`, {
        token: admin,
        body: { name, status, phone: null, realty_id: unit.id, role_id: null, ownership_share: '1/2' },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Both are owners (the default role) of half the unit.
    const csv = await t.call('GET', `${E}?format=csv&search_query=${tag}&complex_id=${complex.id}`, { token: admin });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="members-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe("ID;Прізвище, ім'я, по батькові;Телефон;E-mail;Статус;Приміщення;Транспорт;Примітка;Додано");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`Андрієнко ${tag}`);
    expect(lines[1]).toContain('№ 42 (Власник, 1/2)');
    const inactive = await t.call('GET', `${E}?format=csv&search_query=${tag}&status=inactive`, { token: admin });
    expect(inactive.body.trim().split('\n')).toHaveLength(2);

    const xlsx = await t.call('GET', `${E}?format=xlsx&search_query=${tag}`, { token: admin });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Мешканці')!;
    expect(sheet.getRow(1).getCell(2).value).toBe("Прізвище, ім'я, по батькові");
    expect(sheet.getRow(2).getCell(2).value).toBe(`Андрієнко ${tag}`);
    expect(sheet.getRow(3).getCell(5).value).toBe('Неактивний');
    expect(sheet.rowCount).toBe(3);
  });

  it('validates the query and the permission', async () => {
    expectFieldError(await t.call('GET', `${E}?format=pdf`, { token: admin }), 'format');
    expectFieldError(await t.call('GET', `${E}?house_ids[]=x`, { token: admin }), 'house_ids.0');
    expectErrorBody(await t.call('GET', E), 401);
    const none = await createUser(t.db, { organizationId: t.organizationId, permissions: { complexes: ['view'] } });
    expectErrorBody(await t.call('GET', E, { token: await t.login(none.email, none.password) }), 403);
  });
});
