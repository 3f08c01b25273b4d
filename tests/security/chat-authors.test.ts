import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  complexes,
  houses,
  members,
  notifications,
  realty,
  residents,
  serviceRequestComments,
  serviceRequestTypes,
  userComplexes,
  users,
} from '../../server/db/schema.ts';
import { ADMIN, API, createOrganization, createUser, expectErrorBody, STAFF, UKRAINIAN, type TestApp, setupApp } from '../api/helpers.ts';
import { multipartBody, type FormValue } from '../api/multipart.ts';
import { changedTables, fingerprint } from './db.ts';

/**
 * A resident's messages and the performer's «work done» (docs/security.md, section 16): no one in
 * the office — the colleague who recorded the resident's words, another colleague, an admin —
 * changes or deletes what a resident said (403, nothing written), staff of another complex or
 * organization do not even find it (404), and the notification of work done through a chat link
 * reaches the request's own dispatchers only.
 */

let t: TestApp;
let admin: string;
/** The demo dispatcher: works in the first demo complex, where the request is. */
let dispatcher: string;
let colleague: { id: number; token: string };
/** The request's responsible, moved to another complex before the work is done. */
let moved: { id: number; farComplexId: number };
let elsewhere: { id: number; token: string };
let stranger: { id: number; token: string };
let requestId: number;
/** Words of the resident as the dispatcher recorded them, and a message the resident wrote themself. */
let recorded: number;
let written: number;
/** The dispatcher's own reply: the control that the same calls work where they should. */
let reply: number;

const R = `${API}/service_request`;

async function chatPost(id: number, fields: Record<string, FormValue>, token: string) {
  const body = await multipartBody(fields);
  const res = await t.call('POST', `${R}/chat/${id}`, { token, raw: body.raw, contentType: body.contentType });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
}

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  dispatcher = await t.login(STAFF.email, STAFF.password);
  const demo = await t.db.select().from(complexes).where(eq(complexes.organizationId, t.organizationId)).orderBy(asc(complexes.id));
  const [house] = await t.db.select().from(houses).where(eq(houses.complexId, demo[0].id)).orderBy(asc(houses.id)).limit(1);
  const [unit] = await t.db
    .select({ id: realty.id, memberId: residents.memberId, memberName: members.name })
    .from(realty)
    .innerJoin(residents, eq(residents.realtyId, realty.id))
    .innerJoin(members, eq(members.id, residents.memberId))
    .where(eq(realty.houseId, house.id))
    .orderBy(asc(realty.id))
    .limit(1);
  const [type] = await t.db.select().from(serviceRequestTypes).where(eq(serviceRequestTypes.organizationId, t.organizationId)).limit(1);
  const created = await t.call('POST', R, {
    token: admin,
    body: { type_id: type.id, house_id: house.id, realty_id: unit.id, member_id: unit.memberId, text: 'Не працює домофон у під’їзді' },
  });
  expect(created.statusCode, created.body).toBe(200);
  requestId = created.json().data.id;

  const handler = (complexId: number) =>
    createUser(t.db, { organizationId: t.organizationId, permissions: { service_requests: ['view', 'edit', 'delete'] }, complexIds: [complexId] });
  const other = await handler(demo[0].id);
  colleague = { id: other.id, token: await t.login(other.email, other.password) };
  const far = await handler(demo[4].id);
  elsewhere = { id: far.id, token: await t.login(far.email, far.password) };
  const org = await createOrganization(t.db);
  const outsider = await createUser(t.db, { organizationId: org.id, isAdmin: true });
  stranger = { id: outsider.id, token: await t.login(outsider.email, outsider.password) };
  const responsible = await handler(demo[0].id);
  moved = { id: responsible.id, farComplexId: demo[4].id };

  recorded = await chatPost(requestId, { chat_type: 'member_chat', message: 'Мешканець телефонував: домофон мовчить', from_resident: '1' }, dispatcher);
  // What a residents' app writes: the resident's own row, with no staff author.
  [{ id: written }] = await t.db
    .insert(serviceRequestComments)
    .values({ requestId, chatType: 'member_chat', authorMemberId: unit.memberId, authorName: unit.memberName, message: 'Дякую, чекаю майстра' })
    .returning({ id: serviceRequestComments.id });
  reply = await chatPost(requestId, { chat_type: 'member_chat', message: 'Майстер прийде завтра' }, dispatcher);
});
afterAll(() => t?.close());

