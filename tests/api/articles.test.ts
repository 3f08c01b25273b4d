import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles, complexes, houses } from '../../server/db/schema.ts';
import { ADMIN, API, createComplex, createOrganization, createUser, expectErrorBody, expectFieldError, STAFF, type TestApp, setupApp } from './helpers.ts';
import { multipartBody, PDF, PNG } from './multipart.ts';
import { makeCity, makeHouse } from './members-fixtures.ts';

let t: TestApp;
let admin: string;
let staff: string;
let dataDir: string;
/** The demo complexes: the dispatcher works in the first two. */
let demo: { id: number; name: string; houseIds: number[] }[];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-articles-'));
  t = await setupApp({ env: { DATA_DIR: dataDir } });
  admin = await t.login(ADMIN.email, ADMIN.password);
  staff = await t.login(STAFF.email, STAFF.password);
  const rows = await t.db.select().from(complexes).where(eq(complexes.organizationId, t.organizationId)).orderBy(asc(complexes.id));
  demo = await Promise.all(
    rows.map(async (c) => ({
      id: c.id,
      name: c.name,
      houseIds: (await t.db.select({ id: houses.id }).from(houses).where(eq(houses.complexId, c.id)).orderBy(asc(houses.id))).map((h) => h.id),
    })),
  );
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const A = `${API}/articles`;
const base = () => ({ title: 'Відключення води', body: '<p>Завтра з 10:00 до 14:00.</p>', complex_ids: [demo[0].id], status: 'published' });
const create = (body: unknown, token = admin) => t.call('POST', A, { token, body });
const update = (id: number, body: unknown, token = admin) => t.call('POST', `${A}/${id}`, { token, body });
const list = (query = '', token = admin) => t.call('GET', `${A}${query}`, { token });
async function createOk(body: Record<string, unknown> = {}, token = admin) {
  const res = await create({ ...base(), ...body }, token);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json())).toEqual(['data']);
  return res.json().data;
}
const listIds = async (query: string, token = admin) => {
  const res = await list(query, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().main_data.data as { id: number }[]).map((a) => a.id);
};

