import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_STAGES, type RequestStage } from '../../contract/serviceRequests.ts';
import {
  complexes,
  houses,
  members,
  notifications,
  realty,
  residents,
  serviceRequestChatLinks,
  serviceRequestHistory,
  serviceRequests,
  serviceRequestTypes,
  userComplexes,
  users,
} from '../../server/db/schema.ts';
import { ADMIN, API, createOrganization, createUser, expectErrorBody, expectFieldError, STAFF, type TestApp, setupApp, uid } from './helpers.ts';
import { EXE, JPEG, multipartBody, PDF, PNG, type FormValue } from './multipart.ts';

let t: TestApp;
let admin: string;
let dispatcher: string;
let engineerId: number;
let dispatcherId: number;
let plumbing: { id: number; deadlineHours: number | null };
/** A house of the first demo complex (the dispatcher's), with a unit and its resident. */
let home: { houseId: number; complexId: number; realtyId: number; realtyNumber: string; memberId: number; memberName: string };
/** A house of the fifth demo complex, outside the dispatcher's. */
let farHouseId: number;

const R = `${API}/service_request`;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  dispatcher = await t.login(STAFF.email, STAFF.password);
  [{ id: engineerId }] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'engineer@demo.ua'));
  [{ id: dispatcherId }] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, STAFF.email));
  const [type] = await t.db
    .update(serviceRequestTypes)
    .set({ deadlineHours: 24 })
    .where(and(eq(serviceRequestTypes.organizationId, t.organizationId), eq(serviceRequestTypes.name, 'Сантехніка')))
    .returning();
  plumbing = { id: type.id, deadlineHours: type.deadlineHours };
  const demo = await t.db.select().from(complexes).where(eq(complexes.organizationId, t.organizationId)).orderBy(asc(complexes.id));
  const [house] = await t.db.select().from(houses).where(eq(houses.complexId, demo[0].id)).orderBy(asc(houses.id)).limit(1);
  const [unit] = await t.db
    .select({ id: realty.id, number: realty.number, memberId: residents.memberId, memberName: members.name })
    .from(realty)
    .innerJoin(residents, eq(residents.realtyId, realty.id))
    .innerJoin(members, eq(members.id, residents.memberId))
    .where(eq(realty.houseId, house.id))
    .orderBy(asc(realty.id))
    .limit(1);
  home = { houseId: house.id, complexId: demo[0].id, realtyId: unit.id, realtyNumber: unit.number, memberId: unit.memberId, memberName: unit.memberName };
  const [far] = await t.db.select().from(houses).where(eq(houses.complexId, demo[4].id)).limit(1);
  farHouseId = far.id;
});
afterAll(() => t?.close());

const base = () => ({ type_id: plumbing.id, house_id: home.houseId, realty_id: home.realtyId, member_id: home.memberId, text: `Тече кран на кухні ${uid()}` });

