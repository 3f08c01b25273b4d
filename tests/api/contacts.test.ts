import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complexes } from '../../server/db/schema.ts';
import { ADMIN, API, createUser, expectErrorBody, expectFieldError, uid, type TestApp, setupApp } from './helpers.ts';
import { multipartBody, type FormValue } from './multipart.ts';

let t: TestApp;
let admin: string;
/** Staff with every contacts permission, working in the first demo complex only. */
let staff: string;
let demo: { id: number }[];

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  demo = await t.db.select({ id: complexes.id }).from(complexes).where(eq(complexes.organizationId, t.organizationId)).orderBy(asc(complexes.id));
  const user = await createUser(t.db, {
    organizationId: t.organizationId,
    permissions: { contacts: ['view', 'create', 'edit', 'delete'] },
    complexIds: [demo[0].id],
  });
  staff = await t.login(user.email, user.password);
});
afterAll(() => t?.close());

const form = async (method: 'POST' | 'PUT', url: string, fields: Record<string, FormValue>, token = admin) =>
  t.call(method, `${API}${url}`, { token, ...(await multipartBody(fields)) });
async function section(fields: Record<string, FormValue> = {}, token = admin) {
  const res = await form(
    'POST',
    '/contacts_section',
    { complex_id: demo[0].id, name: 'Керуюча компанія', description: 'Офіс у холі', type: 'management', ...fields },
    token,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

describe('contact groups (multipart)', () => {
  it('creates with POST multipart, renames with POST /contacts_groups/{id}, lists, deletes', async () => {
    const name = `Сантехніки ${uid()}`;
    const created = await form('POST', '/contacts_groups', { name });
    expect(created.statusCode, created.body).toBe(200);
    const group = created.json().data;
    expect(group).toMatchObject({ name, contacts_count: 0 });
    const renamed = await form('POST', `/contacts_groups/${group.id}`, { name: `${name} і електрики` });
    expect(renamed.json().data.name).toBe(`${name} і електрики`);
    const list = (await t.call('GET', `${API}/contacts_groups`, { token: admin })).json();
    expect(Object.keys(list).sort()).toEqual(['data', 'pagination']);
    expect(list.data.map((g: { id: number }) => g.id)).toContain(group.id);
    expect((await t.call('GET', `${API}/contacts_groups/${group.id}`, { token: admin })).json().data.id).toBe(group.id);
    expectFieldError(await form('POST', '/contacts_groups', { name: name.toUpperCase() + ' І ЕЛЕКТРИКИ' }), 'name');
    expectFieldError(await form('POST', '/contacts_groups', { name: '' }), 'name');
    expectErrorBody(await t.call('POST', `${API}/contacts_groups`, { token: admin, body: { name: 'x' } }), 415);
    expect((await t.call('DELETE', `${API}/contacts_groups/${group.id}`, { token: admin })).json()).toEqual({ message: 'Групу видалено.' });
    expectErrorBody(await t.call('GET', `${API}/contacts_groups/${group.id}`, { token: admin }), 404);
  });
});

describe('contact sections (multipart)', () => {
  it('creates with complex_id, name, description, type; PUT changes it; staff stay in their complexes', async () => {
    const s = await section();
    expect(s).toMatchObject({ complex_id: demo[0].id, name: 'Керуюча компанія', description: 'Офіс у холі', type: 'management', contacts_count: 0 });
    const put = await form('PUT', `/contacts_section/${s.id}`, { complex_id: demo[0].id, name: 'Аварійні служби', type: 'emergency' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ name: 'Аварійні служби', type: 'emergency', description: '' });
    expectFieldError(await form('POST', '/contacts_section', { complex_id: demo[0].id, name: 'x', type: 'party' }), 'type');
    expectFieldError(await form('POST', '/contacts_section', { complex_id: demo[1].id, name: 'x', type: 'other' }, staff), 'complex_id');
    const foreign = await section({ complex_id: demo[1].id });
    const ids = (await t.call('GET', `${API}/contacts_section?per_page=1000`, { token: staff })).json().data.map((x: { id: number }) => x.id);
    expect(ids).toContain(s.id);
    expect(ids).not.toContain(foreign.id);
    expectErrorBody(await t.call('GET', `${API}/contacts_section/${foreign.id}`, { token: staff }), 404);
    expectErrorBody(await form('PUT', `/contacts_section/${foreign.id}`, { complex_id: demo[0].id, name: 'x', type: 'other' }, staff), 404);
  });
});

describe('contacts (JSON)', () => {
  it('normalises phones, validates links and e-mails, lists in data plus pagination', async () => {
    const s = await section();
    const res = await t.call('POST', `${API}/contacts`, {
      token: admin,
      body: { name: 'Диспетчерська', phone: '(044) 123-45-67', email: 'Office@Zatyshok.ua', link: 'https://zatyshok.ua/contacts', section_id: s.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json().data;
    expect(c).toMatchObject({
      phone: '+380441234567',
      phone_display: '+380 44 123 4567',
      email: 'office@zatyshok.ua',
      link: 'https://zatyshok.ua/contacts',
      section: 'Керуюча компанія',
      complex_id: demo[0].id,
      group: null,
    });
    for (const phone of ['067 123 45 67', '+38 (067) 123-45-67', '380671234567']) {
      const r = await t.call('POST', `${API}/contacts`, { token: admin, body: { name: 'Майстер', phone, section_id: s.id } });
      expect(r.json().data.phone, phone).toBe('+380671234567');
    }
    expectFieldError(await t.call('POST', `${API}/contacts`, { token: admin, body: { name: 'x', phone: '12345', section_id: s.id } }), 'phone');
    expectFieldError(
      await t.call('POST', `${API}/contacts`, { token: admin, body: { name: 'x', phone: '0441234567', link: 'javascript:alert(1)', section_id: s.id } }),
      'link',
    );
    expectFieldError(
      await t.call('POST', `${API}/contacts`, { token: admin, body: { name: 'x', phone: '0441234567', link: 'ftp://files.ua', section_id: s.id } }),
      'link',
    );
    expectFieldError(await t.call('POST', `${API}/contacts`, { token: admin, body: { name: 'x', email: 'не пошта', section_id: s.id } }), 'email');
    expectFieldError(await t.call('POST', `${API}/contacts`, { token: admin, body: { name: 'x', section_id: s.id } }), 'phone');
    expectFieldError(await t.call('POST', `${API}/contacts`, { token: admin, body: { name: 'x', phone: '0441234567', section_id: 999999 } }), 'section_id');
    expectFieldError(
      await t.call('POST', `${API}/contacts`, { token: admin, body: { name: 'x', phone: '0441234567', section_id: s.id, group_id: 999999 } }),
      'group_id',
    );

    const list = (await t.call('GET', `${API}/contacts?section_id=${s.id}&search_query=${encodeURIComponent('044 123')}`, { token: admin })).json();
    expect(Object.keys(list).sort()).toEqual(['data', 'pagination']);
    expect(list.data.map((x: { id: number }) => x.id)).toEqual([c.id]);
    expect((await t.call('GET', `${API}/contacts/${c.id}`, { token: admin })).json()).toEqual({ data: c });
  });

  it('PUT and DELETE; a section with contacts cannot be deleted; deleting a group keeps its contacts', async () => {
    const s = await section();
    const group = (await form('POST', '/contacts_groups', { name: `Ліфтери ${uid()}` })).json().data;
    const c = (
      await t.call('POST', `${API}/contacts`, { token: admin, body: { name: 'Ліфтова служба', phone: '0445550000', section_id: s.id, group_id: group.id } })
    ).json().data;
    expect(c.group).toBe(group.name);
    const put = await t.call('PUT', `${API}/contacts/${c.id}`, { token: admin, body: { ...c, name: 'Ліфтова служба «Вгору»', phone: '+380445550001' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ name: 'Ліфтова служба «Вгору»', phone: '+380445550001', group_id: group.id });
    const conflict = expectErrorBody(await t.call('DELETE', `${API}/contacts_section/${s.id}`, { token: admin }), 409);
    expect(conflict.message).toContain('1 контакт');
    await t.call('DELETE', `${API}/contacts_groups/${group.id}`, { token: admin });
    expect((await t.call('GET', `${API}/contacts/${c.id}`, { token: admin })).json().data.group_id).toBeNull();
    expect((await t.call('DELETE', `${API}/contacts/${c.id}`, { token: admin })).json()).toEqual({ message: 'Контакт видалено.' });
    expect((await t.call('DELETE', `${API}/contacts_section/${s.id}`, { token: admin })).json()).toEqual({ message: 'Розділ видалено.' });
  });

  it("staff do not see another complex's contacts (404)", async () => {
    const foreignSection = await section({ complex_id: demo[1].id });
    const c = (await t.call('POST', `${API}/contacts`, { token: admin, body: { name: 'Охорона', phone: '0671112233', section_id: foreignSection.id } })).json()
      .data;
    expectErrorBody(await t.call('GET', `${API}/contacts/${c.id}`, { token: staff }), 404);
    expectErrorBody(
      await t.call('PUT', `${API}/contacts/${c.id}`, { token: staff, body: { name: 'x', phone: '0671112233', section_id: foreignSection.id } }),
      404,
    );
    expect((await t.call('GET', `${API}/contacts?per_page=1000`, { token: staff })).json().data.map((x: { id: number }) => x.id)).not.toContain(c.id);
    expectFieldError(
      await t.call('POST', `${API}/contacts`, { token: staff, body: { name: 'x', phone: '0671112233', section_id: foreignSection.id } }),
      'section_id',
    );
  });
});
