import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_MAX } from '../../contract/bulk.ts';
import type { RequestStage } from '../../contract/serviceRequests.ts';
import type { BusEvent } from '../../server/lib/live.ts';
import {
  advertisements,
  articles,
  complexes,
  houses,
  members,
  notifications,
  realty,
  residents,
  serviceRequestHistory,
  serviceRequests,
  serviceRequestTypes,
  userComplexes,
  users,
} from '../../server/db/schema.ts';
import { ADMIN, API, createOrganization, createUser, expectErrorBody, expectFieldError, setupApp, STAFF, uid, UKRAINIAN, type TestApp } from './helpers.ts';

/**
 * Bulk changes (PATCH of a list's path): each selected row is checked as its own update would be;
 * the rows that cannot change say why, the others change.
 */
let t: TestApp;
let admin: string;
let dispatcher: string;
let engineerId: number;
let dispatcherId: number;
let typeId: number;
/** A house of the dispatcher's complex (the first demo complex) and one of the fifth, outside it. */
let home: { houseId: number; memberIds: number[] };
let far: { houseId: number; memberIds: number[] };

const R = `${API}/service_request`;
const patch = (path: string, body: unknown, token = admin) => t.call('PATCH', `${API}${path}`, { token, body });

async function houseOf(complexId: number) {
  const [house] = await t.db.select().from(houses).where(eq(houses.complexId, complexId)).orderBy(asc(houses.id)).limit(1);
  const people = await t.db
    .select({ id: residents.memberId })
    .from(residents)
    .innerJoin(realty, eq(realty.id, residents.realtyId))
    .where(eq(realty.houseId, house.id))
    .orderBy(asc(residents.memberId));
  return { houseId: house.id, memberIds: [...new Set(people.map((p) => p.id))] };
}

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  dispatcher = await t.login(STAFF.email, STAFF.password);
  [{ id: engineerId }] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'engineer@demo.ua'));
  [{ id: dispatcherId }] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, STAFF.email));
  [{ id: typeId }] = await t.db
    .select({ id: serviceRequestTypes.id })
    .from(serviceRequestTypes)
    .where(eq(serviceRequestTypes.organizationId, t.organizationId))
    .orderBy(asc(serviceRequestTypes.id))
    .limit(1);
  const demo = await t.db.select().from(complexes).where(eq(complexes.organizationId, t.organizationId)).orderBy(asc(complexes.id));
  home = await houseOf(demo[0].id);
  far = await houseOf(demo[4].id);
});
afterAll(() => t?.close());