async function createOk(body: Record<string, unknown> = {}, token = admin) {
  const res = await t.call('POST', R, { token, body: { ...base(), ...body } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
const put = (id: number, body: unknown, token = admin) => t.call('PUT', `${R}/${id}`, { token, body });
const list = (query: string, token = admin) => t.call('GET', `${R}?per_page=1000&${query}`, { token });
const ids = (res: { json(): { main_data: { data: { id: number }[] } } }) => res.json().main_data.data.map((r) => r.id);

/** Puts a request on `stage` by the allowed path. */
async function onStage(stage: RequestStage) {
  const r = await createOk({ performer_id: engineerId });
  const path: RequestStage[] = ['underReview', 'executor', 'done'];
  for (const s of path.slice(0, REQUEST_STAGES.indexOf(stage))) expect((await put(r.id, { stage: s })).statusCode).toBe(200);
  return r;
}

describe('create, read, update, delete', () => {
  it('creates a request with the next number, the type deadline, the default responsible and a history row', async () => {
    const before = Date.now();
    const a = await createOk();
    const b = await createOk();
    expect(b.number).toBe(a.number + 1);
    expect(a).toMatchObject({
      stage: 'new',
      priority: 'normal',
      type: 'Сантехніка',
      house_id: home.houseId,
      complex_id: home.complexId,
      realty_number: home.realtyNumber,
      member_name: home.memberName,
      responsible_id: engineerId,
      performer_id: null,
      overdue: false,
      staff_chat: [],
      member_chat: [],
      transitions: ['underReview'],
    });
    const deadline = new Date(a.deadline).getTime();
    expect(deadline - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(deadline - before).toBeLessThan(24 * 3600_000 + 60_000);
    expect(a.history).toEqual([expect.objectContaining({ kind: 'stage', from: null, to: 'new', user_name: 'Адміністратор' })]);
    const got = await t.call('GET', `${R}/${a.id}`, { token: admin });
    expect(got.json().data.id).toBe(a.id);
  });

  it('takes the deadline hours of a type from the types API, and refuses a bad value', async () => {
    const T = `${API}/service-request-types`;
    const created = await t.call('POST', T, { token: admin, body: { name: `Покрівля ${uid()}`, deadline_hours: '6' } });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().data.deadline_hours).toBe(6);
    expectFieldError(await t.call('POST', T, { token: admin, body: { name: `Покрівля ${uid()}`, deadline_hours: 0 } }), 'deadline_hours');
    const before = Date.now();
    const r = await createOk({ type_id: created.json().data.id });
    expect(new Date(r.deadline).getTime() - before).toBeGreaterThanOrEqual(6 * 3600_000 - 1000);
    expect(new Date(r.deadline).getTime() - before).toBeLessThan(6 * 3600_000 + 60_000);
    const cleared = await t.call('PUT', `${T}/${created.json().data.id}`, { token: admin, body: { name: created.json().data.name, deadline_hours: '' } });
    expect(cleared.json().data.deadline_hours).toBeNull();
    const fallback = await createOk({ type_id: created.json().data.id });
    expect(new Date(fallback.deadline).getTime() - Date.now()).toBeGreaterThan(71 * 3600_000);
  });

  it('numbers requests without gaps or repeats when they are created at the same moment', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => t.call('POST', R, { token: admin, body: base() })));
    const numbers = results.map((r) => r.json().data.number as number).sort((x, y) => x - y);
    expect(new Set(numbers).size).toBe(12);
    expect(numbers[11] - numbers[0]).toBe(11);
  });

  it('takes an explicit deadline and priority, and refuses references outside the organization or the house', async () => {
    const r = await createOk({ deadline: '2030-01-02T10:00:00+02:00', priority: 'urgent', realty_id: null, member_id: null });
    expect(r.deadline).toBe('2030-01-02T08:00:00.000Z');
    expect(r.priority).toBe('urgent');
    expectFieldError(await t.call('POST', R, { token: admin, body: { ...base(), type_id: 999999 } }), 'type_id');
    expectFieldError(await t.call('POST', R, { token: admin, body: { ...base(), house_id: farHouseId } }), 'realty_id');
    expectFieldError(await t.call('POST', R, { token: admin, body: { ...base(), priority: 'asap' } }), 'priority');
    expectFieldError(await t.call('POST', R, { token: admin, body: { ...base(), text: '' } }), 'text');
    expectFieldError(await t.call('POST', R, { token: admin, body: { ...base(), performer_id: 999999 } }), 'performer_id');
    const foreign = await createUser(t.db, { organizationId: t.organizationId, permissions: { service_requests: ['view'] }, complexIds: [] });
    expectFieldError(await t.call('POST', R, { token: admin, body: { ...base(), responsible_id: foreign.id } }), 'responsible_id');
  });

  it('keeps staff inside their complexes: 404 for others, 422 for a house outside, 403 without the right', async () => {
    const far = await createOk({ house_id: farHouseId, realty_id: null, member_id: null });
    expectErrorBody(await t.call('GET', `${R}/${far.id}`, { token: dispatcher }), 404);
    expectErrorBody(await put(far.id, { stage: 'underReview' }, dispatcher), 404);
    expect(ids(await list('', dispatcher))).not.toContain(far.id);
    expectFieldError(await t.call('POST', R, { token: dispatcher, body: { ...base(), house_id: farHouseId, realty_id: null, member_id: null } }), 'house_id');
    expectErrorBody(await t.call('DELETE', `${R}/${far.id}`, { token: dispatcher }), 403);
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { complexes: ['view'] } });
    const token = await t.login(viewer.email, viewer.password);
    expectErrorBody(await list('', token), 403);
  });

  it('updates fields, deletes, and answers 422 for a bad query and 404 for a missing id', async () => {
    const r = await createOk();
    const res = await put(r.id, { text: 'Тече змішувач у ванній', priority: 'high', responsible_id: dispatcherId, extra: 'ignored' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ text: 'Тече змішувач у ванній', priority: 'high', responsible_id: dispatcherId });
    expect(res.json().data.history.at(-1)).toMatchObject({ kind: 'responsible', comment: expect.stringContaining('Оксана Коваленко') });
    expectFieldError(await list('sort=colour'), 'sort');
    expectFieldError(await list('stage=lost'), 'stage.0');
    expectFieldError(await list('created_from=01.02.2026'), 'created_from');
    expectFieldError(await list('created_from=0000-01-01'), 'created_from');
    expectFieldError(await list('created_to=2026-02-30'), 'created_to');
    expectFieldError(await put(r.id, { deadline: '0000-01-01T00:00:00Z' }), 'deadline');
    expect((await t.call('DELETE', `${R}/${r.id}`, { token: admin })).statusCode).toBe(200);
    expectErrorBody(await t.call('GET', `${R}/${r.id}`, { token: admin }), 404);
    expectErrorBody(await t.call('GET', `${R}/abc`, { token: admin }), 422);
  });

  it('gives the form: staff who handle requests, types with their deadline, addresses, and the house units and residents', async () => {
    const res = await t.call('GET', `${R}/form?house_id=${home.houseId}`, { token: dispatcher });
    expect(res.statusCode, res.body).toBe(200);
    const form = res.json().form;
    expect(form.responsible.map((s: { id: number }) => s.id)).toEqual(expect.arrayContaining([engineerId, dispatcherId]));
    expect(form.types.find((x: { id: number }) => x.id === plumbing.id)).toMatchObject({ deadline_hours: 24, staff_ids: [engineerId] });
    expect(form.address.map((a: { id: number }) => a.id)).toContain(home.houseId);
    expect(form.address.map((a: { id: number }) => a.id)).not.toContain(farHouseId);
    expect(form.units.map((u: { id: number }) => u.id)).toContain(home.realtyId);
    expect(form.residents).toContainEqual(expect.objectContaining({ id: home.memberId, realty_id: home.realtyId }));
  });
});