describe('CRUD and shapes', () => {
  it('creates from a JSON form, reads, lists in main_data, updates by POST /articles/{id}, deletes', async () => {
    const created = await createOk({ title: '  Збори мешканців  ', is_emergency: true, house_ids: [demo[0].houseIds[0]] });
    expect(created).toMatchObject({
      title: 'Збори мешканців',
      body: '<p>Завтра з 10:00 до 14:00.</p>',
      excerpt: 'Завтра з 10:00 до 14:00.',
      status: 'published',
      is_emergency: true,
      complex_ids: [demo[0].id],
      complexes: [{ id: demo[0].id, name: demo[0].name }],
      house_ids: [demo[0].houseIds[0]],
      author: 'Адміністратор',
      image_id: null,
      image_url: null,
    });
    expect(created.houses[0].address).toMatch(/Липова/);
    expect(Date.now() - Date.parse(created.publish_at)).toBeLessThan(60_000);

    const res = await list(`?per_page=2&page=1&search_query=${encodeURIComponent('Збори мешканців')}`);
    expect(res.statusCode).toBe(200);
    const { main_data } = res.json();
    expect(Object.keys(main_data).sort()).toEqual(['current_page', 'data', 'from', 'last_page', 'per_page', 'to', 'total']);
    expect(main_data.per_page).toBe(2);
    expect(main_data.data[0].id).toBe(created.id);

    expect((await t.call('GET', `${A}/${created.id}`, { token: admin })).json()).toEqual({ data: created });

    const changed = await update(created.id, { ...base(), title: 'Збори перенесено', is_emergency: false });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ id: created.id, title: 'Збори перенесено', is_emergency: false, house_ids: [] });

    const del = await t.call('DELETE', `${A}/${created.id}`, { token: admin });
    expect(del.json()).toEqual({ message: 'Новину видалено.' });
    expectErrorBody(await t.call('GET', `${A}/${created.id}`, { token: admin }), 404);
    expectErrorBody(await t.call('DELETE', `${A}/${created.id}`, { token: admin }), 404);
  });

  it('refuses multipart and bad input with 4xx, never 500', async () => {
    const { raw, contentType } = await multipartBody({ title: 'x', body: 'y' });
    expectErrorBody(await t.call('POST', A, { token: admin, raw, contentType }), 415);
    expectFieldError(await create({ ...base(), title: '' }), 'title');
    expectFieldError(await create({ ...base(), body: '<p>   </p><script>x</script>' }), 'body');
    expectFieldError(await create({ ...base(), status: 'archived' }), 'status');
    expectFieldError(await create({ ...base(), publish_at: 'завтра' }), 'publish_at');
    expectFieldError(await create({ ...base(), publish_at: '2026-02-30T10:00:00Z' }), 'publish_at');
    expectFieldError(await create({ ...base(), complex_ids: [] }), 'complex_ids');
    expectFieldError(await create({ ...base(), complex_ids: ['abc'] }), 'complex_ids.0');
    expectFieldError(await create({ ...base(), is_emergency: 'так' }), 'is_emergency');
    expectFieldError(await list('?status=old'), 'status');
    expectFieldError(await list('?sort=password'), 'sort');
    expectErrorBody(await t.call('GET', `${A}/0`, { token: admin }), 422);
  });

  it('takes a cover image uploaded through /media, but not a document or a missing one', async () => {
    const img = await multipartBody({ file: { file: PNG, name: 'cover.png' } });
    const image = (await t.call('POST', `${API}/media`, { token: admin, ...img })).json().data;
    const created = await createOk({ image_id: image.id });
    // The cover is named by its random key, the same URL the upload answered.
    expect(created.image_url).toBe(image.url);
    expect(created.image_url).toMatch(/^\/api\/admin\/media\/[0-9a-f]{32}$/);
    expect((await t.call('GET', created.image_url, { token: admin })).rawPayload).toEqual(PNG);
    // Saved again unchanged, the article keeps its own cover; another article cannot take it.
    expect((await update(created.id, { ...base(), image_id: image.id })).statusCode).toBe(200);
    expectFieldError(await create({ ...base(), image_id: image.id }), 'image_id');
    const doc = await multipartBody({ file: { file: PDF, name: 'a.pdf' } });
    const document = (await t.call('POST', `${API}/media/document`, { token: admin, ...doc })).json().data;
    expectFieldError(await create({ ...base(), image_id: document.id }), 'image_id');
    expectFieldError(await create({ ...base(), image_id: 999999 }), 'image_id');
  });

  it('needs the articles permissions', async () => {
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { articles: ['view'] }, complexIds: [demo[0].id] });
    const token = await t.login(viewer.email, viewer.password);
    expect((await list('', token)).statusCode).toBe(200);
    expectErrorBody(await create(base(), token), 403);
    const created = await createOk();
    expectErrorBody(await update(created.id, base(), token), 403);
    expectErrorBody(await t.call('DELETE', `${A}/${created.id}`, { token }), 403);
    expectErrorBody(await t.call('GET', A), 401);
  });
});

