import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVED_VIEWS_LIMIT } from '../../contract/savedViews.ts';
import { savedViews } from '../../server/db/schema.ts';
import { API, ADMIN, STAFF, createOrganization, createUser, expectFieldError, setupApp, uid, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let dispatcher: string;
beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  dispatcher = await t.login(STAFF.email, STAFF.password);
});
afterAll(() => t?.close());

const list = (token: string, query = 'list=requests') => t.call('GET', `${API}/saved-views?${query}`, { token });
const save = (token: string, body: unknown) => t.call('POST', `${API}/saved-views`, { token, body });
const names = async (token: string) => {
  const res = await list(token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { name: string }[]).map((v) => v.name);
};

describe('saved views of a list', () => {
  it('are saved, listed by name in Ukrainian order, renamed, re-filtered and deleted by their owner', async () => {
    const user = await createUser(t.db, { organizationId: t.organizationId, permissions: { service_requests: ['view'] } });
    const token = await t.login(user.email, user.password);
    expect(await names(token)).toEqual([]);

    const created = await save(token, { list: 'requests', name: '  Прострочені  ', query: '?overdue=1&sort=deadline&order=ASC&page=3' });
    expect(created.statusCode, created.body).toBe(200);
    const view = created.json().data;
    // Trimmed, the «?» and the page dropped: a view opens on the first page.
    expect(view).toMatchObject({ list: 'requests', name: 'Прострочені', query: 'overdue=1&sort=deadline&order=ASC' });
    for (const name of ['Ґанок', 'Єдині', 'Гараж', 'Іноземні'])
      expect((await save(token, { list: 'requests', name, query: 'stage=new' })).statusCode).toBe(200);
    expect(await names(token)).toEqual(['Гараж', 'Ґанок', 'Єдині', 'Іноземні', 'Прострочені']);

    const renamed = await t.call('PUT', `${API}/saved-views/${view.id}`, { token, body: { name: 'Мої прострочені' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Мої прострочені', query: 'overdue=1&sort=deadline&order=ASC' });
    const refiltered = await t.call('PUT', `${API}/saved-views/${view.id}`, { token, body: { query: 'stage=done' } });
    expect(refiltered.json().data).toMatchObject({ name: 'Мої прострочені', query: 'stage=done' });

    const deleted = await t.call('DELETE', `${API}/saved-views/${view.id}`, { token });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().message).toBe('Вид видалено.');
    expect(await names(token)).toEqual(['Гараж', 'Ґанок', 'Єдині', 'Іноземні']);
    expect((await t.call('DELETE', `${API}/saved-views/${view.id}`, { token })).statusCode).toBe(404);
  });

  it('refuse bad input with a Ukrainian message and change nothing', async () => {
    const user = await createUser(t.db, { organizationId: t.organizationId, isAdmin: true });
    const token = await t.login(user.email, user.password);
    const first = (await save(token, { list: 'requests', name: 'Нові', query: 'stage=new' })).json().data;

    expectFieldError(await save(token, { list: 'requests', name: '   ', query: '' }), 'name');
    expectFieldError(await save(token, { list: 'requests', name: 'я'.repeat(61), query: '' }), 'name');
    expectFieldError(await save(token, { list: 'requests', name: 'Довгий', query: 'q='.padEnd(2001, 'x') }), 'query');
    expectFieldError(await save(token, { list: 'requests', name: 'Нуль', query: 'q=\u0000' }), 'query');
    expectFieldError(await save(token, { list: 'members', name: 'Чужий список', query: '' }), 'list');
    expectFieldError(await save(token, { name: 'Без списку', query: '' }), 'list');
    // The same name in another case is the same name.
    const twin = await save(token, { list: 'requests', name: 'НОВІ', query: 'stage=done' });
    expect(expectFieldError(twin, 'name').errors!.name[0]).toMatch(/вже є/);
    expect((await t.call('PUT', `${API}/saved-views/${first.id}`, { token, body: {} })).statusCode).toBe(422);
    const other = (await save(token, { list: 'requests', name: 'Виконані', query: 'stage=done' })).json().data;
    expectFieldError(await t.call('PUT', `${API}/saved-views/${other.id}`, { token, body: { name: 'нові' } }), 'name');
    expect((await t.call('PUT', `${API}/saved-views/abc`, { token, body: { name: 'Х' } })).statusCode).toBe(422);
    expectFieldError(await list(token, 'list=nothing'), 'list');
    expectFieldError(await list(token, ''), 'list');

    const views = (await list(token)).json().data;
    expect(views.map((v: { name: string; query: string }) => [v.name, v.query])).toEqual([
      ['Виконані', 'stage=done'],
      ['Нові', 'stage=new'],
    ]);
  });

  it(`keep at most ${SAVED_VIEWS_LIMIT} views of one list per user`, async () => {
    const user = await createUser(t.db, { organizationId: t.organizationId, isAdmin: true });
    const token = await t.login(user.email, user.password);
    for (let i = 0; i < SAVED_VIEWS_LIMIT; i++) expect((await save(token, { list: 'requests', name: `Вид ${i}`, query: `q=${i}` })).statusCode).toBe(200);
    const over = await save(token, { list: 'requests', name: 'Зайвий', query: '' });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe('Можна зберегти щонайбільше 50 видів одного списку. Видаліть непотрібні.');
    expect((await names(token)).length).toBe(SAVED_VIEWS_LIMIT);
    // Another user is not limited by this one's views.
    expect((await save(admin, { list: 'requests', name: `Адмінський ${uid()}`, query: '' })).statusCode).toBe(200);
  });

  it("each user sees and touches only their own: another user's view answers 404 and stays as it was", async () => {
    const mine = (await save(dispatcher, { list: 'requests', name: `Диспетчерський ${uid()}`, query: 'stage=new' })).json().data;
    const colleague = await createUser(t.db, { organizationId: t.organizationId, isAdmin: true });
    const stranger = await createUser(t.db, { organizationId: (await createOrganization(t.db)).id, isAdmin: true });
    for (const user of [colleague, stranger]) {
      const token = await t.login(user.email, user.password);
      expect(await names(token)).not.toContain(mine.name);
      const put = await t.call('PUT', `${API}/saved-views/${mine.id}`, { token, body: { name: 'Перехоплений' } });
      expect(put.statusCode).toBe(404);
      expect(put.json().message).toBe('Збережений вид не знайдено.');
      expect((await t.call('DELETE', `${API}/saved-views/${mine.id}`, { token })).statusCode).toBe(404);
    }
    expect(await names(dispatcher)).toContain(mine.name);
    expect((await list(dispatcher)).json().data.find((v: { id: number }) => v.id === mine.id).query).toBe('stage=new');
  });

  it('answer 401 without a sign-in and 403 to a role that may not open the list', async () => {
    expect((await t.call('GET', `${API}/saved-views?list=requests`)).statusCode).toBe(401);
    expect((await t.call('POST', `${API}/saved-views`, { body: { list: 'requests', name: 'Х', query: '' } })).statusCode).toBe(401);
    const mine = (await save(admin, { list: 'requests', name: `Адмінський ${uid()}`, query: '' })).json().data;
    expect((await t.call('DELETE', `${API}/saved-views/${mine.id}`)).statusCode).toBe(401);

    const user = await createUser(t.db, { organizationId: t.organizationId, permissions: { members: ['view'] } });
    const token = await t.login(user.email, user.password);
    for (const res of [await list(token), await save(token, { list: 'requests', name: 'Х', query: '' })]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Недостатньо прав для цієї дії.');
    }
  });

  it("go with their owner's account", async () => {
    const user = await createUser(t.db, { organizationId: t.organizationId, isAdmin: true });
    const token = await t.login(user.email, user.password);
    expect((await save(token, { list: 'requests', name: 'Тимчасовий', query: '' })).statusCode).toBe(200);
    const del = await t.call('DELETE', `${API}/staff/${user.id}`, { token: admin });
    expect(del.statusCode, del.body).toBe(200);
    expect(await t.db.select().from(savedViews).where(eq(savedViews.userId, user.id))).toEqual([]);
  });
});