describe('stages', () => {
  const allowed: [RequestStage, RequestStage][] = [
    ['new', 'underReview'],
    ['underReview', 'executor'],
    ['executor', 'done'],
    ['executor', 'underReview'],
    ['done', 'underReview'],
  ];
  const pairs = REQUEST_STAGES.flatMap((from) => REQUEST_STAGES.filter((to) => to !== from).map((to) => [from, to] as [RequestStage, RequestStage]));

  it.each(pairs)('%s → %s', async (from, to) => {
    const r = await onStage(from);
    const res = await put(r.id, { stage: to, comment: 'Перевірено на місці' });
    if (allowed.some(([f, s]) => f === from && s === to)) {
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      expect(data.stage).toBe(to);
      expect(data.history.at(-1)).toMatchObject({ kind: 'stage', from, to, comment: 'Перевірено на місці', user_name: 'Адміністратор' });
      expect(data.done_at !== null).toBe(to === 'done');
    } else {
      const body = expectFieldError(res, 'stage');
      expect(body.message).toMatch(/не можна перевести/);
      const [row] = await t.db.select().from(serviceRequests).where(eq(serviceRequests.id, r.id));
      expect(row.stage).toBe(from);
    }
  });

  it('still moves a request whose type was deleted or whose performer no longer works in its complex', async () => {
    const moved = await createUser(t.db, {
      organizationId: t.organizationId,
      permissions: { service_requests: ['view', 'edit'] },
      complexIds: [home.complexId],
    });
    const r = await createOk({ performer_id: moved.id });
    await t.db.update(serviceRequests).set({ typeId: null }).where(eq(serviceRequests.id, r.id));
    await t.db.delete(userComplexes).where(eq(userComplexes.userId, moved.id));
    const res = await put(r.id, { stage: 'underReview' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ stage: 'underReview', type_id: null, performer_id: moved.id });
    // Choosing that colleague anew is refused.
    const other = await createOk();
    expectFieldError(await put(other.id, { performer_id: moved.id }), 'performer_id');
  });

  it('needs a performer to enter executor, and records the whole path in the history', async () => {
    const r = await createOk();
    await put(r.id, { stage: 'underReview' });
    expectFieldError(await put(r.id, { stage: 'executor' }), 'performer_id');
    const res = await put(r.id, { stage: 'executor', performer_id: engineerId });
    expect(res.statusCode, res.body).toBe(200);
    await put(r.id, { stage: 'done', comment: 'Замінено прокладку' });
    const rows = await t.db
      .select()
      .from(serviceRequestHistory)
      .where(and(eq(serviceRequestHistory.requestId, r.id), eq(serviceRequestHistory.kind, 'stage')))
      .orderBy(asc(serviceRequestHistory.id));
    expect(rows.map((h) => [h.fromStage, h.toStage])).toEqual([
      [null, 'new'],
      ['new', 'underReview'],
      ['underReview', 'executor'],
      ['executor', 'done'],
    ]);
    expect(rows.at(-1)!.comment).toBe('Замінено прокладку');
    expect(rows.every((h) => h.actorName === 'Адміністратор')).toBe(true);
  });
});

