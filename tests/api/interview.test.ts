import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interviewAnswers, interviews, members, residents } from '../../server/db/schema.ts';
import { residentRolesOf } from '../../server/modules/members/roles.ts';
import { API, createComplex, createUser, expectErrorBody, expectFieldError, setupApp, uid, type TestApp } from './helpers.ts';
import { makeCity, makeHouse, makeUnit } from './members-fixtures.ts';

const I = `${API}/interview`;
const ALL = ['view', 'create', 'edit', 'delete'] as const;

let t: TestApp;
let admin: string;
let staff: string;
/** Our complex (the staff user's) with two houses, and another complex with one. */
let mine: { id: number; houses: number[] };
let other: { id: number; houses: number[] };
/** Members: three in house A, one in house B of our complex, one in the other complex. */
let people: { a1: number; a2: number; a3: number; b1: number; x1: number };

const DAY = 24 * 3600 * 1000;
const iso = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString();

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login('admin@test.ua', 'admin-pass-2026');
  const city = await makeCity(t);
  const c1 = await createComplex(t.db, { organizationId: t.organizationId });
  const c2 = await createComplex(t.db, { organizationId: t.organizationId });
  const [hA, hB, hX] = [await makeHouse(t, city.id, c1.id), await makeHouse(t, city.id, c1.id), await makeHouse(t, city.id, c2.id)];
  mine = { id: c1.id, houses: [hA.id, hB.id] };
  other = { id: c2.id, houses: [hX.id] };
  const roles = await residentRolesOf(t.db, t.organizationId);
  const owner = roles.find((r) => r.code === 'owner')!.id;
  const person = async (name: string, houseId: number, unit: string) => {
    const [m] = await t.db
      .insert(members)
      .values({ organizationId: t.organizationId, name: `${name} ${uid()}`, phone: null, email: null })
      .returning();
    const u = await makeUnit(t, houseId, unit);
    await t.db.insert(residents).values({ organizationId: t.organizationId, memberId: m.id, realtyId: u.id, roleId: owner });
    return m.id;
  };
  people = {
    a1: await person('Андрієнко Олена', hA.id, '1'),
    a2: await person('Бойко Петро', hA.id, '2'),
    a3: await person('Вакуленко Ірина', hA.id, '3'),
    b1: await person('Гнатюк Марія', hB.id, '1'),
    x1: await person('Дорошенко Іван', hX.id, '1'),
  };
  const user = await createUser(t.db, { organizationId: t.organizationId, permissions: { interviews: [...ALL] }, complexIds: [mine.id] });
  staff = await t.login(user.email, user.password);
});
afterAll(() => t?.close());