describe('sanitising', () => {
  it('stores rich text without scripts, handlers or javascript: URLs, keeping the formatting', async () => {
    const attack = [
      '<h2 onclick="steal()">Заголовок</h2>',
      '<p style="text-align: center; background: url(javascript:alert(1))">Текст <strong>жирний</strong> <em>курсив</em></p>',
      '<script>alert(document.cookie)</script>',
      '<img src=x onerror="alert(1)">',
      '<a href="javascript:alert(1)">клік</a>',
      '<a href="JaVaScRiPt&colon;alert(1)">клік2</a>',
      '<a href="https://kyiv.ua/news" onmouseover="x()">сайт</a>',
      '<iframe src="https://evil.example"></iframe>',
      '<svg onload="alert(1)"><circle /></svg>',
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">дані</a>',
      '<ul><li>пункт</li></ul><style>body{display:none}</style>',
    ].join('');
    const created = await createOk({ body: attack });
    const stored = (await t.call('GET', `${A}/${created.id}`, { token: admin })).json().data.body as string;
    for (const html of [created.body as string, stored]) {
      expect(html).not.toMatch(/<script|<iframe|<svg|<img|<style|onerror|onclick|onload|onmouseover|javascript|data:text/i);
      expect(html).toContain('<h2>Заголовок</h2>');
      expect(html).toContain('<p style="text-align:center">Текст <strong>жирний</strong> <em>курсив</em></p>');
      expect(html).toContain('<a href="https://kyiv.ua/news" target="_blank" rel="noopener noreferrer nofollow">сайт</a>');
      expect(html).toContain('<ul><li>пункт</li></ul>');
    }
    const [row] = await t.db.select({ body: articles.body }).from(articles).where(eq(articles.id, created.id));
    expect(row.body).toBe(stored);
  });

  it('the excerpt is the plain text: tags out, entities decoded, spaces (no-break ones too) collapsed, cut at 200 characters', async () => {
    const created = await createOk({
      title: 'Уривок',
      body: '<h2>Тиша&nbsp;&nbsp;вночі</h2><p>Ціни: 5 &lt; 7 &amp; 8 &gt; 3, «Дім&quot;Сад» \u00a0 і\u00a0кінець</p>',
    });
    expect(created.excerpt).toBe('Тиша вночі Ціни: 5 < 7 & 8 > 3, «Дім"Сад» і кінець');
    const long = await createOk({ title: 'Довга', body: `<p>${'слово '.repeat(60)}</p>` });
    expect(long.excerpt).toHaveLength(200);
    expect(long.excerpt).toBe(`${'слово '.repeat(60).slice(0, 199)}…`);
    // The list reads the same excerpts as the record alone.
    const page = (await list('?page=1&per_page=50&sort=created_at&order=desc')).json().main_data.data as { id: number; excerpt: string }[];
    expect(page.find((a) => a.id === created.id)?.excerpt).toBe(created.excerpt);
    expect(page.find((a) => a.id === long.id)?.excerpt).toBe(long.excerpt);
  });
});

describe('scheduled publishing', () => {
  it('a future publish time reads as scheduled, then as published once the time has come', async () => {
    const soon = new Date(Date.now() + 1500).toISOString();
    const created = await createOk({ publish_at: soon, title: 'Заплановано' });
    expect(created.status).toBe('scheduled');
    expect(created.publish_at).toBe(soon);
    expect(await listIds('?status=scheduled&per_page=100')).toContain(created.id);
    expect(await listIds('?status=published&per_page=100')).not.toContain(created.id);
    await new Promise((r) => setTimeout(r, 1700));
    expect((await t.call('GET', `${A}/${created.id}`, { token: admin })).json().data.status).toBe('published');
    expect(await listIds('?status=published&per_page=100')).toContain(created.id);
    expect(await listIds('?status=scheduled&per_page=100')).not.toContain(created.id);
  });

  it('a draft stays a draft whatever its planned time; publishing it without a time publishes now', async () => {
    const draft = await createOk({ status: 'draft', publish_at: null });
    expect(draft).toMatchObject({ status: 'draft', publish_at: null });
    expect(await listIds('?status=draft&per_page=100')).toContain(draft.id);
    const planned = await createOk({ status: 'draft', publish_at: '2020-01-01T09:00:00Z' });
    expect(planned.status).toBe('draft');
    const published = (await update(draft.id, { ...base(), status: 'published' })).json().data;
    expect(published.status).toBe('published');
    expect(Date.now() - Date.parse(published.publish_at)).toBeLessThan(60_000);
  });
});