describe('list filters and sorts', () => {
  let a: { id: number; number: number };
  let b: { id: number; number: number };
  let c: { id: number; number: number };
  const word = `слово${uid()}`;
  beforeAll(async () => {
    a = await createOk({ text: `Не працює ліфт ${word}`, deadline: '2020-01-01T00:00:00Z' });
    b = await onStage('executor');
    await put(b.id, { text: `Іскрить розетка ${word}`, responsible_id: dispatcherId, deadline: '2031-01-01T00:00:00Z' });
    c = await createOk({ house_id: farHouseId, realty_id: null, member_id: null, text: `Сміття біля під’їзду ${word}` });
  });

  it('searches the number, the text, the resident and the address', async () => {
    expect(ids(await list(`search_query=${encodeURIComponent(word)}`)).sort()).toEqual([a.id, b.id, c.id].sort());
    expect(ids(await list(`search_query=${encodeURIComponent(`№${a.number}`)}`))).toContain(a.id);
    expect(ids(await list(`search_query=${encodeURIComponent(`ІСКРИТЬ розетка ${word}`)}`))).toEqual([b.id]);
    const byResident = ids(await list(`search_query=${encodeURIComponent(home.memberName)}`));
    expect(byResident).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(byResident).not.toContain(c.id);
    expect(ids(await list(`search_query=${encodeURIComponent("під'їзду " + word)}`))).toEqual([c.id]);
  });

  it('searches a complex for the text as typed: % and _ are plain characters, in the organization and within a complex alike', async () => {
    const tag = `знижка${uid()}`;
    const percent = await createOk({ text: `Перерахунок 50% ${tag}` });
    const fifty = await createOk({ text: `Перерахунок 500 ${tag}` });
    const under = await createOk({ text: `Кімната_5 ${tag}` });
    for (const scope of ['', `&complex_id=${home.complexId}`]) {
      const found = (s: string) => list(`search_query=${encodeURIComponent(s)}${scope}`).then(ids);
      expect(await found(`50% ${tag}`)).toEqual([percent.id]);
      expect(await found(`50 ${tag}`)).toEqual([]);
      expect(await found(`_5 ${tag}`)).toEqual([under.id]);
      expect((await found(tag)).sort((x, y) => x - y)).toEqual([percent.id, fifty.id, under.id].sort((x, y) => x - y));
    }
  });

  it('filters by stage, type, complex, houses, staff, dates and overdue', async () => {
    const q = (s: string) => list(`search_query=${encodeURIComponent(word)}&${s}`).then(ids);
    expect(await q('stage=executor')).toEqual([b.id]);
    expect((await q('stage[]=new&stage[]=executor')).sort()).toEqual([a.id, b.id, c.id].sort());
    expect(await q(`type_id=${plumbing.id}`)).toHaveLength(3);
    expect((await q(`complex_id=${home.complexId}`)).sort()).toEqual([a.id, b.id].sort());
    expect((await q(`complex=${home.complexId}`)).sort()).toEqual([a.id, b.id].sort());
    expect(await q(`house_ids[]=${farHouseId}`)).toEqual([c.id]);
    expect(await q(`responsible_id=${dispatcherId}`)).toEqual([b.id]);
    expect(await q(`performer_id=${engineerId}`)).toEqual([b.id]);
    expect(await q('overdue=1')).toEqual([a.id]);
    expect(await q('overdue=0')).not.toContain(a.id);
    // The filter's days are Kyiv days (from 22:00 or 21:00 UTC it is already tomorrow there).
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Kyiv' }).format(new Date());
    expect(await q(`created_from=${today}&created_to=${today}`)).toHaveLength(3);
    expect(await q('created_to=2020-01-01')).toEqual([]);
  });

  it('exports exactly the list of a filter as CSV, in Ukrainian, and as XLSX', async () => {
    const query = `search_query=${encodeURIComponent(word)}&stage[]=new&stage[]=executor&overdue=0`;
    const listed = ids(await list(query)).sort((x, y) => x - y);
    expect(listed).toEqual([b.id, c.id].sort((x, y) => x - y));
    const csv = await t.call('GET', `${R}/export?format=csv&${query}`, { token: admin });
    expect(csv.statusCode, csv.body.slice(0, 300)).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0].split(';').slice(0, 4)).toEqual(['ID', '№', 'Етап', 'Тип заявки']);
    expect(lines.slice(1).map((l) => Number(l.split(';')[0]))).toEqual(listed);
    const rowB = lines.find((l) => l.startsWith(`${b.id};`))!;
    expect(rowB).toContain('У виконавця');
    expect(rowB).toContain('01.01.2031 02:00');
    const xlsx = await t.call('GET', `${R}/export?format=xlsx&${query}`, { token: admin });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toMatch(/attachment/);
    expectErrorBody(await t.call('GET', `${R}/export?format=pdf`, { token: admin }), 422);
  });

  it('keeps the total right while paging: a create, a stage move and a delete change it at once', async () => {
    const w = `лічильник${uid()}`;
    const total = async (extra = '') => (await list(`search_query=${w}&per_page=1${extra}`)).json().main_data.total as number;
    const first = await createOk({ text: `Перший ${w}` });
    expect(await total()).toBe(1);
    expect(await total('&page=2')).toBe(1);
    const second = await createOk({ text: `Другий ${w}` });
    expect(await total()).toBe(2);
    expect(await total('&stage=underReview')).toBe(0);
    await put(second.id, { stage: 'underReview' });
    expect(await total('&stage=underReview')).toBe(1);
    await t.call('DELETE', `${R}/${first.id}`, { token: admin });
    expect(await total()).toBe(1);
  });

  it('sorts by created (newest first), deadline and stage', async () => {
    const q = (s: string) => list(`search_query=${encodeURIComponent(word)}&${s}`).then(ids);
    expect(await q('')).toEqual([c.id, b.id, a.id]);
    expect(await q('sort=created_at&order=asc')).toEqual([a.id, b.id, c.id]);
    const byDeadline = await q('sort=deadline');
    expect(byDeadline[0]).toBe(a.id);
    expect(byDeadline.at(-1)).toBe(b.id);
    expect((await q('sort=stage&order=desc'))[0]).toBe(b.id);
    const page = (await list(`search_query=${encodeURIComponent(word)}&per_page=2&page=2`)).json().main_data;
    expect(page).toMatchObject({ total: 3, current_page: 2, from: 3, to: 3, last_page: 2 });
  });

  /**
   * The ways a complex's requests are narrowed, each with the requests it holds: a complex's
   * list is merged from each house's newest requests (server/crud/plans.ts, `byHouse`).
   */
  let narrowings: Promise<[string, Set<number>][]> | undefined;
  const narrowedComplex = () =>
    (narrowings ??= (async () => {
      const [{ complexId }] = await t.db
        .select({ complexId: houses.complexId })
        .from(serviceRequests)
        .innerJoin(houses, eq(houses.id, serviceRequests.houseId))
        .where(eq(serviceRequests.organizationId, t.organizationId))
        .groupBy(houses.complexId)
        .orderBy(sql`count(distinct ${houses.id}) desc`, sql`count(*) desc`)
        .limit(1);
      const rows = await t.db
        .select({ id: serviceRequests.id, houseId: serviceRequests.houseId })
        .from(serviceRequests)
        .innerJoin(houses, eq(houses.id, serviceRequests.houseId))
        .where(eq(houses.complexId, complexId!));
      const inComplex = new Set(rows.map((r) => r.id));
      expect(inComplex.size).toBeGreaterThan(6);
      // Two of its houses, as the house filter sends them: the others' requests stay out.
      const twoHouses = [...new Set(rows.map((r) => r.houseId))].slice(0, 2);
      expect(twoHouses).toHaveLength(2);
      const inTwoHouses = new Set(rows.filter((r) => twoHouses.includes(r.houseId)).map((r) => r.id));
      expect(inTwoHouses.size).toBeLessThan(inComplex.size);
      // A house named twice, and a house of another complex (the complex leaves it out): houses named
      // by the query are merged one branch each (`byHouse.named`), each still checked.
      // (One with requests, so that leaving it in would show.)
      const [elsewhere] = await t.db
        .select({ id: houses.id })
        .from(houses)
        .innerJoin(serviceRequests, eq(serviceRequests.houseId, houses.id))
        .where(and(eq(houses.organizationId, t.organizationId), ne(houses.complexId, complexId!)))
        .groupBy(houses.id)
        .orderBy(sql`count(*) desc`)
        .limit(1);
      expect(elsewhere).toBeDefined();
      const named = [twoHouses[0], twoHouses[0], elsewhere.id, twoHouses[1]];
      return [
        [`complex_id=${complexId}`, inComplex],
        [`complex_id=${complexId}&${twoHouses.map((h) => `house_ids[]=${h}`).join('&')}`, inTwoHouses],
        [`complex_id=${complexId}&${named.map((h) => `house_ids[]=${h}`).join('&')}`, inTwoHouses],
      ] as [string, Set<number>][];
    })());
  // A search matched by some of the requests and not others (the seeded texts' commonest letter would match all).
  const searched = `search_query=${encodeURIComponent('кв')}`;
  it.each(['order=desc', 'order=asc', 'order=desc&stage[]=new&stage[]=executor', `order=desc&${searched}`, `order=asc&${searched}`])(
    'pages the requests of a complex, newest first, as the whole organization list orders them (%s)',
    async (extra) => {
      for (const [to, inside] of await narrowedComplex()) {
        const whole = ids(await list(`sort=created_at&${extra}`)).filter((id) => inside.has(id));
        expect(whole.length, `${to} ${extra}`).toBeGreaterThan(1);
        const paged: number[] = [];
        for (let page = 1; paged.length < whole.length && page <= 50; page++) {
          const res = await t.call('GET', `${R}?sort=created_at&${extra}&${to}&per_page=3&page=${page}`, { token: admin });
          expect(res.json().main_data.total, `${to} ${extra}`).toBe(whole.length);
          paged.push(...ids(res));
        }
        expect(paged, `${to} ${extra}`).toEqual(whole);
      }
    },
  );
});