type Who = 'the dispatcher who recorded it' | 'a colleague of the complex' | 'an admin' | 'staff of another complex' | 'an admin of another organization';
const tokenOf = (who: Who) =>
  ({
    'the dispatcher who recorded it': dispatcher,
    'a colleague of the complex': colleague.token,
    'an admin': admin,
    'staff of another complex': elsewhere.token,
    'an admin of another organization': stranger.token,
  })[who];

/** Every attempt on a resident's message, and what it must answer. */
const ROWS: { who: Who; message: 'recorded' | 'written'; method: 'PUT' | 'DELETE'; status: 403 | 404 }[] = (
  [
    ['the dispatcher who recorded it', 403],
    ['a colleague of the complex', 403],
    ['an admin', 403],
    ['staff of another complex', 404],
    ['an admin of another organization', 404],
  ] as const
).flatMap(([who, status]) =>
  (['recorded', 'written'] as const).flatMap((message) => (['PUT', 'DELETE'] as const).map((method) => ({ who, message, method, status }))),
);

describe("a resident's message", () => {
  it.each(ROWS)('$method by $who on a $message message answers $status and changes nothing', async ({ who, message, method, status }) => {
    const id = message === 'recorded' ? recorded : written;
    const before = await fingerprint(t);
    const res = await t.call(method, `${API}/comments/${id}`, { token: tokenOf(who), body: method === 'PUT' ? { message: 'Виправлено' } : undefined });
    const body = expectErrorBody(res, status);
    expect(body.message).toMatch(UKRAINIAN);
    if (status === 403) expect(body.message).toBe('Повідомлення мешканця не можна ні змінити, ні видалити.');
    expect(changedTables(before, await fingerprint(t))).toEqual([]);
  });

  it('is offered to no one for editing, while staff keep their own (control: the same calls work on a staff message)', async () => {
    for (const token of [dispatcher, colleague.token, admin]) {
      const chat = (await t.call('GET', `${R}/${requestId}`, { token })).json().data.member_chat as { id: number; can_edit: boolean }[];
      expect(chat.filter((m) => m.id === recorded || m.id === written).map((m) => m.can_edit)).toEqual([false, false]);
    }
    const edited = await t.call('PUT', `${API}/comments/${reply}`, { token: dispatcher, body: { message: 'Майстер прийде завтра о 10:00' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await t.call('DELETE', `${API}/comments/${reply}`, { token: dispatcher })).statusCode).toBe(200);
    const left = await t.db
      .select({ id: serviceRequestComments.id, message: serviceRequestComments.message })
      .from(serviceRequestComments)
      .where(eq(serviceRequestComments.requestId, requestId));
    expect(left.map((m) => m.id).sort((a, b) => a - b)).toEqual([recorded, written].sort((a, b) => a - b));
  });
});

describe('work done through a chat link', () => {
  it("tells the request's dispatchers only: not one who has left for another complex, no one of another organization", async () => {
    const [engineer] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'engineer@demo.ua'));
    const assigned = await t.call('PUT', `${R}/${requestId}`, { token: admin, body: { performer_id: engineer.id, responsible_id: moved.id } });
    expect(assigned.statusCode, assigned.body).toBe(200);
    for (const stage of ['underReview', 'executor']) expect((await t.call('PUT', `${R}/${requestId}`, { token: admin, body: { stage } })).statusCode).toBe(200);
    const link = await t.call('POST', `${R}/${requestId}/chat_links`, { token: colleague.token, body: {} });
    expect(link.statusCode, link.body).toBe(200);
    // The responsible now works in another complex only: the request is no longer theirs to hear about.
    await t.db.update(userComplexes).set({ complexId: moved.farComplexId }).where(eq(userComplexes.userId, moved.id));
    const body = await multipartBody({ done: '1' });
    const done = await t.call('POST', `/api/staff/chat/${link.json().data.token}`, { raw: body.raw, contentType: body.contentType });
    expect(done.statusCode, done.body).toBe(200);
    const told = await t.db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(and(eq(notifications.requestId, requestId), eq(notifications.kind, 'work_done')));
    // The colleague who sent the link is told; the moved responsible, staff of another complex and another organization are not.
    expect(told.map((n) => n.userId)).toEqual([colleague.id]);
    for (const token of [elsewhere.token, stranger.token]) {
      const list = (await t.call('GET', `${API}/notifications?per_page=100`, { token })).json().data as { request_id: number | null }[];
      expect(list.filter((n) => n.request_id === requestId)).toEqual([]);
    }
  });
});
