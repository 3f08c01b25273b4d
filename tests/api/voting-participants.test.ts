/**
 * A meeting's participants list is built in one SQL statement (server/modules/voting/participants.ts)
 * with areas and weights in numeric; the tallies count the same snapshot in exact fractions
 * (meeting.ts `meetingPeople`). On generated meetings — units with and without area, shares given
 * and joint owners in equal parts, answers to some questions — the list must show exactly what
 * the exact count gives, to the hundredth.
 */
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../server/db/index.ts';
import { votingAnswers, votingBallots, votingOwnerships, votingParticipants, votingQuestions, votings, votingUnits } from '../../server/db/schema.ts';
import { linkKeyOf, newLinkToken } from '../../server/modules/voting/linkTokens.ts';
import { loadMeeting, meetingPeople } from '../../server/modules/voting/meeting.ts';
import { participantsOf } from '../../server/modules/voting/routes.ts';
import type { VotingParticipant } from '../../contract/voting.ts';
import { ADMIN, API, setupApp, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let houseId: number;
let memberIds: number[];

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const [house] = await queryRows<{ id: number }>(t.db, sql`select id from houses where organization_id = ${t.organizationId} order by id limit 1`);
  houseId = house.id;
  const found = await queryRows<{ id: number }>(t.db, sql`select id from members where organization_id = ${t.organizationId} order by id limit 6`);
  memberIds = found.map((m) => m.id);
});
afterAll(() => t.close());

const share = fc.oneof(
  fc.constant(null),
  fc.integer({ min: 1, max: 7 }).chain((den) => fc.integer({ min: 1, max: den }).map((num) => ({ num, den }))),
);
const meeting = fc.record({
  regime: fc.constantFrom('osbb' as const, 'no_osbb' as const),
  // Areas in hundredths of m², odd ones included, some units without an area.
  units: fc.array(fc.option(fc.integer({ min: 0, max: 25_000 }), { nil: null, freq: 5 }), { minLength: 1, maxLength: 7 }),
  people: fc.integer({ min: 1, max: 6 }),
  questions: fc.integer({ min: 0, max: 3 }),
  // For each unit, its owners: (person index, share or joint).
  owners: fc.array(fc.array(fc.tuple(fc.nat(5), share), { maxLength: 3 }), { minLength: 7, maxLength: 7 }),
  answers: fc.array(fc.tuple(fc.nat(5), fc.nat(2), fc.constantFrom('for' as const, 'against' as const)), { maxLength: 8 }),
  // What the screen may ask: a status, a search (a name's part in any case, a unit number, a phone's digits, an e-mail's part), a page.
  status: fc.constantFrom(undefined, 'not_voted' as const, 'partial' as const, 'voted' as const),
  search: fc.constantFrom('', 'ник б', ' НИК В ', '3', '38', '@', 'кв'),
  perPage: fc.integer({ min: 1, max: 4 }),
  page: fc.integer({ min: 1, max: 3 }),
});

/** What the list shows for a status, a search and a page, from the exact count (the rules of GET /voting/:id/residents). */
function expected(all: VotingParticipant[], status: string | undefined, searchQuery: string, page: number, perPage: number) {
  const summary = { not_voted: 0, partial: 0, voted: 0 };
  for (const p of all) summary[p.status] += 1;
  const s = searchQuery.trim().toLowerCase();
  const digits = s.replace(/\D/g, '');
  const list = all
    .filter((p) => !status || p.status === status)
    .filter(
      (p) =>
        !s ||
        p.name.toLowerCase().includes(s) ||
        (p.email ?? '').includes(s) ||
        (digits !== '' && (p.phone ?? '').includes(digits)) ||
        p.units.some((u) => u.number.toLowerCase() === s),
    );
  return { data: list.slice((page - 1) * perPage, page * perPage), total: list.length, summary };
}

