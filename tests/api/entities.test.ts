import { parse } from 'csv-parse/sync';
import { asc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITIES } from '../../contract/entities.ts';
import { exportFields, inputFields, sortFields, type EntityDeclaration } from '../../contract/entity.ts';
import { ACTIONS, type Rules } from '../../contract/permissions.ts';
import { complexes, houses } from '../../server/db/schema.ts';
import { itemAdapters, listAdapters } from '../../src/dataProvider/shapes.ts';
import { entityBody, sampleRefs } from './entitySamples.ts';
import { ADMIN, API, createUser, expectErrorBody, expectFieldError, setupApp, uid, UKRAINIAN, type Method, type TestApp } from './helpers.ts';

/**
 * Every declared entity (contract/entities.ts) through its generic API: the same questions for
 * each, so that an entity cannot behave differently from the others. A new declaration is tested
 * here without a line of its own.
 */

let t: TestApp;
let admin: string;
/** Two complexes with a house each: the staff users below work in the first only. */
let A: { complexId: number; houseId: number; refs: Record<string, number> };
let B: { complexId: number; houseId: number; refs: Record<string, number> };

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const rows = await t.db
    .select({ complexId: complexes.id, houseId: houses.id })
    .from(houses)
    .innerJoin(complexes, eq(complexes.id, houses.complexId))
    .where(eq(houses.organizationId, t.organizationId))
    .orderBy(asc(complexes.id), asc(houses.id));
  const b = rows.find((r) => r.complexId !== rows[0].complexId)!;
  A = { ...rows[0], refs: await sampleRefs(t, admin, rows[0]) };
  B = { ...b, refs: await sampleRefs(t, admin, b) };
});
afterAll(() => t?.close());

const staffWith = async (rules: Rules) => {
  const user = await createUser(t.db, { organizationId: t.organizationId, permissions: rules, complexIds: [A.complexId] });
  return t.login(user.email, user.password);
};

type Rec = Record<string, unknown> & { id: number; updated_at: string };

