import { and, desc, eq, like } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, outbox, rateLimitHits, realty, residents, votingCodes, votings } from '../../server/db/schema.ts';
import { residentRolesOf } from '../../server/modules/members/roles.ts';
import { todayKyiv } from '../../server/modules/voting/meeting.ts';
import type { SignatureProvider } from '../../server/modules/voting/signature.ts';
import { API, createComplex, createUser, expectErrorBody, expectFieldError, setupApp, uid, type TestApp } from './helpers.ts';
import { makeCity, makeHouse } from './members-fixtures.ts';
import { EXE, JPEG, multipartBody, PDF, PNG, SVG } from './multipart.ts';

const PUBLIC = '/api/public/voting';

/** A test signature provider: a signature is valid when it is "signed:" + the document's length. */
const testProvider: SignatureProvider = {
  id: 'test-kep',
  title: 'Тестовий КЕП',
  async verify(document, signature) {
    return signature === `signed:${document.length}`
      ? { valid: true, signer: 'Тестовий Підписувач', signedAt: new Date() }
      : { valid: false, reason: 'підпис не відповідає документу' };
  },
};

let t: TestApp;
let admin: string;
let complexId: number;
let cityId: number;

const shiftDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
const today = () => todayKyiv();

beforeAll(async () => {
  t = await setupApp({ signatureProviders: [testProvider] });
  admin = await t.login('admin@test.ua', 'admin-pass-2026');
  complexId = (await createComplex(t.db, { organizationId: t.organizationId })).id;
  cityId = (await makeCity(t)).id;
});
afterAll(() => t?.close());

interface Person {
  key: string;
  email: string | null;
  phone?: string | null;
  name?: string;
}
/**
 * A house with units of the given areas and owners: `owners` are [person key, unit index, share
 * as [n, d] or null for joint]. Returns member ids by key.
 */
async function makeHouseWith(
  units: { type: 'apartment' | 'commercial'; number: string; area: string }[],
  people: Person[],
  owners: [string, number, [number, number] | null][],
) {
  const house = await makeHouse(t, cityId, complexId);
  const unitRows = await t.db
    .insert(realty)
    .values(units.map((u) => ({ organizationId: t.organizationId, houseId: house.id, type: u.type, number: u.number, area: u.area })))
    .returning();
  const ids: Record<string, number> = {};
  for (const p of people) {
    const [m] = await t.db
      .insert(members)
      .values({ organizationId: t.organizationId, name: p.name ?? `Співвласник ${p.key} ${uid()}`, email: p.email, phone: p.phone ?? null })
      .returning();
    ids[p.key] = m.id;
  }
  const roles = await residentRolesOf(t.db, t.organizationId);
  const owner = roles.find((r) => r.code === 'owner')!.id;
  const family = roles.find((r) => r.code === 'family')!.id;
  await t.db.insert(residents).values(
    owners.map(([key, unit, share]) => ({
      organizationId: t.organizationId,
      memberId: ids[key],
      realtyId: unitRows[unit].id,
      roleId: owner,
      shareNumerator: share?.[0] ?? null,
      shareDenominator: share?.[1] ?? null,
    })),
  );
  // A family member lives in Apt 1 but owns nothing: not a co-owner, not in the electorate.
  const [kid] = await t.db
    .insert(members)
    .values({ organizationId: t.organizationId, name: `Родич ${uid()}`, email: null })
    .returning();
  await t.db.insert(residents).values({ organizationId: t.organizationId, memberId: kid.id, realtyId: unitRows[0].id, roleId: family });
  return { house, ids };
}

/** The worked example of docs/voting-rules.md §5: A_total = 200 m², A 97.5, B 32, C 32, D 38.5. */
async function workedExampleHouse() {
  const s = uid();
  return makeHouseWith(
    [
      { type: 'apartment', number: '1', area: '45.50' },
      { type: 'apartment', number: '2', area: '64.00' },
      { type: 'apartment', number: '3', area: '38.50' },
      { type: 'commercial', number: '4', area: '52.00' },
    ],
    [
      { key: 'A', email: `a-${s}@test.ua` },
      { key: 'B', email: null, phone: `+38067${String(Math.floor(Math.random() * 9e6) + 1e6)}` },
      { key: 'C', email: `c-${s}@test.ua` },
      { key: 'D', email: `d-${s}@test.ua` },
    ],
    [
      ['A', 0, [1, 1]],
      ['B', 1, [1, 2]],
      ['C', 1, [1, 2]],
      ['D', 2, null],
      ['A', 3, [1, 1]],
    ],
  );
}

const meetingBody = (houseId: number, over: Record<string, unknown> = {}) => ({
  house_id: houseId,
  title: 'Ремонт покрівлі та кошторис',
  regime: 'no_osbb',
  initiator: 'Управитель ТОВ «Затишний дім»',
  meeting_date: today(),
  meeting_time: '18:30',
  place: 'подвір’я будинку',
  video_tools: 'Zoom, посилання в повідомленні',
  chair: 'Коваль Петро Іванович',
  questions: [
    { title: 'Затвердити кошторис поточного ремонту покрівлі на 2026 рік.', threshold: 'majority' },
    { title: 'Провести капітальний ремонт з реконструкцією горища під нові квартири.', threshold: 'qualified' },
  ],
  ...over,
});