describe('audience and scope', () => {
  it('checks complexes and houses against the user (422 for what is out of their reach)', async () => {
    const stranger = await createComplex(t.db, { organizationId: (await createOrganization(t.db)).id });
    expectFieldError(await create({ ...base(), complex_ids: [stranger.id] }), 'complex_ids');
    // The dispatcher works in the first two demo complexes only.
    expectFieldError(await create({ ...base(), complex_ids: [demo[2].id] }, staff), 'complex_ids');
    expectFieldError(await create({ ...base(), complex_ids: [demo[0].id], house_ids: [demo[1].houseIds[0]] }), 'house_ids');
    expectFieldError(await create({ ...base(), complex_ids: [], house_ids: [demo[2].houseIds[0]] }, staff), 'house_ids');
    const fromHouses = await createOk({ complex_ids: [], house_ids: [demo[1].houseIds[0]] }, staff);
    expect(fromHouses.complex_ids).toEqual([demo[1].id]);
  });

  it('staff see content for their complexes only; others are 404, mixed ones read-only', async () => {
    const theirs = await createOk({ complex_ids: [demo[0].id] });
    const foreign = await createOk({ complex_ids: [demo[3].id] });
    const mixed = await createOk({ complex_ids: [demo[1].id, demo[4].id] });
    const ids = await listIds('?per_page=1000', staff);
    expect(ids).toContain(theirs.id);
    expect(ids).toContain(mixed.id);
    expect(ids).not.toContain(foreign.id);
    expectErrorBody(await t.call('GET', `${A}/${foreign.id}`, { token: staff }), 404);
    expectErrorBody(await update(foreign.id, base(), staff), 404);
    expect((await t.call('GET', `${A}/${mixed.id}`, { token: staff })).statusCode).toBe(200);
    expectErrorBody(await update(mixed.id, base(), staff), 403);
    expect((await update(theirs.id, { ...base(), title: 'Змінено диспетчером' }, staff)).json().data.title).toBe('Змінено диспетчером');
  });

  it('filters by the header selection: the complex, then whole-complex news or news for a chosen house', async () => {
    const [h1, h2] = demo[1].houseIds;
    const whole = await createOk({ complex_ids: [demo[1].id] });
    const forH1 = await createOk({ complex_ids: [demo[1].id], house_ids: [h1] });
    const forH2 = await createOk({ complex_ids: [demo[1].id], house_ids: [h2] });
    const elsewhere = await createOk({ complex_ids: [demo[0].id] });
    const inComplex = await listIds(`?complex_id=${demo[1].id}&per_page=1000`);
    expect(inComplex).toEqual(expect.arrayContaining([whole.id, forH1.id, forH2.id]));
    expect(inComplex).not.toContain(elsewhere.id);
    const onlyH1 = await listIds(`?complex_id=${demo[1].id}&house_ids[]=${h1}&per_page=1000`);
    expect(onlyH1).toEqual(expect.arrayContaining([whole.id, forH1.id]));
    expect(onlyH1).not.toContain(forH2.id);
    expect(onlyH1).not.toContain(elsewhere.id);
    const both = await listIds(`?complex_id=${demo[1].id}&house_ids[]=${h1}&house_ids[]=${h2}&per_page=1000`);
    expect(both).toEqual(expect.arrayContaining([whole.id, forH1.id, forH2.id]));
  });

  it('searches titles and sorts newest first by default', async () => {
    const marker = `Пошук-${Date.now()}`;
    const a = await createOk({ title: `${marker} перша`, publish_at: '2025-01-01T10:00:00Z' });
    const b = await createOk({ title: `${marker} друга`, publish_at: '2025-02-01T10:00:00Z' });
    expect(await listIds(`?search_query=${encodeURIComponent(marker)}`)).toEqual([b.id, a.id]);
    expect(await listIds(`?search_query=${encodeURIComponent(marker)}&sort=publish_at&order=asc`)).toEqual([a.id, b.id]);
    expect(await listIds(`?search_query=${encodeURIComponent('%')}`)).toEqual([]);
  });
});