async function request(houseId = home.houseId, body: Record<string, unknown> = {}) {
  const res = await t.call('POST', R, { token: admin, body: { type_id: typeId, house_id: houseId, text: `Не працює домофон ${uid()}`, ...body } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; number: number; stage: RequestStage };
}
/** A request moved along the allowed path to `stage`, with the engineer as its performer. */
async function onStage(stage: RequestStage, houseId = home.houseId) {
  const r = await request(houseId, { performer_id: stage === 'new' ? null : engineerId, responsible_id: dispatcherId });
  for (const s of (['underReview', 'executor', 'done'] as const).slice(0, ['new', 'underReview', 'executor', 'done'].indexOf(stage))) {
    const res = await t.call('PUT', `${R}/${r.id}`, { token: admin, body: { stage: s } });
    expect(res.statusCode, res.body).toBe(200);
  }
  return r;
}
const rowsOf = (ids: number[]) => t.db.select().from(serviceRequests).where(inArray(serviceRequests.id, ids)).orderBy(asc(serviceRequests.id));
const stageOf = async (id: number) => (await rowsOf([id]))[0].stage;

describe('service requests: stage and performer of the selected requests', () => {
  it('moves the requests whose stage allows it, and says for each of the others why it stays', async () => {
    const fresh = await onStage('new');
    const working = await onStage('executor');
    const reviewed = await onStage('underReview');
    const before = await rowsOf([fresh.id, reviewed.id]);
    const events: BusEvent[] = [];
    const stop = t.app.live.subscribe(t.organizationId, (e) => void events.push(e));
    const res = await patch('/service_request', { ids: [fresh.id, working.id, reviewed.id], stage: 'done', comment: 'Перевірено на місці' }, dispatcher);
    stop();
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.updated).toEqual([working.id]);
    expect(body.data.refused).toEqual([
      { id: fresh.id, message: 'Заявку не можна перевести з етапу «Нова» на етап «Виконана».' },
      { id: reviewed.id, message: 'Заявку не можна перевести з етапу «На розгляді» на етап «Виконана».' },
    ]);
    expect(body.message).toBe('Змінено записів: 1 з 3; не змінено: 2.');
    expect(await stageOf(working.id)).toBe('done');
    // The refused ones are untouched, version included.
    expect(await rowsOf([fresh.id, reviewed.id])).toEqual(before);
    // As a single move: its history with the comment, the responsible's notification, the open screens told.
    const history = await t.db
      .select()
      .from(serviceRequestHistory)
      .where(eq(serviceRequestHistory.requestId, working.id))
      .orderBy(asc(serviceRequestHistory.id));
    expect(history.at(-1)).toMatchObject({ kind: 'stage', fromStage: 'executor', toStage: 'done', comment: 'Перевірено на місці', userId: dispatcherId });
    expect(events).toContainEqual(expect.objectContaining({ type: 'request', requestId: working.id, action: 'updated' }));
    expect(events.some((e) => 'requestId' in e && (e.requestId === fresh.id || e.requestId === reviewed.id))).toBe(false);
  });

  it('assigns a performer and passes to the executor in one change, notifying the performer as a single assignment does', async () => {
    const a = await onStage('underReview');
    const b = await request();
    const res = await patch('/service_request', { ids: [a.id, b.id], performer_id: engineerId, stage: 'executor' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.updated).toEqual([a.id]);
    // The new request got no performer either: its row is one update, all or nothing.
    expect(res.json().data.refused).toEqual([{ id: b.id, message: 'Заявку не можна перевести з етапу «Нова» на етап «У виконавця».' }]);
    const [moved, untouched] = await rowsOf([a.id, b.id]);
    expect(moved).toMatchObject({ stage: 'executor', performerId: engineerId });
    expect(untouched).toMatchObject({ stage: 'new', performerId: null });
    const told = await t.db
      .select({ kind: notifications.kind, text: notifications.text })
      .from(notifications)
      .where(and(eq(notifications.userId, engineerId), eq(notifications.requestId, a.id)));
    expect(told.map((n) => n.kind).sort()).toEqual(['assigned', 'stage_changed']);

    // The performer alone, on requests of any stage.
    const c = await request();
    const assigned = await patch('/service_request', { ids: [b.id, c.id], performer_id: engineerId });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().data).toEqual({ updated: [b.id, c.id], refused: [] });
    expect((await rowsOf([b.id, c.id])).map((r) => [r.stage, r.performerId])).toEqual([
      ['new', engineerId],
      ['new', engineerId],
    ]);
    const history = await t.db.select().from(serviceRequestHistory).where(eq(serviceRequestHistory.requestId, c.id));
    expect(history.map((h) => h.kind)).toContain('performer');
  });

  it('refuses to pass to the executor a request without a performer, and a performer of another complex', async () => {
    const noPerformer = await request(home.houseId, { performer_id: null });
    await t.call('PUT', `${R}/${noPerformer.id}`, { token: admin, body: { stage: 'underReview' } });
    const res = await patch('/service_request', { ids: [noPerformer.id], stage: 'executor' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({
      message: 'Жоден запис не змінено: Щоб передати заявку виконавцю, оберіть виконавця.',
      data: { updated: [], refused: [{ id: noPerformer.id, message: 'Щоб передати заявку виконавцю, оберіть виконавця.' }] },
    });
    const outsider = await createUser(t.db, { organizationId: t.organizationId, permissions: { service_requests: ['view', 'edit'] }, name: 'Петро Далекий' });
    const [{ complexId: farComplex }] = await t.db.select({ complexId: houses.complexId }).from(houses).where(eq(houses.id, far.houseId));
    await t.db.insert(userComplexes).values({ userId: outsider.id, complexId: farComplex! });
    const refused = await patch('/service_request', { ids: [noPerformer.id], performer_id: outsider.id });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().data.refused[0].message).toBe('Петро Далекий не працює в комплексі цього будинку.');
    expect((await rowsOf([noPerformer.id]))[0].performerId).toBeNull();
  });

  it("a staff user's request of another complex is refused as one that does not exist, and nothing about it is told", async () => {
    const mine = await request();
    const theirs = await request(far.houseId);
    const before = await rowsOf([theirs.id]);
    const res = await patch('/service_request', { ids: [theirs.id, 999_999_999, mine.id], stage: 'underReview' }, dispatcher);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      updated: [mine.id],
      refused: [
        { id: theirs.id, message: 'Заявку не знайдено.' },
        { id: 999_999_999, message: 'Заявку не знайдено.' },
      ],
    });
    // Nothing else is answered: the refused row is named by the id the caller sent, no more.
    expect(Object.keys(res.json()).sort()).toEqual(['data', 'message']);
    expect(res.json().message).toBe('Змінено записів: 1 з 3; не змінено: 2.');
    expect(await rowsOf([theirs.id])).toEqual(before);
    const only = await patch('/service_request', { ids: [theirs.id], stage: 'underReview' }, dispatcher);
    expect(only.statusCode).toBe(422);
    expect(await rowsOf([theirs.id])).toEqual(before);
  });

  it('an admin of another organization changes none of them', async () => {
    const r = await request();
    const org = await createOrganization(t.db);
    const other = await createUser(t.db, { organizationId: org.id, isAdmin: true });
    const token = await t.login(other.email, other.password);
    const before = await rowsOf([r.id]);
    const res = await patch('/service_request', { ids: [r.id], stage: 'underReview' }, token);
    expect(res.statusCode).toBe(422);
    expect(res.json().data.refused).toEqual([{ id: r.id, message: 'Заявку не знайдено.' }]);
    expect(await rowsOf([r.id])).toEqual(before);
  });

  it('answers bad input with a Ukrainian 422 and changes nothing; a role that may only view gets 403', async () => {
    const r = await request();
    const before = await rowsOf([r.id]);
    expectFieldError(await patch('/service_request', { ids: [], stage: 'underReview' }), 'ids');
    expectFieldError(await patch('/service_request', { ids: [r.id] }), 'stage');
    expectFieldError(await patch('/service_request', { ids: [r.id], stage: 'closed' }), 'stage');
    expectFieldError(await patch('/service_request', { ids: ['x'], stage: 'underReview' }), 'ids.0');
    expectFieldError(await patch('/service_request', { ids: Array.from({ length: BULK_MAX + 1 }, (_, i) => i + 1), stage: 'underReview' }), 'ids');
    expectFieldError(await patch('/service_request', { ids: [r.id], performer_id: 'нікого' }), 'performer_id');
    expect(await rowsOf([r.id])).toEqual(before);
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { service_requests: ['view'] } });
    const res = await patch('/service_request', { ids: [r.id], stage: 'underReview' }, await t.login(viewer.email, viewer.password));
    expect(expectErrorBody(res, 403).message).toMatch(UKRAINIAN);
    expect(await rowsOf([r.id])).toEqual(before);
  });
});

