import { parse } from 'csv-parse/sync';
import { asc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_RESOURCES, ENTITIES } from '../../contract/entities.ts';
import { exportFields, inputFields, sortFields, type EntityDeclaration } from '../../contract/entity.ts';
import { ACTIONS, type Rules } from '../../contract/permissions.ts';
import { complexes, houses } from '../../server/db/schema.ts';
import { itemAdapters, listAdapters } from '../../src/dataProvider/shapes.ts';
import { ADMIN, API, createUser, expectErrorBody, expectFieldError, setupApp, uid, UKRAINIAN, type TestApp } from './helpers.ts';

/**
 * Every declared entity (contract/entities.ts) through its generic API: the same questions for
 * each, so that an entity cannot behave differently from the others. A new declaration is tested
 * here without a line of its own.
 */

let t: TestApp;
let admin: string;
/** Two complexes with a house each: the staff users below work in the first only. */
let A: { complexId: number; houseId: number };
let B: { complexId: number; houseId: number };
/** Per complex: an id of a record of each resource a declaration's sample refers to (`sampleRefs`), found through its list. */
const refsOf = new Map<number, Record<string, number>>();

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const rows = await t.db.select({ complexId: complexes.id, houseId: houses.id }).from(houses).innerJoin(complexes, eq(complexes.id, houses.complexId)).where(eq(houses.organizationId, t.organizationId)).orderBy(asc(complexes.id), asc(houses.id));
  A = rows[0];
  B = rows.find((r) => r.complexId !== A.complexId)!;
  const wanted = [...new Set((ENTITIES as readonly EntityDeclaration[]).flatMap((e) => e.sampleRefs ?? []))];
  for (const side of [A, B]) {
    const refs: Record<string, number> = {};
    for (const name of wanted) {
      const r = ALL_RESOURCES[name];
      const res = await t.call('GET', `${API}${r.path}?complex_id=${side.complexId}&per_page=1`, { token: admin });
      expect(res.statusCode, res.body).toBe(200);
      refs[name] = listAdapters[r.list]<{ id: number }>(res.json()).data[0].id;
    }
    refsOf.set(side.complexId, refs);
  }
});
afterAll(() => t?.close());

const staffWith = async (rules: Rules) => {
  const user = await createUser(t.db, { organizationId: t.organizationId, permissions: rules, complexIds: [A.complexId] });
  return t.login(user.email, user.password);
};

type Rec = Record<string, unknown> & { id: number; updated_at: string };