async function createMeeting(houseId: number, over: Record<string, unknown> = {}) {
  const res = await t.call('POST', `${API}/voting`, { token: admin, body: meetingBody(houseId, over) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; questions: { id: number; tally: Record<string, unknown> }[] } & Record<string, unknown>;
}

async function getMeeting(id: number) {
  const res = await t.call('GET', `${API}/voting/${id}`, { token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function linkToken(id: number) {
  const res = await t.call('GET', `${API}/voting/${id}/deeplink`, { token: admin });
  expect(res.statusCode, res.body).toBe(200);
  const link = res.json().deeplink as string;
  expect(link).toMatch(/^https:\/\/zhk\.test\/Vote\/[A-Za-z0-9_-]+$/);
  return link.split('/').pop()!;
}

async function lastCode(recipient: string) {
  const [row] = await t.db.select().from(outbox).where(eq(outbox.recipient, recipient)).orderBy(desc(outbox.id)).limit(1);
  return /(\d{6})/.exec(row.body ?? '')![1];
}

/** Identifies a co-owner by a code sent to `contact` and returns the voting session token. */
async function signIn(token: string, contact: string, recipient = contact) {
  const sent = await t.call('POST', `${PUBLIC}/${token}/code`, { body: { contact } });
  expect(sent.statusCode, sent.body).toBe(200);
  const { challenge } = sent.json().data;
  const code = await lastCode(recipient);
  const verified = await t.call('POST', `${PUBLIC}/${token}/verify`, { body: { challenge, code } });
  expect(verified.statusCode, verified.body).toBe(200);
  return verified.json().data.token as string;
}

async function voteOnline(token: string, session: string, answers: Record<string, 'for' | 'against'>) {
  return t.call('POST', `${PUBLIC}/${token}/ballot`, { body: { answers }, headers: { authorization: `Bearer ${session}` } });
}

async function uploadSheet(
  votingId: number,
  memberId: number,
  answers: Record<string, 'for' | 'against'>,
  extra: Record<string, string> = {},
  file = { file: PDF, name: 'листок.pdf' },
) {
  const fields: Record<string, string | { file: Buffer; name: string }> = { file, type: 'sheet', ...extra };
  for (const [q, a] of Object.entries(answers)) fields[`answer_${q}`] = a;
  const { raw, contentType } = await multipartBody(fields);
  return t.call('POST', `${API}/voting/${votingId}/resident/${memberId}/upload_sheet`, { token: admin, raw, contentType });
}

describe('the worked example of docs/voting-rules.md §5, end to end', () => {
  it('counts A and B online, C on paper and D in the poll, by area, as the rules say', async () => {
    const { house, ids } = await workedExampleHouse();
    const m = await createMeeting(house.id);
    const [q1, q2] = m.questions.map((q) => q.id);
    expect(m).toMatchObject({ participants_count: 4, total_area: 200, headcount: false, largest_share_percent: 48.75, state: 'voting' });

    const token = await linkToken(m.id);
    const [a] = await t.db.select().from(members).where(eq(members.id, ids.A));
    const [b] = await t.db.select().from(members).where(eq(members.id, ids.B));
    // A by e-mail, B by SMS.
    const sa = await signIn(token, a.email!);
    expect((await voteOnline(token, sa, { [q1]: 'for', [q2]: 'for' })).statusCode).toBe(200);
    const sb = await signIn(token, b.phone!.replace('+380', '0'), b.phone!);
    const bVote = await voteOnline(token, sb, { [q1]: 'for', [q2]: 'for' });
    expect(bVote.statusCode, bVote.body).toBe(200);
    expect(bVote.json().data.voter).toMatchObject({ identification: 'sms_code', area: 32 });
    const cSheet = await uploadSheet(m.id, ids.C, { [q1]: 'against', [q2]: 'against' }, { ownership_document: 'Витяг з ДРРП № 12345' });
    expect(cSheet.statusCode, cSheet.body).toBe(200);
    expect(cSheet.json().data).toMatchObject({ status: 'voted', area: 32, weight_percent: 16, ownership_document: 'Витяг з ДРРП № 12345' });

    const after = await getMeeting(m.id);
    // Ordinary question: 64.75 % > 50 % → adopted.
    expect(after.questions[0].tally).toMatchObject({
      status: 'adopted',
      for: { count: 2, area: 129.5, percent: 64.75 },
      against: { count: 1, area: 32, percent: 16 },
      outstanding: { count: 1, area: 38.5, percent: 19.25 },
    });
    // 75 % question: at most 84 % is reachable; D is polled.
    expect(after.questions[1].tally).toMatchObject({ status: 'open', reachable: true, for: { percent: 64.75 } });
    expect(after.warnings.find((w: { code: string }) => w.code === 'poll_open').message).toMatch(/^1 питання ще не вирішено: письмове опитування/);

    // D votes "за" in the poll → 84 % → adopted; every question decided, results due in 15 days.
    expect((await uploadSheet(m.id, ids.D, { [q2]: 'for' })).statusCode).toBe(200);
    const done = await getMeeting(m.id);
    expect(done.questions[1].tally).toMatchObject({
      status: 'adopted',
      for: { count: 3, area: 168, percent: 84 },
      against: { count: 1, percent: 16 },
      outstanding: { count: 0, area: 0, percent: 0 },
    });
    expect(done.state).toBe('finished');
    expect(done.deadlines.ended_on).toBe(today());
    expect(done.deadlines.results_by).toBe(shiftDays(today(), 15));
    expect(done.warnings.map((w: { code: string }) => w.code)).toContain('results_due');

    // The residents list: units, area, share and ballot status per co-owner; the family member is not there.
    const list = await t.call('GET', `${API}/voting/${m.id}/residents?per_page=10`, { token: admin });
    expect(list.statusCode).toBe(200);
    expect(list.json().pagination.total).toBe(4);
    const rowA = list.json().data.find((p: { id: number }) => p.id === ids.A);
    expect(rowA).toMatchObject({ area: 97.5, weight_percent: 48.75, status: 'voted' });
    expect(rowA.units).toEqual([
      expect.objectContaining({ number: '1', area: 45.5, share: '1', owned_area: 45.5 }),
      expect.objectContaining({ number: '4', area: 52, share: '1', owned_area: 52 }),
    ]);
    expect(rowA.ballots[0]).toMatchObject({ channel: 'electronic', identification: 'email_code', signed: false });
    const rowD = list.json().data.find((p: { id: number }) => p.id === ids.D);
    expect(rowD).toMatchObject({ status: 'partial', units: [expect.objectContaining({ share: '1/1' })] });
    const notVoted = await t.call('GET', `${API}/voting/${m.id}/residents?status=partial`, { token: admin });
    expect(notVoted.json().data.map((p: { id: number }) => p.id)).toEqual([ids.D]);
  });

  it('an ОСББ statute of 2/3 leaves the question to D; 60 % adopts it', async () => {
    const { house, ids } = await workedExampleHouse();
    const m = await createMeeting(house.id, {
      regime: 'osbb',
      statute_text: 'Рішення приймаються не менш як двома третинами голосів загальної кількості усіх співвласників (п. 5.3 статуту).',
      questions: [
        { title: 'Затвердити розмір внесків на утримання будинку.', threshold: 'two_thirds' },
        { title: 'Обрати правління ОСББ у складі трьох осіб.', threshold: 'statute', threshold_percent: 60, capped: true },
        { title: 'Затвердити кошторис ОСББ на 2026 рік.', threshold: 'statute', threshold_percent: 67, capped: true },
      ],
    });
    const qs = m.questions.map((q) => q.id);
    for (const [key, answer] of [
      ['A', 'for'],
      ['B', 'for'],
      ['C', 'against'],
    ] as const) {
      expect((await uploadSheet(m.id, ids[key], Object.fromEntries(qs.map((q) => [q, answer])))).statusCode).toBe(200);
    }
    const r = await getMeeting(m.id);
    expect(r.questions.map((q: { tally: { status: string } }) => q.tally.status)).toEqual(['open', 'adopted', 'open']);
    expect(r.questions[0]).toMatchObject({
      threshold_text: 'не менше 2/3 голосів усіх співвласників (за статутом)',
      tally: { threshold: { percent: 66.67, inclusive: true } },
    });
    expect(r.statute_text).toMatch(/двома третинами/);
  });
});

describe('the dominant owner at exactly 50 %', () => {
  // X holds 100 of 200 m², Y and Z 50 each; Y and Z vote "за".
  it.each([
    ['osbb', false, 'open'],
    ['no_osbb', true, 'adopted'],
  ] as const)('%s: headcount %s, two of three heads "за" → %s', async (regime, headcount, status) => {
    const { house, ids } = await makeHouseWith(
      [
        { type: 'apartment', number: '1', area: '100.00' },
        { type: 'apartment', number: '2', area: '50.00' },
        { type: 'apartment', number: '3', area: '50.00' },
      ],
      [
        { key: 'X', email: null },
        { key: 'Y', email: null },
        { key: 'Z', email: null },
      ],
      [
        ['X', 0, null],
        ['Y', 1, null],
        ['Z', 2, null],
      ],
    );
    const m = await createMeeting(house.id, { regime, questions: [{ title: 'Змінити управителя будинку.', threshold: 'majority' }] });
    expect(m).toMatchObject({ headcount, largest_share_percent: 50 });
    const q = m.questions[0].id;
    await uploadSheet(m.id, ids.Y, { [q]: 'for' });
    await uploadSheet(m.id, ids.Z, { [q]: 'for' });
    const r = await getMeeting(m.id);
    expect(r.questions[0].tally).toMatchObject({ status, headcount, for: { count: 2, area: 100 } });
    expect(r.questions[0].tally.for.percent).toBe(headcount ? 66.67 : 50);
    expect(r.warnings.some((w: { code: string }) => w.code === 'headcount')).toBe(headcount);
  });
});

describe('thresholds are checked against the regime', () => {
  it('refuses a statute threshold without an ОСББ, out of bounds, above 67 % for capped questions, and without the rule text', async () => {
    const { house } = await workedExampleHouse();
    const q = (over: Record<string, unknown>) => ({ title: 'Затвердити кошторис на рік.', threshold: 'majority', ...over });
    expectFieldError(
      await t.call('POST', `${API}/voting`, {
        token: admin,
        body: meetingBody(house.id, { questions: [q({ threshold: 'statute', threshold_percent: 60 })], statute_text: 'п. 5' }),
      }),
      'questions.0.threshold',
    );
    expectFieldError(
      await t.call('POST', `${API}/voting`, {
        token: admin,
        body: meetingBody(house.id, { questions: [q({ threshold: 'two_thirds' })], statute_text: 'п. 5' }),
      }),
      'questions.0.threshold',
    );
    const osbb = { regime: 'osbb', statute_text: 'п. 5.3 статуту' };
    expectFieldError(
      await t.call('POST', `${API}/voting`, {
        token: admin,
        body: meetingBody(house.id, { ...osbb, questions: [q({ threshold: 'statute', threshold_percent: 80 })] }),
      }),
      'questions.0.threshold_percent',
    );
    expectFieldError(
      await t.call('POST', `${API}/voting`, {
        token: admin,
        body: meetingBody(house.id, { ...osbb, questions: [q({ threshold: 'statute', threshold_percent: 70, capped: true })] }),
      }),
      'questions.0.threshold_percent',
    );
    expectFieldError(
      await t.call('POST', `${API}/voting`, {
        token: admin,
        body: meetingBody(house.id, { regime: 'osbb', questions: [q({ threshold: 'statute', threshold_percent: 60 })] }),
      }),
      'statute_text',
    );
    expectFieldError(await t.call('POST', `${API}/voting`, { token: admin, body: meetingBody(house.id, { questions: [] }) }), 'questions');
    expectFieldError(await t.call('POST', `${API}/voting`, { token: admin, body: meetingBody(house.id, { meeting_date: '2026-02-30' }) }), 'meeting_date');
  });

  it('rejects a question once "проти" passes the threshold', async () => {
    const { house, ids } = await workedExampleHouse();
    const m = await createMeeting(house.id, { questions: [{ title: 'Встановити шлагбаум.', threshold: 'majority' }] });
    const q = m.questions[0].id;
    await uploadSheet(m.id, ids.A, { [q]: 'against' });
    await uploadSheet(m.id, ids.D, { [q]: 'against' });
    expect((await getMeeting(m.id)).questions[0].tally).toMatchObject({ status: 'rejected', against: { percent: 68 } });
  });
});

describe('the written poll of 45 days', () => {
  it('closes: an open question becomes not adopted, and later votes are refused', async () => {
    const { house, ids } = await workedExampleHouse();
    const meetingDate = shiftDays(today(), -46);
    const m = await createMeeting(house.id, { meeting_date: meetingDate, notice_date: shiftDays(meetingDate, -12) });
    const [q1, q2] = m.questions.map((q) => q.id);
    // A paper sheet dated within the poll still counts; one dated today is too late.
    expect((await uploadSheet(m.id, ids.A, { [q1]: 'for', [q2]: 'for' }, { ballot_date: shiftDays(meetingDate, 3) })).statusCode).toBe(200);
    expectFieldError(await uploadSheet(m.id, ids.B, { [q1]: 'for' }), 'ballot_date');
    const r = await getMeeting(m.id);
    expect(r.deadlines.poll_ends).toBe(shiftDays(meetingDate, 45));
    expect(r.questions.map((q: { tally: { status: string } }) => q.tally.status)).toEqual(['not_adopted', 'not_adopted']);
    expect(r.state).toBe('finished');
    expect(r.deadlines.ended_on).toBe(shiftDays(meetingDate, 45));
    expect(r.warnings.map((w: { code: string }) => w.code)).not.toContain('notice_missing');

    const token = await linkToken(m.id);
    const [b] = await t.db.select().from(members).where(eq(members.id, ids.C));
    const session = await signIn(token, b.email!);
    expectFieldError(await voteOnline(token, session, { [q1]: 'for' }), 'answers');
  });

  it('warns about a notice later than 10 days before the meeting', async () => {
    const { house } = await workedExampleHouse();
    const m = await createMeeting(house.id, { notice_date: shiftDays(today(), -3) });
    expect((m.warnings as { code: string; level: string }[]).find((w) => w.code === 'notice_late')).toMatchObject({ level: 'error' });
  });
});

describe('one vote per co-owner per question', () => {
  it('refuses a paper sheet after an electronic vote on the same question, and the other way round', async () => {
    const { house, ids } = await workedExampleHouse();
    const m = await createMeeting(house.id);
    const [q1, q2] = m.questions.map((q) => q.id);
    const token = await linkToken(m.id);
    const [a] = await t.db.select().from(members).where(eq(members.id, ids.A));
    const session = await signIn(token, a.email!);
    expect((await voteOnline(token, session, { [q1]: 'for' })).statusCode).toBe(200);

    const twice = expectErrorBody(await uploadSheet(m.id, ids.A, { [q1]: 'against', [q2]: 'for' }), 409);
    expect(twice.message).toMatch(/уже проголосував електронно .* з питань № 1/);
    // Nothing of the refused sheet was stored: q2 has no vote of A.
    expect((await getMeeting(m.id)).questions[1].tally.for.count).toBe(0);
    // The open question can still be answered on paper.
    expect((await uploadSheet(m.id, ids.A, { [q2]: 'for' })).statusCode).toBe(200);
    const again = expectErrorBody(await voteOnline(token, session, { [q2]: 'against' }), 409);
    expect(again.message).toMatch(/паперовим листком/);
    const r = await getMeeting(m.id);
    expect(r.questions[0].tally.for.count).toBe(1);
    expect(r.questions[1].tally).toMatchObject({ for: { count: 1 }, against: { count: 0 } });
    expect(r.electorate_editable).toBe(false);

    // After the first ballot the agenda is frozen, other fields are not.
    const body = {
      ...meetingBody(house.id),
      questions: r.questions.map((q: { id: number; title: string; threshold: string }) => ({ id: q.id, title: q.title, threshold: q.threshold })),
    };
    expect((await t.call('PUT', `${API}/voting/${m.id}`, { token: admin, body: { ...body, chair: 'Інший Голова' } })).statusCode).toBe(200);
    expectFieldError(
      await t.call('PUT', `${API}/voting/${m.id}`, {
        token: admin,
        body: { ...body, questions: [{ ...body.questions[0], threshold: 'qualified' }, body.questions[1]] },
      }),
      'questions',
    );
    expectErrorBody(await t.call('DELETE', `${API}/voting/${m.id}`, { token: admin }), 409);
  });
});

describe('paper sheet uploads', () => {
  it('sniffs the type, caps the size and needs the file and an answer', async () => {
    const { house, ids } = await workedExampleHouse();
    const m = await createMeeting(house.id);
    const q = m.questions[0].id;
    expectErrorBody(await uploadSheet(m.id, ids.A, { [q]: 'for' }, {}, { file: EXE, name: 'листок.pdf' }), 415);
    expectErrorBody(await uploadSheet(m.id, ids.A, { [q]: 'for' }, {}, { file: SVG, name: 'листок.png' }), 415);
    expectErrorBody(
      await uploadSheet(m.id, ids.A, { [q]: 'for' }, {}, { file: Buffer.concat([PDF, Buffer.alloc(20 * 1024 * 1024)]), name: 'великий.pdf' }),
      413,
    );
    expectFieldError(await uploadSheet(m.id, ids.A, {}), 'answers');
    expectFieldError(await uploadSheet(m.id, ids.A, { 999999: 'for' }), 'answers');
    expectFieldError(await uploadSheet(m.id, ids.A, { [q]: 'maybe' as 'for' }), `answer_${q}`);
    const { raw, contentType } = await multipartBody({ [`answer_${q}`]: 'for' });
    expectFieldError(await t.call('POST', `${API}/voting/${m.id}/resident/${ids.A}/upload_sheet`, { token: admin, raw, contentType }), 'file');
    expectErrorBody(await uploadSheet(m.id, 2147483000, { [q]: 'for' }), 404);
    // Nothing was recorded by the refused uploads; a photo of the sheet is fine and can be viewed.
    const ok = await uploadSheet(
      m.id,
      ids.A,
      { [q]: 'for' },
      { representative: 'Іваненко О. П.', representative_document: 'Довіреність від 01.03.2026 № 77' },
      { file: JPEG, name: 'фото.jpg' },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    const ballot = ok.json().data.ballots[0];
    expect(ballot).toMatchObject({ channel: 'paper', representative: 'Іваненко О. П.', sheet: { mime: 'image/jpeg', name: 'фото.jpg' } });
    const sheet = await t.call('GET', ballot.sheet.url, { token: admin });
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-type']).toBe('image/jpeg');
    // A mistaken sheet can be annulled, and the person can vote again.
    expect((await t.call('DELETE', `${API}/voting/${m.id}/ballots/${ballot.id}`, { token: admin })).statusCode).toBe(200);
    expect((await uploadSheet(m.id, ids.A, { [q]: 'against' }, {}, { file: PNG, name: 'фото.png' })).statusCode).toBe(200);
  });
});

describe('names in Ukrainian alphabet order', () => {
  it('lists the participants and prints the protocol with Ґ after Г, Є after Е, І and Ї after И', async () => {
    const names = ['Ярош Ірина', 'Їжак Павло', 'Ґудзь Олег', 'Євтушенко Ніна', 'Іваненко Ігор', 'Гнатюк Анна', 'Абрамович Ілля', 'Ющенко Ліна'];
    const people = names.map((name, i) => ({ key: String(i), email: null, name }));
    const { house, ids } = await makeHouseWith(
      names.map((_, i) => ({ type: 'apartment' as const, number: String(i + 1), area: '40.00' })),
      people,
      names.map((_, i) => [String(i), i, [1, 1]] as [string, number, [number, number]]),
    );
    const m = await createMeeting(house.id);
    const expected = ['Абрамович Ілля', 'Гнатюк Анна', 'Ґудзь Олег', 'Євтушенко Ніна', 'Іваненко Ігор', 'Їжак Павло', 'Ющенко Ліна', 'Ярош Ірина'];
    const res = await t.call('GET', `${API}/voting/${m.id}/residents?per_page=50`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((p: { name: string }) => p.name)).toEqual(expected);

    // The protocol lists those who voted: everyone votes on paper, in another order.
    const [q1, q2] = m.questions.map((q) => q.id);
    for (const key of ['3', '0', '5', '1', '7', '2', '6', '4']) expect((await uploadSheet(m.id, ids[key], { [q1]: 'for', [q2]: 'for' })).statusCode).toBe(200);
    const pdf = await t.call('GET', `${API}/voting/${m.id}/protocol`, { token: admin });
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.rawPayload)), { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    const at = expected.map((name) => flat.indexOf(name));
    expect(
      at.every((i) => i >= 0),
      flat,
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});

describe('the protocol', () => {
  it('is a PDF in Ukrainian with the tallies, until a signed scan replaces it', async () => {
    const { house, ids } = await workedExampleHouse();
    const m = await createMeeting(house.id);
    const [q1, q2] = m.questions.map((q) => q.id);
    await uploadSheet(m.id, ids.A, { [q1]: 'for', [q2]: 'for' }, { representative: 'Мельник Ігор', representative_document: 'Довіреність № 15' });
    await uploadSheet(m.id, ids.B, { [q1]: 'for', [q2]: 'for' });
    await uploadSheet(m.id, ids.C, { [q1]: 'against', [q2]: 'against' });
    const res = await t.call('GET', `${API}/voting/${m.id}/protocol`, { token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
    const { text } = await extractText(pdf, { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    for (const expected of [
      'ПРОТОКОЛ',
      'Управитель ТОВ «Затишний дім»',
      'Zoom',
      'Загальна кількість співвласників: 4',
      '200,00 м²',
      'Коваль Петро Іванович',
      'Затвердити кошторис поточного ремонту покрівлі',
      '«За»: 2 співвласн., 129,50 м², 64,75 %',
      '«Проти»: 1 співвласн., 32,00 м², 16 %',
      'Не голосували: 1 співвласн., 38,50 м², 19,25 %',
      'РІШЕННЯ ПРИЙНЯТО',
      'триває письмове опитування',
      'Довіреність № 15',
    ]) {
      expect(flat).toContain(expected);
    }

    const { raw, contentType } = await multipartBody({ file: { file: PDF, name: 'протокол підписаний.pdf' }, type: 'protocol' });
    const up = await t.call('POST', `${API}/voting/${m.id}/protocol`, { token: admin, raw, contentType });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().data.protocol).toMatchObject({ uploaded: true, name: 'протокол підписаний.pdf' });
    const official = await t.call('GET', `${API}/voting/${m.id}/protocol`, { token: admin });
    expect(official.rawPayload.equals(PDF)).toBe(true);
    const generated = await t.call('GET', `${API}/voting/${m.id}/protocol?generated=1`, { token: admin });
    expect(generated.rawPayload.length).toBeGreaterThan(PDF.length);
    const bad = await multipartBody({ file: { file: EXE, name: 'x.pdf' } });
    expectErrorBody(await t.call('POST', `${API}/voting/${m.id}/protocol`, { token: admin, raw: bad.raw, contentType: bad.contentType }), 415);
  });
});

describe('voting through the link with a one-time code', () => {
  it('refuses a wrong, an expired and a reused code', async () => {
    const { house, ids } = await workedExampleHouse();
    const m = await createMeeting(house.id);
    const token = await linkToken(m.id);
    const [c] = await t.db.select().from(members).where(eq(members.id, ids.C));

    const page = await t.call('GET', `${PUBLIC}/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toMatchObject({
      title: 'Ремонт покрівлі та кошторис',
      open: true,
      questions: [expect.objectContaining({ position: 1 }), expect.objectContaining({ position: 2 })],
    });
    expectErrorBody(await t.call('GET', `${PUBLIC}/nonexistent-token-123`), 404);

    // An unknown address gets the same answer, and no message goes out.
    const unknown = await t.call('POST', `${PUBLIC}/${token}/code`, { body: { contact: `nobody-${uid()}@test.ua` } });
    expect(unknown.statusCode).toBe(200);
    expectFieldError(await t.call('POST', `${PUBLIC}/${token}/verify`, { body: { challenge: unknown.json().data.challenge, code: '123456' } }), 'code');
    expectFieldError(await t.call('POST', `${PUBLIC}/${token}/code`, { body: { contact: 'не телефон' } }), 'contact');

    const sent = await t.call('POST', `${PUBLIC}/${token}/code`, { body: { contact: c.email!.toUpperCase() } });
    const { challenge } = sent.json().data;
    const code = await lastCode(c.email!);
    const wrong = expectFieldError(
      await t.call('POST', `${PUBLIC}/${token}/verify`, { body: { challenge, code: code === '000000' ? '111111' : '000000' } }),
      'code',
    );
    expect(wrong.errors!.code[0]).toMatch(/Невірний код/);
    // Another resend within a minute is refused.
    expectErrorBody(await t.call('POST', `${PUBLIC}/${token}/code`, { body: { contact: c.email! } }), 429);

    const ok = await t.call('POST', `${PUBLIC}/${token}/verify`, { body: { challenge, code } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.ballot.voter).toMatchObject({ identification: 'email_code', area: 32 });
    const reused = expectFieldError(await t.call('POST', `${PUBLIC}/${token}/verify`, { body: { challenge, code } }), 'code');
    expect(reused.errors!.code[0]).toMatch(/використано/);

    // Expired: a fresh code whose time ran out (asked for two minutes later, past the once-a-minute limit).
    await t.db
      .update(rateLimitHits)
      .set({ at: new Date(Date.now() - 120_000) })
      .where(like(rateLimitHits.key, `voting-code:contact:${m.id}:%`));
    const again = await t.call('POST', `${PUBLIC}/${token}/code`, { body: { contact: c.email! } });
    expect(again.statusCode, again.body).toBe(200);
    await t.db
      .update(votingCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(votingCodes.votingId, m.id)));
    const expired = expectFieldError(
      await t.call('POST', `${PUBLIC}/${token}/verify`, { body: { challenge: again.json().data.challenge, code: await lastCode(c.email!) } }),
      'code',
    );
    expect(expired.errors!.code[0]).toMatch(/застарів/);

    // A session of this meeting does not open another meeting's ballot, and no session votes nothing.
    const session = ok.json().data.token;
    expectErrorBody(await voteOnline(token, 'bogus', { [m.questions[0].id]: 'for' }), 401);
    const other = await createMeeting(house.id);
    expectErrorBody(await t.call('GET', `${PUBLIC}/${await linkToken(other.id)}/ballot`, { headers: { authorization: `Bearer ${session}` } }), 401);
    const voted = await voteOnline(token, session, { [m.questions[0].id]: 'against' });
    expect(voted.statusCode, voted.body).toBe(200);
    expect(voted.json().data.answered[String(m.questions[0].id)]).toMatchObject({ answer: 'against', channel: 'electronic' });
  });

  it('a meeting counting only signed or paper ballots refuses unsigned ones and takes a valid signature', async () => {
    const { house, ids } = await workedExampleHouse();
    const m = await createMeeting(house.id, { signed_only: true });
    expect(m.signature_providers).toEqual([{ id: 'test-kep', title: 'Тестовий КЕП' }]);
    const q = m.questions[0].id;
    const token = await linkToken(m.id);
    const [a] = await t.db.select().from(members).where(eq(members.id, ids.A));
    const session = await signIn(token, a.email!);
    const auth = { authorization: `Bearer ${session}` };
    expectFieldError(await voteOnline(token, session, { [q]: 'for' }), 'signature');
    const doc = await t.call('POST', `${PUBLIC}/${token}/ballot/document`, { body: { answers: { [q]: 'for' } }, headers: auth });
    expect(doc.statusCode, doc.body).toBe(200);
    const { text, sha256 } = doc.json().data;
    expect(text).toMatch(/Затвердити кошторис .* — ЗА/);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    expectFieldError(
      await t.call('POST', `${PUBLIC}/${token}/ballot`, {
        body: { answers: { [q]: 'for' }, signature: { provider: 'test-kep', data: 'forged' } },
        headers: auth,
      }),
      'signature',
    );
    expectFieldError(
      await t.call('POST', `${PUBLIC}/${token}/ballot`, { body: { answers: { [q]: 'for' }, signature: { provider: 'unknown', data: 'x' } }, headers: auth }),
      'signature',
    );
    const signed = await t.call('POST', `${PUBLIC}/${token}/ballot`, {
      body: { answers: { [q]: 'for' }, signature: { provider: 'test-kep', data: `signed:${text.length}` } },
      headers: auth,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const list = await t.call('GET', `${API}/voting/${m.id}/residents?status=partial`, { token: admin });
    expect(list.json().data[0].ballots[0]).toMatchObject({
      channel: 'electronic',
      signed: true,
      signature_provider: 'test-kep',
      signature_signer: 'Тестовий Підписувач',
    });
  });
});

describe('invitations, scope and permissions', () => {
  it('re-sends the invitation to those who have not voted, at most once a day', async () => {
    const { house, ids } = await workedExampleHouse();
    const m = await createMeeting(house.id);
    await uploadSheet(m.id, ids.A, Object.fromEntries(m.questions.map((q) => [q.id, 'for'])));
    const res = await t.call('POST', `${API}/voting/${m.id}/replay-notification`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    // B (SMS), C and D (e-mail); A has voted on everything.
    expect(res.json().data).toMatchObject({ sent: 3, skipped: 0 });
    const [c] = await t.db.select().from(members).where(eq(members.id, ids.C));
    const [mail] = await t.db.select().from(outbox).where(eq(outbox.recipient, c.email!)).orderBy(desc(outbox.id)).limit(1);
    expect(mail.body).toContain('https://zhk.test/Vote/');
    expect(mail.body).toContain('Затвердити кошторис поточного ремонту покрівлі');
    const again = expectErrorBody(await t.call('POST', `${API}/voting/${m.id}/replay-notification`, { token: admin }), 429);
    expect(again.message).toMatch(/не раніше/);
  });

  it("answers 404 outside the staff member's complexes and 403 without the permission", async () => {
    const { house } = await workedExampleHouse();
    const m = await createMeeting(house.id);
    const other = await createComplex(t.db, { organizationId: t.organizationId });
    const outsider = await createUser(t.db, { organizationId: t.organizationId, permissions: { votings: ['view', 'create', 'edit'] }, complexIds: [other.id] });
    const outsiderToken = await t.login(outsider.email, outsider.password);
    expectErrorBody(await t.call('GET', `${API}/voting/${m.id}`, { token: outsiderToken }), 404);
    expectErrorBody(await t.call('GET', `${API}/voting/${m.id}/protocol`, { token: outsiderToken }), 404);
    expectFieldError(await t.call('POST', `${API}/voting`, { token: outsiderToken, body: meetingBody(house.id) }), 'house_id');
    const list = await t.call('GET', `${API}/voting`, { token: outsiderToken });
    expect(list.json().main_data.data).toEqual([]);
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { complexes: ['view'] }, complexIds: [complexId] });
    const viewerToken = await t.login(viewer.email, viewer.password);
    expectErrorBody(await t.call('GET', `${API}/voting`, { token: viewerToken }), 403);
    expectErrorBody(await t.call('GET', `${API}/voting/form`, { token: viewerToken }), 403);
  });

  it('lists meetings with the header filter and the form choices', async () => {
    const { house } = await workedExampleHouse();
    const m = await createMeeting(house.id, { title: `Збори ${uid()}` });
    const res = await t.call('GET', `${API}/voting?house_ids[]=${house.id}&state=voting`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().main_data.data.map((v: { id: number }) => v.id)).toContain(m.id);
    expect(res.json().main_data.data[0]).toMatchObject({ participants_count: 4, questions_count: 2 });
    expect((await t.call('GET', `${API}/voting?state=scheduled&house_ids[]=${house.id}`, { token: admin })).json().main_data.total).toBe(0);
    expectFieldError(await t.call('GET', `${API}/voting?state=bogus`, { token: admin }), 'state');
    const form = await t.call('GET', `${API}/voting/form`, { token: admin });
    expect(form.json().form.thresholds.map((x: { id: string }) => x.id)).toEqual(['majority', 'qualified', 'statute', 'two_thirds']);
    expect(form.json().form.houses.some((h: { id: number }) => h.id === house.id)).toBe(true);
    // The link is kept as its hash and a sealed copy, never in clear (./voting-link.test.ts).
    const [row] = await t.db.select().from(votings).where(eq(votings.id, m.id));
    expect(row).toMatchObject({ linkToken: null, linkTokenHash: expect.stringMatching(/^[0-9a-f]{64}$/), linkTokenSealed: expect.stringMatching(/^v1\./) });
    expect(row.linkTokenSealed).not.toContain(await linkToken(m.id));
  });
});

describe('co-owners who cannot vote by the link', () => {
  it('are counted in words that agree with the number', async () => {
    const message = async (withoutContacts: number) => {
      const people = [{ key: 'A', email: `a-${uid()}@test.ua` }, ...Array.from({ length: withoutContacts }, (_, i) => ({ key: `N${i}`, email: null }))];
      const { house } = await makeHouseWith(
        [{ type: 'apartment', number: '1', area: '50.00' }],
        people,
        people.map((p) => [p.key, 0, null] as [string, number, null]),
      );
      const m = await createMeeting(house.id);
      return ((await getMeeting(m.id)).warnings as { code: string; message: string }[]).find((w) => w.code === 'no_contact')?.message;
    };
    expect(await message(1)).toBe('1 співвласник без телефону й e-mail не зможе голосувати за посиланням: для нього — паперовий листок.');
    expect(await message(3)).toBe('3 співвласники без телефону й e-mail не зможуть голосувати за посиланням: для них — паперовий листок.');
    expect(await message(5)).toBe('5 співвласників без телефону й e-mail не зможуть голосувати за посиланням: для них — паперовий листок.');
  });
});