async function chatPost(id: number, fields: Record<string, FormValue | FormValue[]>, token = admin) {
  const body = await multipartBody(fields);
  return t.call('POST', `${R}/chat/${id}`, { token, raw: body.raw, contentType: body.contentType });
}

describe('chats and comments', () => {
  it('posts to both chats with files and serves the files through the request', async () => {
    const r = await createOk();
    const res = await chatPost(r.id, {
      chat_type: 'staff_chat',
      message: 'Потрібен ключ від техповерху',
      'files[]': [
        { file: PNG, name: 'фото.png', type: 'image/png' },
        { file: PDF, name: 'акт.pdf', type: 'application/pdf' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const msg = res.json().data;
    expect(msg).toMatchObject({
      chat_type: 'staff_chat',
      message: 'Потрібен ключ від техповерху',
      can_edit: true,
      author: { kind: 'staff', name: 'Адміністратор' },
    });
    expect(msg.files.map((f: { mime: string }) => f.mime)).toEqual(['image/png', 'application/pdf']);
    const file = await t.call('GET', msg.files[1].url, { token: admin });
    expect(file.statusCode).toBe(200);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toMatch(/^attachment/);
    expect((await chatPost(r.id, { chat_type: 'member_chat', message: 'Майстер прийде завтра о 10:00' })).statusCode).toBe(200);
    const detail = (await t.call('GET', `${R}/${r.id}`, { token: admin })).json().data;
    expect(detail.staff_chat).toHaveLength(1);
    expect(detail.member_chat.map((m: { message: string }) => m.message)).toEqual(['Майстер прийде завтра о 10:00']);
  });

  it('refuses a renamed executable, an unknown chat type, an empty message and a file of another request', async () => {
    const r = await createOk();
    const exe = await chatPost(r.id, { chat_type: 'staff_chat', message: 'звіт', files: { file: EXE, name: 'звіт.pdf', type: 'application/pdf' } });
    expectErrorBody(exe, 415);
    expectErrorBody(
      await t.call('POST', `${API}/media`, { token: admin, ...(await multipartBody({ file: { file: EXE, name: 'photo.jpg', type: 'image/jpeg' } })) }),
      415,
    );
    expectFieldError(await chatPost(r.id, { chat_type: 'group_chat', message: 'x' }), 'chat_type');
    expectFieldError(await chatPost(r.id, { chat_type: 'staff_chat', message: '  ' }), 'message');
    const other = await createOk();
    const posted = (await chatPost(other.id, { chat_type: 'staff_chat', message: 'фото', files: { file: JPEG, name: 'a.jpg', type: 'image/jpeg' } })).json()
      .data;
    const key = posted.files[0].url.split('/').pop();
    expect(posted.files[0].url).toBe(`${R}/${other.id}/media/${key}`);
    expectErrorBody(await t.call('GET', `${R}/${r.id}/media/${key}`, { token: admin }), 404);
    expect((await t.call('GET', `${R}/${other.id}/media/${key}`, { token: admin })).statusCode).toBe(200);
    expectErrorBody(await t.call('GET', `${R}/${other.id}/media/${posted.files[0].id}`, { token: admin }), 422);
  });

  it('lets only the author or an admin edit and delete a message', async () => {
    const r = await createOk();
    const mine = (await chatPost(r.id, { chat_type: 'staff_chat', message: 'Я диспетчер' }, dispatcher)).json().data;
    const theirs = (await chatPost(r.id, { chat_type: 'staff_chat', message: 'Я адміністратор' })).json().data;
    const other = await createUser(t.db, {
      organizationId: t.organizationId,
      permissions: { service_requests: ['view', 'edit'] },
      complexIds: [home.complexId],
    });
    const otherToken = await t.login(other.email, other.password);

    const edited = await t.call('PUT', `${API}/comments/${mine.id}`, { token: dispatcher, body: { message: 'Я диспетчер (виправлено)' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ message: 'Я диспетчер (виправлено)', edited_at: expect.any(String) });
    expectErrorBody(await t.call('PUT', `${API}/comments/${theirs.id}`, { token: dispatcher, body: { message: 'чуже' } }), 403);
    expectErrorBody(await t.call('DELETE', `${API}/comments/${mine.id}`, { token: otherToken }), 403);
    expectFieldError(await t.call('PUT', `${API}/comments/${mine.id}`, { token: dispatcher, body: { message: '' } }), 'message');
    expect((await t.call('PUT', `${API}/comments/${mine.id}`, { token: admin, body: { message: 'Виправив адміністратор' } })).statusCode).toBe(200);
    expect((await t.call('DELETE', `${API}/comments/${mine.id}`, { token: dispatcher })).statusCode).toBe(200);
    expect((await t.call('DELETE', `${API}/comments/${theirs.id}`, { token: admin })).statusCode).toBe(200);
    expectErrorBody(await t.call('DELETE', `${API}/comments/${theirs.id}`, { token: admin }), 404);
    const far = await createOk({ house_id: farHouseId, realty_id: null, member_id: null });
    const farMsg = (await chatPost(far.id, { chat_type: 'staff_chat', message: 'далеко' })).json().data;
    expectErrorBody(await t.call('PUT', `${API}/comments/${farMsg.id}`, { token: dispatcher, body: { message: 'x' } }), 404);
  });
});

describe("a resident's own messages", () => {
  it('are changed and deleted by no one: not the one who recorded them, not an admin; staff still change their own', async () => {
    const r = await createOk();
    const residentWords = (await chatPost(r.id, { chat_type: 'member_chat', message: 'Вода тече зі стелі у ванній', from_resident: '1' }, dispatcher)).json()
      .data;
    const reply = (await chatPost(r.id, { chat_type: 'member_chat', message: 'Майстер буде о 12:00' }, dispatcher)).json().data;
    // What each of them reads: edit and delete are offered for the staff's own reply only.
    for (const token of [dispatcher, admin]) {
      const chat = (await t.call('GET', `${R}/${r.id}`, { token })).json().data.member_chat as { id: number; can_edit: boolean }[];
      expect(chat.find((m) => m.id === residentWords.id)).toMatchObject({ can_edit: false });
      expect(chat.find((m) => m.id === reply.id)).toMatchObject({ can_edit: true });
    }
    for (const token of [dispatcher, admin]) {
      const edit = expectErrorBody(await t.call('PUT', `${API}/comments/${residentWords.id}`, { token, body: { message: 'Виправлено' } }), 403);
      expect(edit.message).toBe('Повідомлення мешканця не можна ні змінити, ні видалити.');
      expectErrorBody(await t.call('DELETE', `${API}/comments/${residentWords.id}`, { token }), 403);
    }
    const after = (await t.call('GET', `${R}/${r.id}`, { token: admin })).json().data.member_chat;
    expect(after.find((m: { id: number }) => m.id === residentWords.id)).toMatchObject({ message: 'Вода тече зі стелі у ванній', edited_at: null });
    expect((await t.call('PUT', `${API}/comments/${reply.id}`, { token: dispatcher, body: { message: 'Майстер буде о 13:00' } })).statusCode).toBe(200);
    expect((await t.call('DELETE', `${API}/comments/${reply.id}`, { token: dispatcher })).statusCode).toBe(200);
  });
});

describe('staff chat by link', () => {
  async function linkFor(requestId: number, hours?: number) {
    const res = await t.call('POST', `${R}/${requestId}/chat_links`, { token: admin, body: hours ? { hours } : {} });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: number; token: string; url: string };
  }
  const linkGet = (token: string) => t.call('GET', `/api/staff/chat/${token}`);
  async function linkPost(token: string, fields: Record<string, FormValue>) {
    const body = await multipartBody(fields);
    return t.call('POST', `/api/staff/chat/${token}`, { raw: body.raw, contentType: body.contentType });
  }

  it('reads and writes the one staff chat and marks the work done', async () => {
    const r = await onStage('executor');
    await chatPost(r.id, { chat_type: 'member_chat', message: 'Для мешканця' });
    await chatPost(r.id, { chat_type: 'staff_chat', message: 'Для виконавця' });
    const link = await linkFor(r.id);
    expect(link.url).toBe(`https://zhk.test/Chat/${link.token}`);
    const [stored] = await t.db.select().from(serviceRequestChatLinks).where(eq(serviceRequestChatLinks.id, link.id));
    expect(stored.tokenHash).not.toContain(link.token);
    const got = await linkGet(link.token);
    expect(got.statusCode, got.body).toBe(200);
    const chat = got.json().staff_chat;
    expect(chat.request).toMatchObject({ id: r.id, number: r.number, stage: 'executor' });
    expect(chat.messages.map((m: { message: string }) => m.message)).toEqual(['Для виконавця']);
    expect(chat.performer).toEqual([{ id: engineerId, name: 'Андрій Мельник' }]);
    expect(chat.can_finish).toBe(true);

    const posted = await linkPost(link.token, { message: 'Приїду о 14:00', photo: { file: PNG, name: 'місце.png', type: 'image/png' } });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json().data).toMatchObject({ message: 'Приїду о 14:00', author: { name: 'Андрій Мельник', via_link: true }, can_edit: false });
    const photo = await t.call('GET', posted.json().data.files[0].url);
    expect(photo.statusCode).toBe(200);
    const done = await linkPost(link.token, { message: 'Готово', done: '1' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().staff_chat.request.stage).toBe('done');
    const detail = (await t.call('GET', `${R}/${r.id}`, { token: admin })).json().data;
    expect(detail.stage).toBe('done');
    expect(detail.history.at(-1)).toMatchObject({ from: 'executor', to: 'done', user_name: 'Андрій Мельник' });
    expectFieldError(await linkPost(link.token, { done: '1' }), 'done');
  });

  it('refuses expired, revoked and unknown links, another request, and the token anywhere else', async () => {
    const r = await onStage('executor');
    const other = await createOk();
    const link = await linkFor(r.id);
    const forOther = await linkPost(link.token, { message: 'чужа', request_id: String(other.id) });
    expectErrorBody(forOther, 403);
    expect((await linkPost(link.token, { message: 'своя', request_id: String(r.id), token: link.token })).statusCode).toBe(200);
    const other2 = await linkFor((await onStage('executor')).id);
    expectErrorBody(await linkPost(link.token, { message: 'чужий ключ', token: other2.token }), 403);
    expectErrorBody(await t.call('GET', `${R}/${other.id}`, { headers: { authorization: `Bearer ${link.token}` } }), 401);

    const expired = await linkFor(r.id);
    await t.db
      .update(serviceRequestChatLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(serviceRequestChatLinks.id, expired.id));
    expect(expectErrorBody(await linkGet(expired.token), 404).message).toMatch(/недійсне/);

    const revoked = await linkFor(r.id);
    const rev = await t.call('DELETE', `${R}/${r.id}/chat_links/${revoked.id}`, { token: admin });
    expect(rev.statusCode, rev.body).toBe(200);
    expect(rev.json().data.find((l: { id: number }) => l.id === revoked.id)).toMatchObject({ active: false });
    expectErrorBody(await linkGet(revoked.token), 404);
    expectErrorBody(await linkPost(revoked.token, { message: 'x' }), 404);
    expectErrorBody(await linkGet('A'.repeat(43)), 404);
    expectErrorBody(await linkGet('bad token!'), 422);
  });
});

describe('notifications', () => {
  it('records what the resident said as their member_chat message and tells the responsible', async () => {
    const responsible = await createUser(t.db, {
      organizationId: t.organizationId,
      permissions: { service_requests: ['view', 'edit'] },
      complexIds: [home.complexId],
    });
    const token = await t.login(responsible.email, responsible.password);
    const r = await createOk({ responsible_id: responsible.id });
    const res = await chatPost(r.id, { chat_type: 'member_chat', message: 'Мешканка телефонувала: вода досі тече', from_resident: '1' }, dispatcher);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ author: { kind: 'resident', id: home.memberId, name: home.memberName }, can_edit: false });
    const list = (await t.call('GET', `${API}/notifications`, { token })).json();
    expect(list.data[0]).toMatchObject({ kind: 'resident_message', request_id: r.id, text: expect.stringContaining(home.memberName) });
    expectErrorBody(await t.call('PUT', `${API}/comments/${res.json().data.id}`, { token, body: { message: 'чуже' } }), 403);
    expectFieldError(await chatPost(r.id, { chat_type: 'staff_chat', message: 'x', from_resident: '1' }), 'from_resident');
    const anonymous = await createOk({ realty_id: null, member_id: null });
    expectFieldError(await chatPost(anonymous.id, { chat_type: 'member_chat', message: 'x', from_resident: '1' }), 'from_resident');
  });

  it('tells the responsible about new requests, stage changes and link messages; marks them read', async () => {
    const engineer = await createUser(t.db, {
      organizationId: t.organizationId,
      permissions: { service_requests: ['view', 'edit'] },
      complexIds: [home.complexId],
    });
    const token = await t.login(engineer.email, engineer.password);
    const r = await createOk({ responsible_id: engineer.id, performer_id: engineerId });
    await put(r.id, { stage: 'underReview' });
    const res = await t.call('GET', `${API}/notifications`, { token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.unread_count).toBe(2);
    expect(body.data.map((n: { kind: string }) => n.kind)).toEqual(['stage_changed', 'request_created']);
    expect(body.data[0].text).toContain(`№${r.number}`);
    const read = await t.call('POST', `${API}/notifications/${body.data[0].id}/read`, { token });
    expect(read.json()).toMatchObject({ data: { read: true }, unread_count: 1 });
    expectErrorBody(await t.call('POST', `${API}/notifications/${body.data[0].id}/read`, { token: dispatcher }), 404);
    expect((await t.call('GET', `${API}/notifications?unread=1`, { token })).json().data).toHaveLength(1);
    expect((await t.call('POST', `${API}/notifications/read_all`, { token })).json().unread_count).toBe(0);
    expect((await t.call('GET', `${API}/notifications/unread_count`, { token })).json().unread_count).toBe(0);
  });
});

describe('work done through a chat link', () => {
  async function linkPost(token: string, fields: Record<string, FormValue>) {
    const body = await multipartBody(fields);
    return t.call('POST', `/api/staff/chat/${token}`, { raw: body.raw, contentType: body.contentType });
  }
  async function linkBy(token: string, requestId: number) {
    const res = await t.call('POST', `${R}/${requestId}/chat_links`, { token, body: {} });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.token as string;
  }
  /** Who got a `work_done` notification about the request. */
  const recipients = async (requestId: number) =>
    (
      await t.db
        .select({ userId: notifications.userId })
        .from(notifications)
        .where(and(eq(notifications.requestId, requestId), eq(notifications.kind, 'work_done')))
    )
      .map((n) => n.userId)
      .sort((a, b) => a - b);
  const staffOf = (complexId: number) =>
    createUser(t.db, { organizationId: t.organizationId, permissions: { service_requests: ['view', 'edit'] }, complexIds: [complexId] });

  it('tells the responsible and the dispatcher who sent the link, in their notifications, and no one else', async () => {
    const responsible = await staffOf(home.complexId);
    const responsibleToken = await t.login(responsible.email, responsible.password);
    const [far] = await t.db.select({ complexId: houses.complexId }).from(houses).where(eq(houses.id, farHouseId));
    const elsewhere = await staffOf(far.complexId!);
    const elsewhereToken = await t.login(elsewhere.email, elsewhere.password);
    const org = await createOrganization(t.db);
    const stranger = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const strangerToken = await t.login(stranger.email, stranger.password);

    const r = await createOk({ responsible_id: responsible.id, performer_id: engineerId });
    for (const stage of ['underReview', 'executor']) expect((await put(r.id, { stage })).statusCode).toBe(200);
    const token = await linkBy(dispatcher, r.id);
    const unreadBefore = (await t.call('GET', `${API}/notifications/unread_count`, { token: responsibleToken })).json().unread_count;
    // A message alone is not the work done.
    expect((await linkPost(token, { message: 'Почав роботу' })).statusCode).toBe(200);
    expect(await recipients(r.id)).toEqual([]);

    const done = await linkPost(token, { message: 'Замінив змішувач', done: '1' });
    expect(done.statusCode, done.body).toBe(200);
    expect(await recipients(r.id)).toEqual([responsible.id, dispatcherId].sort((a, b) => a - b));
    // What the responsible sees in the header: the first message, then one notification of the work done with its last word.
    const mine = (await t.call('GET', `${API}/notifications`, { token: responsibleToken })).json();
    expect(mine.unread_count).toBe(unreadBefore + 2);
    expect(mine.data.slice(0, 2)).toMatchObject([
      {
        kind: 'work_done',
        request_id: r.id,
        read: false,
        text: `Заявка №${r.number}: Андрій Мельник позначив(ла) роботу виконаною за посиланням: «Замінив змішувач»`,
      },
      { kind: 'link_message', request_id: r.id },
    ]);
    const dispatchers = (await t.call('GET', `${API}/notifications`, { token: dispatcher })).json().data;
    expect(dispatchers.filter((n: { kind: string; request_id: number }) => n.kind === 'work_done' && n.request_id === r.id)).toHaveLength(1);
    // Staff of another complex, the admins (someone responsible was told) and another organization hear nothing.
    for (const other of [elsewhereToken, admin, strangerToken]) {
      const list = (await t.call('GET', `${API}/notifications?per_page=100`, { token: other })).json().data;
      expect(list.filter((n: { request_id: number | null; text: string }) => n.request_id === r.id && n.text.includes('виконаною за посиланням'))).toEqual([]);
    }
    // The responsible, told of the work done, is not told the same stage change twice.
    expect(mine.data.filter((n: { request_id: number; kind: string }) => n.request_id === r.id && n.kind === 'stage_changed')).toHaveLength(2);
  });

  it('tells the admins when the performer is the only one who handles the request, never the performer', async () => {
    const performer = await staffOf(home.complexId);
    // The performer is the request's responsible as well, and makes the link themself.
    const r = await createOk({ responsible_id: performer.id, performer_id: performer.id });
    for (const stage of ['underReview', 'executor']) expect((await put(r.id, { stage })).statusCode).toBe(200);
    const performerToken = await t.login(performer.email, performer.password);
    const token = await linkBy(performerToken, r.id);
    expect((await linkPost(token, { done: '1' })).statusCode).toBe(200);
    const admins = (
      await t.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.organizationId, t.organizationId), eq(users.isAdmin, true)))
    ).map((u) => u.id);
    expect(admins.length).toBeGreaterThan(0);
    expect(await recipients(r.id)).toEqual(admins.sort((a, b) => a - b));
    expect(
      (await t.call('GET', `${API}/notifications`, { token: performerToken })).json().data.filter((n: { kind: string }) => n.kind === 'work_done'),
    ).toEqual([]);
  });
});