describe.each(ENTITIES.map((e) => [e.name, e as EntityDeclaration] as const))('%s', (_name, e) => {
  const url = `${API}${e.path}`;
  const sample = (side = A, unique = uid()) => e.sample({ houseId: side.houseId, complexId: side.complexId, unique, refs: refsOf.get(side.complexId) }) as Record<string, unknown>;
  const create = async (token: string, body: unknown) => {
    const res = await t.call('POST', url, { token, body });
    expect(res.statusCode, res.body).toBe(200);
    return itemAdapters[e.create]<Rec>(res.json());
  };
  const list = async (token: string, query = '') => {
    const res = await t.call('GET', `${url}?per_page=1000${query}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return listAdapters[e.list]<Rec>(res.json());
  };

  it('creates, reads, lists, updates with If-Match and deletes; records match the declared schema', async () => {
    const created = await create(admin, sample());
    expect(e.record.safeParse(created).error).toBeUndefined();
    const one = await t.call('GET', `${url}/${created.id}`, { token: admin });
    expect(one.statusCode, one.body).toBe(200);
    // GET one may answer more than the record (a complex's houses and counts): the record's fields are the same.
    expect(e.record.parse(itemAdapters[e.one]<Rec>(one.json()))).toEqual(created);
    expect((await list(admin)).data.map((r) => r.id)).toContain(created.id);

    const changed = sample();
    const put = await t.call(e.updateMethod, `${url}/${created.id}`, { token: admin, body: changed, headers: { 'if-match': `"${created.updated_at}"` } });
    expect(put.statusCode, put.body).toBe(200);
    const updated = itemAdapters[e.update]<Rec>(put.json());
    expect(updated.updated_at > created.updated_at).toBe(true);
    // The version read before the change is stale now: the update is refused and nothing is written.
    const stale = await t.call(e.updateMethod, `${url}/${created.id}`, { token: admin, body: sample(), headers: { 'if-match': `"${created.updated_at}"` } });
    expect(expectErrorBody(stale, 409).message).toBe('Запис змінив інший користувач. Оновіть сторінку й повторіть.');
    expect(e.record.parse(itemAdapters[e.one]<Rec>((await t.call('GET', `${url}/${created.id}`, { token: admin })).json()))).toEqual(updated);

    const del = await t.call('DELETE', `${url}/${created.id}`, { token: admin });
    expect(del.json()).toEqual({ message: e.messages.deleted });
    const gone = expectErrorBody(await t.call('GET', `${url}/${created.id}`, { token: admin }), 404);
    expect(gone.message).toBe(e.messages.notFound);
  });

  it('refuses an empty or malformed body with 422 and Ukrainian messages, changing nothing', async () => {
    const before = (await list(admin)).total;
    const required = inputFields(e).filter(([, f]) => f.required);
    expect(required.length, 'a declaration has required fields').toBeGreaterThan(0);
    const empty = await t.call('POST', url, { token: admin, body: {} });
    for (const [key] of required) expectFieldError(empty, key);
    for (const [key, field] of required) {
      const wrong = field.type === 'number' || field.type === 'reference' ? 'не число' : { nested: true };
      expectFieldError(await t.call('POST', url, { token: admin, body: { ...sample(), [key]: wrong } }), key);
    }
    for (const [key, field] of inputFields(e).filter(([, f]) => f.max && f.type !== 'number')) {
      expectFieldError(await t.call('POST', url, { token: admin, body: { ...sample(), [key]: 'я'.repeat(field.max! + 1) } }), key);
    }
    expect((await list(admin)).total).toBe(before);
  });

  it('answers 403 without the right, per action', async () => {
    const created = await create(admin, sample());
    const viewer = await staffWith({ [e.area]: ['view'] });
    const nobody = await staffWith({});
    expectErrorBody(await t.call('GET', url, { token: nobody }), 403);
    expectErrorBody(await t.call('GET', `${url}/export`, { token: nobody }), 403);
    expectErrorBody(await t.call('POST', url, { token: viewer, body: sample() }), 403);
    expectErrorBody(await t.call(e.updateMethod, `${url}/${created.id}`, { token: viewer, body: sample() }), 403);
    expectErrorBody(await t.call('DELETE', `${url}/${created.id}`, { token: viewer }), 403);
    expect((await t.call('GET', `${url}/${created.id}`, { token: admin })).statusCode).toBe(200);
  });

  it.skipIf(e.scope === 'organization')('keeps staff inside their complexes: 404 for records of another, 422 for references to it', async () => {
    const staff = await staffWith({ [e.area]: [...ACTIONS] });
    const other = await create(admin, sample(B));
    const own = await create(staff, sample(A));
    expect((await list(staff)).data.map((r) => r.id)).toEqual(expect.arrayContaining([own.id]));
    expect((await list(staff)).data.map((r) => r.id)).not.toContain(other.id);
    expectErrorBody(await t.call('GET', `${url}/${other.id}`, { token: staff }), 404);
    expectErrorBody(await t.call(e.updateMethod, `${url}/${other.id}`, { token: staff, body: sample(A) }), 404);
    expectErrorBody(await t.call('DELETE', `${url}/${other.id}`, { token: staff }), 404);
    expect((await t.call('GET', `${url}/${other.id}`, { token: admin })).statusCode).toBe(200);
    // A record that refers to nothing (a complex) has no reference outside the scope to refuse.
    if (inputFields(e).some(([, f]) => f.type === 'reference')) {
      const foreign = await t.call('POST', url, { token: staff, body: sample(B) });
      expect(foreign.statusCode, foreign.body).toBe(422);
      expect(foreign.json().message).toMatch(UKRAINIAN);
    }
  });

  it('sorts by every declared field both ways and refuses other sorts in Ukrainian', async () => {
    await create(admin, sample());
    for (const sort of sortFields(e)) {
      for (const order of ['asc', 'desc']) expect((await t.call('GET', `${url}?sort=${sort}&order=${order}`, { token: admin })).statusCode, `${sort} ${order}`).toBe(200);
    }
    expect(expectErrorBody(await t.call('GET', `${url}?sort=password`, { token: admin }), 422).message).toMatch(UKRAINIAN);
  });

  it('exports exactly the list of the current filter as CSV and XLSX, with the declared columns', async () => {
    const tag = uid();
    const mine = [await create(admin, sample(A, tag)), await create(admin, sample(A, tag))];
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
      expect(found.map((r) => r.id), f.source).toContain(created.id);
      expect(found.every((r) => r[f.source] === value), f.source).toBe(true);
    }
    if (e.scope !== 'organization') {
      const inB = (await list(admin, `&complex_id=${B.complexId}`)).data.map((r) => r.id);
      expect(inB).not.toContain(created.id);
    }
  });
});