it('shows the areas, shares, weights and statuses the exact count gives, with its filters and pages', async () => {
  await fc.assert(
    fc.asyncProperty(meeting, async (g) => {
      const [v] = await t.db
        .insert(votings)
        .values({
          organizationId: t.organizationId,
          houseId,
          title: 'Згенеровані збори',
          regime: g.regime,
          initiator: 'Ініціатор',
          meetingDate: '2026-11-01',
          meetingTime: '18:30',
          ...newLinkToken(linkKeyOf(t.config)).columns,
        })
        .returning();
      const units = await t.db
        .insert(votingUnits)
        .values(g.units.map((area, i) => ({ votingId: v.id, type: 'apartment' as const, number: String(i + 1), areaCenti: area })))
        .returning();
      const people = await t.db
        .insert(votingParticipants)
        .values(memberIds.slice(0, g.people).map((memberId, i) => ({ votingId: v.id, memberId, name: `Співвласник ${String.fromCharCode(0x410 + i)}` })))
        .returning();
      const questions = g.questions
        ? await t.db
            .insert(votingQuestions)
            .values(
              Array.from({ length: g.questions }, (_, i) => ({ votingId: v.id, position: i + 1, title: `Питання ${i + 1}`, threshold: 'majority' as const })),
            )
            .returning()
        : [];
      const owned = new Set<string>();
      const ownerships = units.flatMap((u, i) =>
        g.owners[i]
          .filter(([p]) => p < people.length && !owned.has(`${u.id}:${p}`) && owned.add(`${u.id}:${p}`))
          .map(([p, s]) => ({ votingId: v.id, unitId: u.id, participantId: people[p].id, shareNumerator: s?.num ?? null, shareDenominator: s?.den ?? null })),
      );
      if (ownerships.length) await t.db.insert(votingOwnerships).values(ownerships);
      const answered = new Set<string>();
      for (const [p, q, answer] of g.answers) {
        if (p >= people.length || q >= questions.length || answered.has(`${p}:${q}`)) continue;
        answered.add(`${p}:${q}`);
        const [b] = await t.db
          .insert(votingBallots)
          .values({ votingId: v.id, participantId: people[p].id, channel: 'paper', ballotDate: '2026-11-02' })
          .returning();
        await t.db.insert(votingAnswers).values({ ballotId: b.id, votingId: v.id, participantId: people[p].id, questionId: questions[q].id, answer });
      }

      const m = await loadMeeting(t.db, v);
      const all = participantsOf(v.id, m, meetingPeople(m));
      const res = await t.call('GET', `${API}/voting/${v.id}/residents?page=1&per_page=100`, { token: admin });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual(all);
      // Plain numbers with at most two decimals, as a client reads them (not numeric's 16 zeros).
      expect(res.body).not.toMatch(/"(area|owned_area|weight_percent)" ?: ?-?\d+\.\d{3,}/);
      const query = new URLSearchParams({
        page: String(g.page),
        per_page: String(g.perPage),
        search_query: g.search,
        ...(g.status ? { status: g.status } : {}),
      });
      const asked = await t.call('GET', `${API}/voting/${v.id}/residents?${query}`, { token: admin });
      expect(asked.statusCode, asked.body).toBe(200);
      const want = expected(all, g.status, g.search, g.page, g.perPage);
      expect(asked.json().data).toEqual(want.data);
      expect(asked.json().pagination.total).toBe(want.total);
      expect(asked.json().summary).toEqual(want.summary);
      await t.db.delete(votings).where(eq(votings.id, v.id));
    }),
    { numRuns: 40 },
  );
});

it('answers a page far past the end with no rows, also beyond 32-bit offsets, and a meeting it may not see with 404', async () => {
  const [v] = await queryRows<{ id: number }>(t.db, sql`select id from votings where organization_id = ${t.organizationId} order by id limit 1`);
  for (const page of [2, 99_999_999_999, Number.MAX_SAFE_INTEGER]) {
    const res = await t.call('GET', `${API}/voting/${v.id}/residents?page=${page}&per_page=1000`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([]);
    expect(res.json().pagination.total).toBeGreaterThan(0);
  }
  const gone = await t.call('GET', `${API}/voting/2147483647/residents`, { token: admin });
  expect(gone.statusCode).toBe(404);
  expect(gone.json().message).toBe('Загальні збори не знайдено.');
});