describe('live updates', () => {
  it('delivers a posted message to a subscribed stream, and only to those who may see it', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const r = await createOk();
    const ticketFor = async (token: string) => (await t.call('POST', `${API}/live/ticket`, { token })).json().ticket as string;

    const open = (ticket: string) =>
      new Promise<{ events: string[]; res: http.IncomingMessage; req: http.ClientRequest }>((resolve, reject) => {
        const events: string[] = [];
        const req = http.get(`http://127.0.0.1:${port}${API}/live?ticket=${ticket}`, (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            events.push(chunk);
            if (chunk.includes('event: ready')) resolve({ events, res, req });
          });
        });
        req.on('error', reject);
      });

    const adminTicket = await ticketFor(admin);
    const adminStream = await open(adminTicket);
    expect(adminStream.res.headers['content-type']).toMatch(/^text\/event-stream/);
    const far = await createOk({ house_id: farHouseId, realty_id: null, member_id: null });
    const dispatcherStream = await open(await ticketFor(dispatcher));

    const sent = Date.now();
    expect((await chatPost(r.id, { chat_type: 'staff_chat', message: 'Живе оновлення' })).statusCode).toBe(200);
    await chatPost(far.id, { chat_type: 'staff_chat', message: 'Не для диспетчера' });
    await expect.poll(() => adminStream.events.join('').includes(`"request_id":${far.id}`), { timeout: 1000 }).toBe(true);
    const adminText = adminStream.events.join('');
    expect(adminText).toContain(`event: chat\ndata: {"request_id":${r.id},"action":"created","chat_type":"staff_chat"}`);
    expect(Date.now() - sent).toBeLessThan(1000);
    await expect.poll(() => dispatcherStream.events.join('').includes(`"request_id":${r.id}`), { timeout: 1000 }).toBe(true);
    expect(dispatcherStream.events.join('')).not.toContain(`"request_id":${far.id}`);

    // A ticket serves once; without one the stream is refused.
    expectErrorBody(await t.call('GET', `${API}/live?ticket=${adminTicket}`), 401);
    expectErrorBody(await t.call('GET', `${API}/live`), 401);
    adminStream.req.destroy();
    dispatcherStream.req.destroy();
  });

  it("brings the performer's «work done» through a link to the open request page and the dispatcher's notifications at once", async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const r = await createOk({ responsible_id: dispatcherId, performer_id: engineerId });
    for (const stage of ['underReview', 'executor']) expect((await put(r.id, { stage })).statusCode).toBe(200);
    const link = (await t.call('POST', `${R}/${r.id}/chat_links`, { token: admin, body: {} })).json().data.token as string;
    const ticket = (await t.call('POST', `${API}/live/ticket`, { token: dispatcher })).json().ticket as string;
    const events: string[] = [];
    const req = await new Promise<http.ClientRequest>((resolve, reject) => {
      const c = http.get(`http://127.0.0.1:${port}${API}/live?ticket=${ticket}`, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          events.push(chunk);
          if (chunk.includes('event: ready')) resolve(c);
        });
      });
      c.on('error', reject);
    });
    const body = await multipartBody({ done: '1' });
    expect((await t.call('POST', `/api/staff/chat/${link}`, { raw: body.raw, contentType: body.contentType })).statusCode).toBe(200);
    await expect.poll(() => events.join('').includes(`event: notification\ndata: {"request_id":${r.id}`), { timeout: 1000 }).toBe(true);
    expect(events.join('')).toContain(`event: request\ndata: {"request_id":${r.id},"action":"updated","chat_type":null}`);
    req.destroy();
  });
});