const questions = () => [
  { title: 'Чи потрібен шлагбаум на в’їзді?', kind: 'single', options: ['Так', 'Ні', 'Байдуже'] },
  { title: 'Які послуги додати?', kind: 'multiple', options: ['Прибирання', 'Охорона', 'Озеленення'] },
  { title: 'Ваші побажання', kind: 'text' },
  { title: 'Оцініть роботу керуючої компанії', kind: 'scale', scale_max: 5 },
];
const base = (over: Record<string, unknown> = {}) => ({
  title: 'Опитування щодо благоустрою',
  description: 'Відповіді приймаємо до кінця місяця.',
  complex_ids: [mine.id],
  start_at: iso(-1),
  end_at: iso(10),
  published: true,
  questions: questions(),
  ...over,
});
async function createOk(over: Record<string, unknown> = {}, token = admin) {
  const res = await t.call('POST', I, { token, body: base(over) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
type Q = { id: number; kind: string; options: { id: number; title: string; count: number; percent: number }[] };
/** The answer set of the fixture's questions: single option index, multiple indexes, text, scale. */
function answersFor(survey: { questions: Q[] }, single: number, multiple: number[], text: string | null, scale: number) {
  const [q1, q2, q3, q4] = survey.questions;
  const out: Record<string, unknown>[] = [
    { question_id: q1.id, option_ids: [q1.options[single].id] },
    { question_id: q2.id, option_ids: multiple.map((i) => q2.options[i].id) },
    { question_id: q4.id, value: scale },
  ];
  if (text !== null) out.push({ question_id: q3.id, text });
  return out;
}
const answer = (id: number, body: unknown, token = admin) => t.call('POST', `${I}/${id}/answers`, { token, body });

describe('CRUD', () => {
  it('creates, reads, lists in main_data, updates and deletes a survey', async () => {
    const s = await createOk({ title: '  Парковка у дворі  ', house_ids: [mine.houses[0]] });
    expect(s).toMatchObject({
      title: 'Парковка у дворі',
      status: 'active',
      published: true,
      anonymous: false,
      questions_count: 4,
      responses_count: 0,
      complex_ids: [mine.id],
      house_ids: [mine.houses[0]],
      audience_count: 3,
      questions_locked: false,
    });
    expect(s.questions.map((q: Q) => q.kind)).toEqual(['single', 'multiple', 'text', 'scale']);
    expect(s.questions[0].options.map((o: Q['options'][number]) => o.title)).toEqual(['Так', 'Ні', 'Байдуже']);
    expect(s.questions[3].options.map((o: Q['options'][number]) => o.title)).toEqual(['1', '2', '3', '4', '5']);

    const got = await t.call('GET', `${I}/${s.id}`, { token: admin });
    expect(got.json().data.title).toBe('Парковка у дворі');

    const list = await t.call('GET', `${I}?search_query=${encodeURIComponent('Парковка')}`, { token: admin });
    expect(list.statusCode).toBe(200);
    expect(list.json().main_data.data.map((x: { id: number }) => x.id)).toContain(s.id);
    expect(list.json().main_data).toMatchObject({ current_page: 1, per_page: 15 });

    const put = await t.call('PUT', `${I}/${s.id}`, {
      token: admin,
      body: base({ title: 'Парковка (оновлено)', published: false, questions: [{ title: 'Де ставити авто?', kind: 'text' }] }),
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ title: 'Парковка (оновлено)', status: 'draft', questions_count: 1, house_ids: [] });

    const del = await t.call('DELETE', `${I}/${s.id}`, { token: admin });
    expect(del.statusCode).toBe(200);
    expectErrorBody(await t.call('GET', `${I}/${s.id}`, { token: admin }), 404);
  });

  it('derives the status from the published flag and the dates, and filters by it', async () => {
    const draft = await createOk({ published: false });
    const later = await createOk({ start_at: iso(2), end_at: iso(5) });
    const done = await createOk({ start_at: iso(-10), end_at: iso(-1) });
    const active = await createOk();
    expect([draft.status, later.status, done.status, active.status]).toEqual(['draft', 'draft', 'finished', 'active']);
    const ids = async (status: string) =>
      (await t.call('GET', `${I}?per_page=1000&status=${status}`, { token: admin })).json().main_data.data.map((x: { id: number }) => x.id);
    expect(await ids('draft')).toEqual(expect.arrayContaining([draft.id, later.id]));
    expect(await ids('finished')).toContain(done.id);
    expect(await ids('finished')).not.toContain(active.id);
    expect(await ids('active')).toContain(active.id);
    expectFieldError(await t.call('GET', `${I}?status=open`, { token: admin }), 'status');
  });
});

describe('validation', () => {
  it('answers bad input with 422 and Ukrainian field errors, writing nothing', async () => {
    const before = (await t.db.select().from(interviews)).length;
    expectFieldError(await t.call('POST', I, { token: admin, body: base({ title: '' }) }), 'title');
    expectFieldError(await t.call('POST', I, { token: admin, body: base({ end_at: iso(-2) }) }), 'end_at');
    expectFieldError(await t.call('POST', I, { token: admin, body: base({ start_at: '2026-02-30' }) }), 'start_at');
    expectFieldError(await t.call('POST', I, { token: admin, body: base({ questions: [] }) }), 'questions');
    expectFieldError(
      await t.call('POST', I, { token: admin, body: base({ questions: [{ title: 'Так чи ні?', kind: 'single', options: ['Так'] }] }) }),
      'questions.0.options',
    );
    expectFieldError(
      await t.call('POST', I, { token: admin, body: base({ questions: [{ title: 'Так чи ні?', kind: 'single', options: ['Так', 'так'] }] }) }),
      'questions.0.options.1',
    );
    expectFieldError(
      await t.call('POST', I, { token: admin, body: base({ questions: [{ title: 'Оцінка', kind: 'scale', scale_max: 7 }] }) }),
      'questions.0.scale_max',
    );
    expectFieldError(await t.call('POST', I, { token: admin, body: base({ questions: [{ title: 'Оцінка', kind: 'scale' }] }) }), 'questions.0.scale_max');
    expectFieldError(
      await t.call('POST', I, { token: admin, body: base({ questions: [{ title: 'Побажання', kind: 'text', options: ['А', 'Б'] }] }) }),
      'questions.0.options',
    );
    expectFieldError(await t.call('POST', I, { token: admin, body: base({ questions: [{ title: 'Що?', kind: 'poll' }] }) }), 'questions.0.kind');
    expectFieldError(await t.call('POST', I, { token: admin, body: base({ complex_ids: [] }) }), 'complex_ids');
    expectFieldError(await t.call('POST', I, { token: admin, body: base({ house_ids: [other.houses[0]] }) }), 'house_ids');
    expectFieldError(await t.call('POST', I, { token: admin, body: base({ anonymous: 'так' }) }), 'anonymous');
    expectErrorBody(await t.call('POST', I, { token: admin, raw: '{"title":', contentType: 'application/json' }), 400);
    expect((await t.db.select().from(interviews)).length).toBe(before);
  });

  it('answers malformed queries and answer shapes with 4xx, never 500', async () => {
    const s = await createOk();
    expectFieldError(await t.call('GET', `${I}?house_ids[]=abc`, { token: admin }), 'house_ids.0');
    expectFieldError(await t.call('GET', `${I}?sort=secret`, { token: admin }), 'sort');
    expectFieldError(await t.call('GET', `${I}/${s.id}/users?per_page=0`, { token: admin }), 'per_page');
    expectFieldError(await t.call('GET', `${I}/abc`, { token: admin }), 'id');
    const q4 = (s.questions as Q[])[3];
    expectFieldError(await answer(s.id, { member_id: people.a1, channel: 'phone', answers: [{ question_id: q4.id, value: 'п’ять' }] }), 'answers.0.value');
    expectFieldError(
      await answer(s.id, { member_id: people.a1, channel: 'phone', answers: [{ question_id: q4.id, option_ids: 'x' }] }),
      'answers.0.option_ids',
    );
    expectFieldError(await answer(s.id, { member_id: 'abc', channel: 'phone', answers: [] }), 'member_id');
    expectFieldError(await answer(s.id, { member_id: 99999999, channel: 'phone', answers: [{ question_id: q4.id, value: 3 }] }), 'member_id');
    expectErrorBody(await t.call('POST', `${I}/${s.id}/answers`, { token: admin, raw: '[1,2]', contentType: 'application/json' }), 422);
    expect((await t.call('GET', `${I}/${s.id}`, { token: admin })).json().data.responses_count).toBe(0);
  });
});

describe('scoping', () => {
  it('staff work inside their complexes: another complex is 422 on create and 404 on read, edit, answers and users', async () => {
    expectFieldError(await t.call('POST', I, { token: staff, body: base({ complex_ids: [other.id] }) }), 'complex_ids');
    const theirs = await createOk({ complex_ids: [other.id] });
    const ours = await createOk({}, staff);
    for (const [method, url, body] of [
      ['GET', `${I}/${theirs.id}`, undefined],
      ['PUT', `${I}/${theirs.id}`, base()],
      ['DELETE', `${I}/${theirs.id}`, undefined],
      ['GET', `${I}/${theirs.id}/users`, undefined],
      ['POST', `${I}/${theirs.id}/answers`, { member_id: people.x1, channel: 'phone', answers: [{ question_id: 1, text: 'x' }] }],
    ] as const) {
      expectErrorBody(await t.call(method, url, { token: staff, body }), 404);
    }
    const ids = (await t.call('GET', `${I}?per_page=1000`, { token: staff })).json().main_data.data.map((x: { id: number }) => x.id);
    expect(ids).toContain(ours.id);
    expect(ids).not.toContain(theirs.id);
    // A survey also for another complex: readable, but not theirs to change.
    const mixed = await createOk({ complex_ids: [mine.id, other.id] });
    expect((await t.call('GET', `${I}/${mixed.id}`, { token: staff })).statusCode).toBe(200);
    expect((await t.call('GET', `${I}/${mixed.id}`, { token: staff })).json().data.audience_count).toBe(4);
    expectErrorBody(await t.call('PUT', `${I}/${mixed.id}`, { token: staff, body: base({ title: 'Інша назва' }) }), 403);
    expectErrorBody(await t.call('DELETE', `${I}/${mixed.id}`, { token: staff }), 403);
    // A resident of another complex is not among the addressees.
    expectFieldError(await answer(ours.id, { member_id: people.x1, channel: 'phone', answers: answersFor(ours, 0, [0], null, 3) }, staff), 'member_id');
    // Without the permission: 403.
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { interviews: ['view'] }, complexIds: [mine.id] });
    const vt = await t.login(viewer.email, viewer.password);
    expectErrorBody(await t.call('POST', I, { token: vt, body: base() }), 403);
    expectErrorBody(await answer(ours.id, { member_id: people.a1, channel: 'phone', answers: answersFor(ours, 0, [0], null, 3) }, vt), 403);
  });
});

describe('answers and results', () => {
  it('counts answers per question with percentages over those who answered it', async () => {
    const s = await createOk();
    const rec = async (member: number, ...a: Parameters<typeof answersFor> extends [unknown, ...infer R] ? R : never) => {
      const res = await answer(s.id, { member_id: member, channel: 'phone', answers: answersFor(s, ...a) }, staff);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    await rec(people.a1, 0, [0, 1], 'Більше лавок', 5);
    await rec(people.a2, 0, [1], null, 4);
    const last = await rec(people.b1, 1, [1, 2], 'Освітлення двору', 2);
    const [q1, q2, q3, q4] = last.questions;
    expect(last.responses_count).toBe(3);
    expect(q1.answered).toBe(3);
    expect(q1.options.map((o: Q['options'][number]) => [o.title, o.count, o.percent])).toEqual([
      ['Так', 2, 66.7],
      ['Ні', 1, 33.3],
      ['Байдуже', 0, 0],
    ]);
    // Multiple choice: each option over the three respondents, the sum may pass 100 %.
    expect(q2.options.map((o: Q['options'][number]) => [o.count, o.percent])).toEqual([
      [1, 33.3],
      [3, 100],
      [1, 33.3],
    ]);
    expect(q3.answered).toBe(2);
    expect(q3.texts).toEqual([
      { text: 'Більше лавок', member: expect.stringMatching(/^Андрієнко Олена/) },
      { text: 'Освітлення двору', member: expect.stringMatching(/^Гнатюк Марія/) },
    ]);
    expect(q4.average).toBeCloseTo(3.67, 2);
    expect(q4.options.map((o: Q['options'][number]) => o.count)).toEqual([0, 1, 0, 1, 1]);

    const users = (await t.call('GET', `${I}/${s.id}/users?status=answered`, { token: staff })).json();
    expect(users.summary).toEqual({ answered: 3, not_answered: 1 });
    const a1 = users.data.find((u: { id: number }) => u.id === people.a1);
    expect(a1.response).toMatchObject({ channel: 'phone', recorded_by: expect.any(String) });
    expect(a1.response.answers[String(q1.id)]).toBe('Так');
    expect(a1.response.answers[String(q2.id)]).toBe('Прибирання; Охорона');
    expect(a1.units[0]).toMatch(/кв\. 1$/);
  });

  it('refuses a second answer set of the same member (409) and invalid answers (422), writing nothing', async () => {
    const s = await createOk();
    const ok = await answer(s.id, { member_id: people.a1, channel: 'paper', answers: answersFor(s, 2, [2], 'Дякую', 1) });
    expect(ok.statusCode, ok.body).toBe(200);
    const again = expectErrorBody(await answer(s.id, { member_id: people.a1, channel: 'phone', answers: answersFor(s, 0, [0], null, 5) }), 409);
    expect(again.message).toMatch(/уже відповів/);
    const count = async () => (await t.db.select().from(interviewAnswers).where(eq(interviewAnswers.interviewId, s.id))).length;
    const before = await count();
    const [q1, q2, q3, q4] = s.questions as Q[];
    const bad = (answers: unknown[]) => answer(s.id, { member_id: people.a2, channel: 'phone', answers });
    expectFieldError(await bad([{ question_id: q1.id, option_ids: [q1.options[0].id, q1.options[1].id] }]), 'answers.0.option_ids');
    expectFieldError(await bad([{ question_id: q1.id, option_ids: [q2.options[0].id] }]), 'answers.0.option_ids');
    expectFieldError(await bad([{ question_id: q2.id, option_ids: [] }]), 'answers.0.option_ids');
    expectFieldError(await bad([{ question_id: q4.id, value: 6 }]), 'answers.0.value');
    expectFieldError(await bad([{ question_id: q3.id, text: '   ' }]), 'answers.0.text');
    expectFieldError(await bad([{ question_id: 999999, text: 'так' }]), 'answers.0.question_id');
    expectFieldError(
      await bad([
        { question_id: q3.id, text: 'а' },
        { question_id: q3.id, text: 'б' },
      ]),
      'answers.1.question_id',
    );
    expectFieldError(await answer(s.id, { member_id: people.a2, channel: 'email', answers: [{ question_id: q3.id, text: 'так' }] }), 'channel');
    expectFieldError(await answer(s.id, { member_id: people.a2, channel: 'phone', answers: [] }), 'answers');
    expect(await count()).toBe(before);
    const users = (await t.call('GET', `${I}/${s.id}/users`, { token: admin })).json();
    expect(users.summary.answered).toBe(1);
  });

  it('takes answers only while the survey is active', async () => {
    const draft = await createOk({ published: false });
    const done = await createOk({ start_at: iso(-10), end_at: iso(-1) });
    expect(
      expectErrorBody(await answer(draft.id, { member_id: people.a1, channel: 'phone', answers: answersFor(draft, 0, [0], null, 3) }), 409).message,
    ).toMatch(/не розпочалося/);
    expect(expectErrorBody(await answer(done.id, { member_id: people.a1, channel: 'phone', answers: answersFor(done, 0, [0], null, 3) }), 409).message).toMatch(
      /завершено/,
    );
  });

  it('an anonymous survey shows who answered, but not what they answered', async () => {
    const s = await createOk({ anonymous: true });
    expect((await answer(s.id, { member_id: people.a3, channel: 'phone', answers: answersFor(s, 0, [0], 'Яма біля під’їзду', 4) })).statusCode).toBe(200);
    expect((await answer(s.id, { member_id: people.a1, channel: 'paper', answers: answersFor(s, 1, [1], 'Більше світла', 2) })).statusCode).toBe(200);
    const data = (await t.call('GET', `${I}/${s.id}`, { token: admin })).json().data;
    expect(data.questions[2].texts).toEqual([
      { text: 'Більше світла', member: null },
      { text: 'Яма біля під’їзду', member: null },
    ]);
    expect(data.questions[0].options.map((o: Q['options'][number]) => o.count)).toEqual([1, 1, 0]);
    const users = (await t.call('GET', `${I}/${s.id}/users?status=answered`, { token: admin })).json();
    expect(users.data.map((u: { id: number }) => u.id).sort()).toEqual([people.a1, people.a3].sort());
    for (const u of users.data) expect(u.response.answers).toBeNull();
    // Nor is the link kept in the database.
    const rows = await t.db.select().from(interviewAnswers).where(eq(interviewAnswers.interviewId, s.id));
    expect(rows.every((r) => r.responseId === null)).toBe(true);
  });
});

describe('editing after the first answer', () => {
  it('refuses changes to questions, audience, anonymity and start with 409; title, description and end still change', async () => {
    const s = await createOk();
    expect((await answer(s.id, { member_id: people.a1, channel: 'phone', answers: answersFor(s, 0, [0], null, 3) })).statusCode).toBe(200);
    const put = (over: Record<string, unknown>) =>
      t.call('PUT', `${I}/${s.id}`, { token: admin, body: base({ start_at: s.start_at, end_at: s.end_at, ...over }) });
    const changed = questions();
    changed[0].options = ['Так', 'Ні'];
    for (const over of [
      { questions: changed },
      { questions: [...questions(), { title: 'Ще питання', kind: 'text' }] },
      { anonymous: true },
      { house_ids: [mine.houses[0]] },
      { start_at: iso(-3) },
    ]) {
      const body = expectErrorBody(await put(over), 409);
      expect(body.message).toMatch(/Після першої відповіді/);
    }
    expect(expectErrorBody(await put({ published: false }), 409).message).toMatch(/чернетку/);
    expectErrorBody(await t.call('DELETE', `${I}/${s.id}`, { token: admin }), 409);
    const ok = await put({ title: 'Благоустрій двору', description: 'Продовжили до кінця тижня.', end_at: iso(14) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ title: 'Благоустрій двору', questions_locked: true, responses_count: 1 });
    expect(ok.json().data.questions[0].options[0].count).toBe(1);
  });

  it('a finished survey changes only its title and description', async () => {
    const s = await createOk({ start_at: iso(-10), end_at: iso(-1) });
    const body = base({ start_at: s.start_at, end_at: s.end_at });
    expect(expectErrorBody(await t.call('PUT', `${I}/${s.id}`, { token: admin, body: { ...body, end_at: iso(3) } }), 409).message).toMatch(/завершено/);
    const ok = await t.call('PUT', `${I}/${s.id}`, { token: admin, body: { ...body, title: 'Підсумки опитування' } });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('respondents list', () => {
  it('pages, filters by status, search and the header selection', async () => {
    const s = await createOk();
    await answer(s.id, { member_id: people.a2, channel: 'other', answers: answersFor(s, 0, [0], null, 3) });
    const get = async (q: string) => {
      const res = await t.call('GET', `${I}/${s.id}/users${q}`, { token: admin });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const all = await get('?per_page=2');
    expect(all.pagination).toMatchObject({ total: 4, per_page: 2, last_page: 2 });
    // A survey narrowed to one house of the complex reaches that house's residents only.
    const narrowed = await createOk({ house_ids: [mine.houses[1]] });
    const reached = (await t.call('GET', `${I}/${narrowed.id}/users`, { token: admin })).json();
    expect(reached.data.map((u: { id: number }) => u.id)).toEqual([people.b1]);
    expect(all.data).toHaveLength(2);
    expect((await get('?status=not_answered')).data.map((u: { id: number }) => u.id).sort()).toEqual([people.a1, people.a3, people.b1].sort());
    expect((await get(`?house_ids[]=${mine.houses[1]}`)).data.map((u: { id: number }) => u.id)).toEqual([people.b1]);
    expect((await get('?search_query=' + encodeURIComponent('бойко'))).data.map((u: { id: number; answered: boolean }) => [u.id, u.answered])).toEqual([
      [people.a2, true],
    ]);
    expectFieldError(await t.call('GET', `${I}/${s.id}/users?status=maybe`, { token: admin }), 'status');
    expectFieldError(await t.call('GET', `${I}/${s.id}/users?page=0`, { token: admin }), 'page');
  });
});
