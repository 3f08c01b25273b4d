import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, API, createComplex, createUser, expectFieldError, setupApp, STAFF, uid, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

const csvRows = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/)
    .map((l) => l.split(';'));

describe('GET /staff/export', () => {
  it('streams every staff member as CSV for Excel, with the list’s filters', async () => {
    const res = await t.call('GET', `${API}/staff/export?format=csv`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="staff-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const rows = csvRows(res.body);
    expect(rows[0]).toEqual(['ID', "Ім'я", 'E-mail', 'Телефон', 'Роль', 'Відділ', 'Комплекси', 'Додано']);
    expect(rows.some((r) => r[2] === STAFF.email)).toBe(true);

    const filtered = csvRows((await t.call('GET', `${API}/staff/export?search_query=${encodeURIComponent(STAFF.email)}`, { token: admin })).body);
    expect(filtered.slice(1).map((r) => r[2])).toEqual([STAFF.email]);
  });

  it('exports XLSX that Excel opens', async () => {
    const res = await t.call('GET', `${API}/staff/export?format=xlsx`, { token: admin });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Працівники')!;
    expect(sheet.getRow(1).getCell(2).value).toBe("Ім'я");
    const emails = sheet.getColumn(3).values.slice(2);
    expect(emails).toContain(STAFF.email);
  });

  it('shows a staff user only the colleagues of their complexes', async () => {
    const mine = await createComplex(t.db, { organizationId: t.organizationId });
    const other = await createComplex(t.db, { organizationId: t.organizationId });
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { staff: ['view'] }, complexIds: [mine.id] });
    const colleague = await createUser(t.db, {
      organizationId: t.organizationId,
      permissions: { complexes: ['view'] },
      complexIds: [mine.id],
      email: `c-${uid()}@test.ua`,
    });
    const stranger = await createUser(t.db, {
      organizationId: t.organizationId,
      permissions: { complexes: ['view'] },
      complexIds: [other.id],
      email: `s-${uid()}@test.ua`,
    });
    const token = await t.login(viewer.email, viewer.password);
    const emails = csvRows((await t.call('GET', `${API}/staff/export`, { token })).body)
      .slice(1)
      .map((r) => r[2]);
    expect(emails).toContain(colleague.email);
    expect(emails).not.toContain(stranger.email);
    expect(emails).not.toContain(ADMIN.email);
  });

  it('needs the staff view right, and refuses an unknown format', async () => {
    const clerk = await createUser(t.db, { organizationId: t.organizationId, permissions: { complexes: ['view'] } });
    const token = await t.login(clerk.email, clerk.password);
    expect((await t.call('GET', `${API}/staff/export`, { token })).statusCode).toBe(403);
    expectFieldError(await t.call('GET', `${API}/staff/export?format=pdf`, { token: admin }), 'format');
  });
});