describe.each(ENTITIES.map((e) => [e.name, e as EntityDeclaration] as const))('%s', (_name, e) => {
  const url = `${API}${e.path}`;
  const sample = (side = A, unique = uid()) =>
    e.sample({ houseId: side.houseId, complexId: side.complexId, unique, refs: side.refs }) as Record<string, unknown>;
  /** A create or update as the SPA sends it: JSON, or a multipart form for `encoding: 'multipart'`. */
  const send = async (method: Method, target: string, token: string, body: unknown, headers?: Record<string, string>) =>
    t.call(method, target, { token, headers, ...(await entityBody(e, body)) });
  const create = async (token: string, body: unknown) => {
    const res = await send('POST', url, token, body);
    expect(res.statusCode, res.body).toBe(200);
    return itemAdapters[e.create]<Rec>(res.json());
  };
  const list = async (token: string, query = '') => {
    const res = await t.call('GET', `${url}?per_page=1000${query}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return listAdapters[e.list]<Rec>(res.json());
  };
  /** The record as one read gives it: whole-list resources (`one: 'list_id'`) have none, their record is picked out of the list. */
  const readOne = async (token: string, id: number) => {
    if (e.one === 'list_id') return (await list(token)).data.find((r) => r.id === id);
    const res = await t.call('GET', `${url}/${id}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return itemAdapters[e.one]<Rec>(res.json());
  };

  it('exports references by what the list shows (a name, an address), never by a bare id', () => {
    const bare = exportFields(e).filter(([, f]) => f.type === 'reference' && !f.display);
    expect(bare.map(([k]) => k)).toEqual([]);
  });

  it('is in the OpenAPI document as declared: paths, methods, sorts, filters and the record', async () => {
    const doc = (await t.call('GET', `${API}/openapi.json`, { token: admin })).json();
    const path = `${API}${e.path}`;
    // A declaration with bulkInput also changes the selected rows: PATCH of the list's path.
    expect(Object.keys(doc.paths[path]).sort()).toEqual(['get', ...(e.bulkInput ? ['patch'] : []), 'post']);
    const single = e.one !== 'list_id' && e.one !== 'none';
    // An entity may add a call of its own on the record's path (an advertisement's POST published switch).
    expect(Object.keys(doc.paths[`${path}/{id}`])).toEqual(expect.arrayContaining(['delete', ...(single ? ['get'] : []), e.updateMethod.toLowerCase()]));
    if (!single) expect(Object.keys(doc.paths[`${path}/{id}`])).not.toContain('get');
    expect(Object.keys(doc.paths[`${path}/export`])).toEqual(['get']);
    const params = doc.paths[path].get.parameters as { name: string; schema: { enum?: string[] } }[];
    expect(params.find((p) => p.name === 'sort')?.schema.enum?.sort()).toEqual(sortFields(e).sort());
    for (const f of e.filters)
      expect(
        params.map((p) => p.name),
        f.source,
      ).toContain(f.source);
    const listed = doc.paths[path].get.responses['200'].content['application/json'].schema;
    const page = listed.properties[e.list === 'main_data' ? 'main_data' : 'data'];
    const record = e.list === 'data_pagination' || e.list === 'data_list' ? page.items : page.properties.data.items;
    expect(Object.keys(record.properties).sort()).toEqual(Object.keys((e.record as unknown as { shape: object }).shape).sort());
  });

  it('creates, reads, lists, updates with If-Match and deletes; records match the declared schema', async () => {
    const created = await create(admin, sample());
    expect(e.record.safeParse(created).error).toBeUndefined();
    // GET one, create and update may answer more than the record (a complex's houses and counts, a request's chats): the record's fields are the same.
    expect(e.record.parse(await readOne(admin, created.id))).toEqual(e.record.parse(created));
    expect((await list(admin)).data.map((r) => r.id)).toContain(created.id);

    const changed = sample();
    const put = await send(e.updateMethod, `${url}/${created.id}`, admin, changed, { 'if-match': `"${created.updated_at}"` });
    expect(put.statusCode, put.body).toBe(200);
    const updated = itemAdapters[e.update]<Rec>(put.json());
    expect(updated.updated_at > created.updated_at).toBe(true);
    // The version read before the change is stale now: the update is refused and nothing is written.
    const stale = await send(e.updateMethod, `${url}/${created.id}`, admin, sample(), { 'if-match': `"${created.updated_at}"` });
    expect(expectErrorBody(stale, 409).message).toBe('Запис змінив інший користувач. Оновіть сторінку й повторіть.');
    expect(e.record.parse(await readOne(admin, created.id))).toEqual(e.record.parse(updated));

    const del = await t.call('DELETE', `${url}/${created.id}`, { token: admin });
    expect(del.statusCode, del.body).toBe(200);
    // A whole-list resource answers the new list, without the record; the others a message.
    if (e.list === 'data_list') expect(listAdapters.data_list<Rec>(del.json()).data.map((r) => r.id)).not.toContain(created.id);
    else if (e.deleteAnswer === 'data_id') expect(del.json()).toEqual({ data: { id: created.id } });
    else expect(del.json()).toEqual({ message: e.messages.deleted });
    if (e.one === 'list_id') expect(await readOne(admin, created.id)).toBeUndefined();
    else expect(expectErrorBody(await t.call('GET', `${url}/${created.id}`, { token: admin }), 404).message).toBe(e.messages.notFound);
    expect(expectErrorBody(await t.call('DELETE', `${url}/${created.id}`, { token: admin }), 404).message).toBe(e.messages.notFound);
  });

  it('refuses an empty or malformed body with 422 and Ukrainian messages, changing nothing', async () => {
    const before = (await list(admin)).total;
    const required = inputFields(e).filter(([, f]) => f.required);
    expect(required.length, 'a declaration has required fields').toBeGreaterThan(0);
    const empty = await send('POST', url, admin, {});
    for (const [key] of required) expectFieldError(empty, key);
    for (const [key, field] of required) {
      // A form carries text only: there an empty required value is the malformed one.
      const wrong = field.type === 'number' || field.type === 'reference' ? 'не число' : e.encoding === 'multipart' ? '' : { nested: true };
      expectFieldError(await send('POST', url, admin, { ...sample(), [key]: wrong }), key);
    }
    for (const [key, field] of inputFields(e).filter(([, f]) => f.max && f.type !== 'number')) {
      expectFieldError(await send('POST', url, admin, { ...sample(), [key]: 'я'.repeat(field.max! + 1) }), key);
    }
    expect((await list(admin)).total).toBe(before);
  });

  it('answers 403 without the right, per action', async () => {
    const created = await create(admin, sample());
    const viewer = await staffWith({ [e.area]: ['view'] });
    const nobody = await staffWith({});
    expectErrorBody(await t.call('GET', url, { token: nobody }), 403);
    expectErrorBody(await t.call('GET', `${url}/export`, { token: nobody }), 403);
    expectErrorBody(await send('POST', url, viewer, sample()), 403);
    expectErrorBody(await send(e.updateMethod, `${url}/${created.id}`, viewer, sample()), 403);
    expectErrorBody(await t.call('DELETE', `${url}/${created.id}`, { token: viewer }), 403);
    expect(e.record.parse(await readOne(admin, created.id))).toEqual(e.record.parse(created));
  });

  it.skipIf(e.scope === 'organization')('keeps staff inside their complexes: 404 for records of another, 422 for references to it', async () => {
    const staff = await staffWith({ [e.area]: [...ACTIONS] });
    const other = await create(admin, sample(B));
    const own = await create(staff, sample(A));
    expect((await list(staff)).data.map((r) => r.id)).toEqual(expect.arrayContaining([own.id]));
    expect((await list(staff)).data.map((r) => r.id)).not.toContain(other.id);
    expectErrorBody(await t.call('GET', `${url}/${other.id}`, { token: staff }), 404);
    expectErrorBody(await send(e.updateMethod, `${url}/${other.id}`, staff, sample(A)), 404);
    expectErrorBody(await t.call('DELETE', `${url}/${other.id}`, { token: staff }), 404);
    expect((await t.call('GET', `${url}/${other.id}`, { token: admin })).statusCode).toBe(200);
    // A record that refers to nothing (a complex) has no reference outside the scope to refuse.
    if (inputFields(e).some(([, f]) => f.type === 'reference')) {
      const foreign = await send('POST', url, staff, sample(B));
      expect(foreign.statusCode, foreign.body).toBe(422);
      expect(foreign.json().message).toMatch(UKRAINIAN);
    }
  });

  it('sorts by every declared field both ways and refuses other sorts in Ukrainian', async () => {
    await create(admin, sample());
    for (const sort of sortFields(e)) {
      for (const order of ['asc', 'desc'])
        expect((await t.call('GET', `${url}?sort=${sort}&order=${order}`, { token: admin })).statusCode, `${sort} ${order}`).toBe(200);
    }
    expect(expectErrorBody(await t.call('GET', `${url}?sort=password`, { token: admin }), 422).message).toMatch(UKRAINIAN);
  });

  it('exports exactly the list of the current filter as CSV and XLSX, with the declared columns', async () => {
    const tag = uid();
    // Two records the search finds by the tag (their unique words differ: some names are unique).
    const mine = [await create(admin, sample(A, `${tag}a`)), await create(admin, sample(A, `${tag}b`))];
    await create(admin, sample(A));
    const query = e.search.length > 0 ? `&search_query=${tag}` : '';
    const listed = (await list(admin, query)).data.map((r) => r.id).sort((a, b) => a - b);
    if (query) expect(listed).toEqual(mine.map((r) => r.id).sort((a, b) => a - b));

    const csv = await t.call('GET', `${url}/export?format=csv${query}`, { token: admin });
    expect(csv.statusCode, csv.body.slice(0, 300)).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/attachment/);
    const rows = parse(csv.body.replace(/^\uFEFF/, ''), { delimiter: ';' }) as string[][];
    expect(rows[0]).toEqual(['ID', ...exportFields(e).map(([, f]) => f.label)]);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(listed);

    const xlsx = await t.call('GET', `${url}/export?format=xlsx${query}`, { token: admin });
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0].rowCount).toBe(listed.length + 1);
  });

  it('filters by each declared filter', async () => {
    const created = await create(admin, sample(A));
    for (const f of e.filters) {
      const value = created[f.source];
      if (value === null || value === undefined) continue;
      const v = f.type === 'boolean' ? (value ? '1' : '0') : String(value);
      const found = (await list(admin, `&${f.source}=${encodeURIComponent(v)}`)).data;
      expect(
        found.map((r) => r.id),
        f.source,
      ).toContain(created.id);
      expect(
        found.every((r) => r[f.source] === value),
        f.source,
      ).toBe(true);
    }
    if (e.scope !== 'organization') {
      const inB = (await list(admin, `&complex_id=${B.complexId}`)).data.map((r) => r.id);
      expect(inB).not.toContain(created.id);
    }
  });
});