describe('members: the status of the selected members', () => {
  const statusOf = async (ids: number[]) =>
    (await t.db.select({ id: members.id, status: members.status }).from(members).where(inArray(members.id, ids)).orderBy(asc(members.id))).map((m) => m.status);

  it("sets the status of each, and a staff user's member of another complex stays as it was", async () => {
    const [a, b] = home.memberIds;
    const [outside] = far.memberIds.filter((id) => !home.memberIds.includes(id));
    const [outsideBefore] = await t.db.select().from(members).where(eq(members.id, outside));
    const res = await patch('/members', { ids: [a, b, outside], status: 'inactive' }, dispatcher);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ updated: [a, b], refused: [{ id: outside, message: 'Мешканця не знайдено.' }] });
    expect(await statusOf([a, b])).toEqual(['inactive', 'inactive']);
    expect((await t.db.select().from(members).where(eq(members.id, outside)))[0]).toEqual(outsideBefore);
    const back = await patch('/members', { ids: [a, b], status: 'active' });
    expect(back.json().data.updated).toEqual([a, b]);
    expect(await statusOf([a, b])).toEqual(['active', 'active']);
    expectFieldError(await patch('/members', { ids: [a], status: 'blocked' }), 'status');
    expect(await statusOf([a])).toEqual(['active']);
  });
});

describe('news and advertisements: publish and hide the selected ones', () => {
  it('takes news back to drafts and publishes them now, or at their planned time', async () => {
    const [complex] = await t.db.select().from(complexes).where(eq(complexes.organizationId, t.organizationId)).orderBy(asc(complexes.id)).limit(1);
    const make = async (extra: Record<string, unknown>) => {
      const res = await t.call('POST', `${API}/articles`, {
        token: admin,
        body: { title: `Новина ${uid()}`, body: '<p>Текст</p>', complex_ids: [complex.id], house_ids: [], ...extra },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.id as number;
    };
    const later = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
    const draft = await make({ status: 'draft' });
    const planned = await make({ status: 'draft', publish_at: later });
    const published = await make({ status: 'published' });
    const res = await patch('/articles', { ids: [draft, planned], status: 'published' });
    expect(res.statusCode, res.body).toBe(200);
    const read = async (id: number) => (await t.call('GET', `${API}/articles/${id}`, { token: admin })).json().data;
    expect((await read(draft)).status).toBe('published');
    expect(await read(planned)).toMatchObject({ status: 'scheduled', publish_at: later });
    const hidden = await patch('/articles', { ids: [published], status: 'draft' });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect((await read(published)).status).toBe('draft');
    expectFieldError(await patch('/articles', { ids: [published], status: 'scheduled' }), 'status');
    const [row] = await t.db.select({ status: articles.status }).from(articles).where(eq(articles.id, published));
    expect(row.status).toBe('draft');
  });

  it('publishes and hides advertisements', async () => {
    const ads = await t.db.select({ id: advertisements.id }).from(advertisements).where(eq(advertisements.organizationId, t.organizationId)).limit(2);
    expect(ads.length).toBe(2);
    const ids = ads.map((a) => a.id);
    for (const published of [1, 0, true]) {
      const res = await patch('/advertisement', { ids, published });
      expect(res.statusCode, res.body).toBe(200);
      const now = await t.db.select({ published: advertisements.published }).from(advertisements).where(inArray(advertisements.id, ids));
      expect(now.map((a) => a.published)).toEqual([Boolean(published), Boolean(published)]);
    }
    expectFieldError(await patch('/advertisement', { ids, published: 'так' }), 'published');
  });
});