describe("a complex's news in publish order (walked on the complex's links)", () => {
  it('orders by publish time both ways, drafts without a time last, narrows by house, and follows a new time or a new complex at once', async () => {
    const city = await makeCity(t);
    const c = (await createComplex(t.db, { organizationId: t.organizationId })).id;
    const other = (await createComplex(t.db, { organizationId: t.organizationId })).id;
    const [h1, h2] = [(await makeHouse(t, city.id, c)).id, (await makeHouse(t, city.id, c)).id];
    const at = (day: number) => `2025-03-${String(day).padStart(2, '0')}T10:00:00.000Z`;
    const a = await createOk({ complex_ids: [c], publish_at: at(5) });
    const b = await createOk({ complex_ids: [c, other], publish_at: at(9) });
    // The same time as b: the later id first, newest first.
    const same = await createOk({ complex_ids: [c], publish_at: at(9) });
    const draft = await createOk({ complex_ids: [c], status: 'draft', publish_at: null });
    const forH1 = await createOk({ complex_ids: [c], house_ids: [h1], publish_at: at(7) });
    const elsewhere = await createOk({ complex_ids: [other], publish_at: at(8) });
    const ids = (extra: string) => listIds(`?complex_id=${c}&sort=publish_at${extra}`);
    expect(await ids('&order=desc')).toEqual([same.id, b.id, forH1.id, a.id, draft.id]);
    expect(await ids('&order=asc')).toEqual([a.id, forH1.id, b.id, same.id, draft.id]);
    expect(await ids(`&order=desc&house_ids[]=${h2}`)).toEqual([same.id, b.id, a.id, draft.id]);
    expect(await ids(`&order=desc&house_ids[]=${h1}`)).toEqual([same.id, b.id, forH1.id, a.id, draft.id]);
    const pages = [1, 2, 3].map((page) => ids(`&order=desc&per_page=2&page=${page}`));
    expect((await Promise.all(pages)).flat()).toEqual([same.id, b.id, forH1.id, a.id, draft.id]);
    expect((await list(`?complex_id=${c}&sort=publish_at&order=desc&per_page=2`)).json().main_data.total).toBe(5);
    // Staff of the other complex walking this one's links see only the news meant for theirs too.
    const neighbour = await createUser(t.db, { organizationId: t.organizationId, permissions: { articles: ['view'] }, complexIds: [other] });
    const theirs = await t.login(neighbour.email, neighbour.password);
    expect(await listIds(`?complex_id=${c}&sort=publish_at&order=desc`, theirs)).toEqual([b.id]);
    // A new time moves the news at once, whoever writes it (the form, or a statement of its own).
    expect((await update(a.id, { ...base(), complex_ids: [c], publish_at: at(20) })).statusCode).toBe(200);
    await t.db
      .update(articles)
      .set({ publishAt: new Date(at(1)) })
      .where(eq(articles.id, same.id));
    expect(await ids('&order=desc')).toEqual([a.id, b.id, forH1.id, same.id, draft.id]);
    // Another complex's news joins the list in its place; one taken off the complex leaves it.
    expect((await update(elsewhere.id, { ...base(), complex_ids: [other, c], publish_at: at(8) })).statusCode).toBe(200);
    expect((await update(b.id, { ...base(), complex_ids: [other], publish_at: at(9) })).statusCode).toBe(200);
    expect(await ids('&order=desc')).toEqual([a.id, elsewhere.id, forH1.id, same.id, draft.id]);
    expect(await ids('&order=asc')).toEqual([same.id, forH1.id, elsewhere.id, a.id, draft.id]);
  });
});
