import { and, asc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { fixedStatement } from '../../db/index.ts';
import { jsonRows } from '../../db/jsonRows.ts';
import { ukrainianSortKey } from '../../lib/sortKey.ts';
import { plural } from '../../lib/words.ts';
import type { BallotStatus, QuestionStatus, TallyRecord, VotingState, VotingWarning } from '../../../contract/voting.ts';
import type { Db } from '../../db/index.ts';
import {
  media,
  members,
  realty,
  residentRoles,
  residents,
  votingAnswers,
  votingBallots,
  votingOwnerships,
  votingParticipants,
  votingQuestions,
  votings,
  votingUnits,
} from '../../db/schema.ts';
import { deadlines, electorate, frac, percent, resultsNoticeBy, squareMetres, tally, type Answer, type Electorate, type Threshold } from './tally.ts';

type Tx = Pick<Db, 'select' | 'insert' | 'delete' | 'update'>;

/** Today in Kyiv as YYYY-MM-DD: the law counts calendar days where the house is. */
export function todayKyiv(now = new Date()): string {
  return KYIV_DATE.format(now);
}
const KYIV_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kyiv', year: 'numeric', month: '2-digit', day: '2-digit' });

export const formatUa = (isoDate: string) => isoDate.split('-').reverse().join('.');

export const UNIT_TYPE_NAMES: Record<string, string> = { apartment: 'кв.', commercial: 'нежитл. прим.', parking: 'паркомісце', storage: 'комора' };
export const unitLabel = (u: { type: string; number: string }) => `${UNIT_TYPE_NAMES[u.type] ?? ''} ${u.number}`.trim();

/**
 * Takes the electorate from the register: every unit of the house (they all make up the total
 * area) and every member whose role holds a share (owner, co-owner), with the share as recorded.
 * Replaces an earlier snapshot; ownership documents typed for a participant are kept.
 */
export async function snapshotElectorate(tx: Tx, votingId: number, organizationId: number, houseId: number) {
  const kept = await tx
    .select({ memberId: votingParticipants.memberId, doc: votingParticipants.ownershipDocument })
    .from(votingParticipants)
    .where(eq(votingParticipants.votingId, votingId));
  const docs = new Map(kept.map((k) => [k.memberId, k.doc]));
  await tx.delete(votingUnits).where(eq(votingUnits.votingId, votingId));
  await tx.delete(votingParticipants).where(eq(votingParticipants.votingId, votingId));

  const units = await tx
    .select({ id: realty.id, type: realty.type, number: realty.number, area: realty.area })
    .from(realty)
    .where(and(eq(realty.houseId, houseId), eq(realty.organizationId, organizationId)))
    .orderBy(asc(realty.type), asc(realty.id));
  if (units.length === 0) return;
  const unitRows = await tx
    .insert(votingUnits)
    .values(
      units.map((u) => ({ votingId, realtyId: u.id, type: u.type, number: u.number, areaCenti: u.area === null ? null : Math.round(Number(u.area) * 100) })),
    )
    .returning({ id: votingUnits.id, realtyId: votingUnits.realtyId });
  const unitIdOf = new Map(unitRows.map((u) => [u.realtyId, u.id]));

  const owners = await tx
    .select({ memberId: residents.memberId, name: members.name, realtyId: residents.realtyId, num: residents.shareNumerator, den: residents.shareDenominator })
    .from(residents)
    .innerJoin(residentRoles, eq(residentRoles.id, residents.roleId))
    .innerJoin(members, eq(members.id, residents.memberId))
    .where(
      and(
        inArray(
          residents.realtyId,
          units.map((u) => u.id),
        ),
        eq(residentRoles.holdsShare, true),
      ),
    )
    .orderBy(members.nameKey, asc(members.id));
  if (owners.length === 0) return;
  const people = [...new Map(owners.map((o) => [o.memberId, o.name])).entries()];
  const participantRows = await tx
    .insert(votingParticipants)
    .values(people.map(([memberId, name]) => ({ votingId, memberId, name, ownershipDocument: docs.get(memberId) ?? '' })))
    .returning({ id: votingParticipants.id, memberId: votingParticipants.memberId });
  const participantOf = new Map(participantRows.map((p) => [p.memberId, p.id]));
  await tx.insert(votingOwnerships).values(
    owners.map((o) => ({
      votingId,
      participantId: participantOf.get(o.memberId)!,
      unitId: unitIdOf.get(o.realtyId)!,
      shareNumerator: o.num !== null && o.den !== null ? o.num : null,
      shareDenominator: o.num !== null && o.den !== null ? o.den : null,
    })),
  );
}

export type VotingRow = typeof votings.$inferSelect;
export type QuestionRow = typeof votingQuestions.$inferSelect;

/** Everything one meeting's results need, in one statement. */
export async function loadMeeting(db: Pick<Db, 'execute'>, voting: VotingRow) {
  return { voting, ...(await meetingRows(db, voting.id)) };
}

/**
 * A meeting's own rows (its agenda, snapshot, ballots and answers) as JSON values to select in
 * one statement, for the meeting whose id is the statement's `id` value.
 */
function meetingRowsSql() {
  const id = sql.placeholder('id');
  return {
    questions: jsonRows(getTableColumns(votingQuestions), sql`from ${votingQuestions} where ${votingQuestions.votingId} = ${id}`, [
      sql`${votingQuestions.position}`,
      sql`${votingQuestions.id}`,
    ]),
    units: jsonRows(getTableColumns(votingUnits), sql`from ${votingUnits} where ${votingUnits.votingId} = ${id}`, [sql`${votingUnits.id}`]),
    participants: jsonRows(
      {
        id: votingParticipants.id,
        memberId: votingParticipants.memberId,
        name: votingParticipants.name,
        ownershipDocument: votingParticipants.ownershipDocument,
        phone: members.phone,
        email: members.email,
      },
      sql`from ${votingParticipants} join ${members} on ${members.id} = ${votingParticipants.memberId} where ${votingParticipants.votingId} = ${id}`,
      [ukrainianSortKey(votingParticipants.name), sql`${votingParticipants.id}`],
    ),
    ownerships: jsonRows(getTableColumns(votingOwnerships), sql`from ${votingOwnerships} where ${votingOwnerships.votingId} = ${id}`, [
      sql`${votingOwnerships.id}`,
    ]),
    ballots: jsonRows(
      { ballot: votingBallots, sheetName: media.originalName, sheetMime: media.mime },
      sql`from ${votingBallots} left join ${media} on ${media.id} = ${votingBallots.sheetMediaId} where ${votingBallots.votingId} = ${id}`,
      [sql`${votingBallots.createdAt}`, sql`${votingBallots.id}`],
    ),
    answers: jsonRows(getTableColumns(votingAnswers), sql`from ${votingAnswers} where ${votingAnswers.votingId} = ${id}`, [sql`${votingAnswers.id}`]),
  };
}

type MeetingRowsSql = ReturnType<typeof meetingRowsSql>;
type Ballot = { ballot: typeof votingBallots.$inferSelect; sheetName: string | null; sheetMime: string | null };
/** A ballot's sheet may be gone (left join): its name and type are then null. */
export type MeetingRows = { [K in Exclude<keyof MeetingRowsSql, 'ballots'>]: ReturnType<MeetingRowsSql[K]['read']> } & { ballots: Ballot[] };

/** The columns of `meetingRowsSql` to put in a select list (named as its keys). */
const meetingRowsColumns = (parts: MeetingRowsSql): SQL =>
  sql.join(
    Object.entries(parts).map(([key, p]) => sql`${p.sql} as ${sql.identifier(key)}`),
    sql`, `,
  );

/** The rows of a statement's row that selected `meetingRowsColumns`. */
function readMeetingRows(parts: MeetingRowsSql, row: Record<string, unknown>): MeetingRows {
  return {
    questions: parts.questions.read(row.questions),
    units: parts.units.read(row.units),
    participants: parts.participants.read(row.participants),
    ownerships: parts.ownerships.read(row.ownerships),
    ballots: parts.ballots.read(row.ballots) as Ballot[],
    answers: parts.answers.read(row.answers),
  };
}

/** A meeting's rows but its own (read alongside the meeting's, when its id is known first): one statement. */
export async function meetingRows(db: Pick<Db, 'execute'>, id: number): Promise<MeetingRows> {
  const [row] = await meetingRowsById<Record<string, unknown>>(db, { id });
  return readMeetingRows(byIdParts, row);
}
const byIdParts = meetingRowsSql();
const meetingRowsById = fixedStatement<{ id: number }>(() => sql`select ${meetingRowsColumns(byIdParts)}`);
export type Meeting = Awaited<ReturnType<typeof loadMeeting>>;

export function thresholdOfQuestion(q: Pick<QuestionRow, 'threshold' | 'thresholdPercent'>): Threshold {
  return q.threshold === 'statute' ? { kind: 'statute', percent: Number(q.thresholdPercent) } : { kind: q.threshold };
}

const pct = (n: number) => `${n.toLocaleString('uk-UA', { maximumFractionDigits: 2 })} %`;

export function thresholdText(q: Pick<QuestionRow, 'threshold' | 'thresholdPercent'>): string {
  switch (q.threshold) {
    case 'majority':
      return 'більше 50 % голосів усіх співвласників';
    case 'qualified':
      return 'більше 75 % голосів усіх співвласників';
    case 'statute':
      return `більше ${pct(Number(q.thresholdPercent))} голосів усіх співвласників (за статутом)`;
    case 'two_thirds':
      return 'не менше 2/3 голосів усіх співвласників (за статутом)';
  }
}

export interface MeetingResults {
  electorate: Electorate;
  /** participant id → its units, area and weight */
  people: Map<
    number,
    { units: { number: string; type: string; area: number | null; share: string; ownedArea: number }[]; area: number; weightPercent: number }
  >;
  questions: (QuestionRow & { tally: TallyRecord; thresholdText: string })[];
  /** participant id → question id → answer */
  votes: Map<number, Map<number, Answer>>;
  ballotStatus: Map<number, BallotStatus>;
  state: VotingState;
  deadlines: { notice_by: string; delivery_requests_by: string; poll_ends: string; ended_on: string | null; results_by: string | null };
  warnings: VotingWarning[];
  totalArea: number;
  unitsWithoutArea: number;
}

/** What a meeting's participants list shows of each co-owner: units, area, weight, answers and ballot status. */
export type MeetingPeople = Pick<MeetingResults, 'electorate' | 'people' | 'votes' | 'ballotStatus'>;

/** Each co-owner's units, area, weight, answers and ballot status (no tallies: `meetingResults` adds them). */
export function meetingPeople(m: Meeting): MeetingPeople {
  const unitsById = new Map(m.units.map((u) => [u.id, u]));
  const e = electorate(
    m.voting.regime,
    m.units.filter((u) => u.areaCenti !== null).map((u) => ({ unitId: u.id, areaCentiM2: u.areaCenti! })),
    m.ownerships.map((o) => ({
      personId: o.participantId,
      unitId: o.unitId,
      share: o.shareNumerator !== null && o.shareDenominator !== null ? frac(o.shareNumerator, o.shareDenominator) : null,
    })),
  );
  const jointCount = new Map<number, number>();
  for (const o of m.ownerships) if (o.shareNumerator === null) jointCount.set(o.unitId, (jointCount.get(o.unitId) ?? 0) + 1);
  const ownedBy = new Map<number, Meeting['ownerships']>();
  for (const o of m.ownerships) ownedBy.set(o.participantId, [...(ownedBy.get(o.participantId) ?? []), o]);
  const inElectorate = new Map(e.participants.map((x) => [x.personId, x]));
  const people: MeetingResults['people'] = new Map();
  for (const p of m.participants) {
    const own = ownedBy.get(p.id) ?? [];
    const ep = inElectorate.get(p.id);
    people.set(p.id, {
      units: own.map((o) => {
        const u = unitsById.get(o.unitId)!;
        const share =
          o.shareNumerator !== null
            ? o.shareNumerator === o.shareDenominator
              ? '1'
              : `${o.shareNumerator}/${o.shareDenominator}`
            : `1/${jointCount.get(o.unitId) ?? 1}`;
        const f = o.shareNumerator !== null ? frac(o.shareNumerator, o.shareDenominator!) : frac(1, jointCount.get(o.unitId) ?? 1);
        return {
          number: u.number,
          type: u.type,
          area: u.areaCenti === null ? null : u.areaCenti / 100,
          share,
          ownedArea: u.areaCenti === null ? 0 : squareMetres(frac(BigInt(u.areaCenti) * f.num, f.den)),
        };
      }),
      area: ep ? squareMetres(ep.area) : 0,
      weightPercent: ep ? percent(ep.weight) : 0,
    });
  }

  const votes = new Map<number, Map<number, Answer>>();
  for (const a of m.answers) {
    let v = votes.get(a.participantId);
    if (!v) votes.set(a.participantId, (v = new Map()));
    v.set(a.questionId, a.answer);
  }
  const ballotStatus = new Map<number, BallotStatus>();
  for (const p of m.participants) {
    const n = votes.get(p.id)?.size ?? 0;
    ballotStatus.set(p.id, n === 0 ? 'not_voted' : n >= m.questions.length ? 'voted' : 'partial');
  }
  return { electorate: e, people, votes, ballotStatus };
}

/** Tallies, statuses, deadlines and warnings of a meeting, as of `today` (Kyiv date). */
export function meetingResults(m: Meeting, today = todayKyiv()): MeetingResults {
  const { electorate: e, people, votes, ballotStatus } = meetingPeople(m);
  const lastBallotDate = new Map<number, string>();
  const ballotDateOf = new Map(m.ballots.map((b) => [b.ballot.id, b.ballot.ballotDate]));
  for (const a of m.answers) {
    const d = ballotDateOf.get(a.ballotId) ?? m.voting.meetingDate;
    if ((lastBallotDate.get(a.questionId) ?? '') < d) lastBallotDate.set(a.questionId, d);
  }

  const dl = deadlines(m.voting.meetingDate);
  const pollEnded = today > dl.pollEnds;
  const questions = m.questions.map((q) => {
    const byPerson = new Map<number, Answer>();
    for (const [pid, v] of votes) {
      const a = v.get(q.id);
      if (a) byPerson.set(pid, a);
    }
    const t = tally(e, thresholdOfQuestion(q), byPerson, pollEnded);
    const strip = (s: { count: number; area: number; percent: number }) => ({ count: s.count, area: s.area, percent: s.percent });
    const record: TallyRecord = {
      status: t.status,
      headcount: t.headcount,
      threshold: t.threshold,
      for: strip(t.for),
      against: strip(t.against),
      outstanding: strip(t.outstanding),
      reachable: t.reachable,
    };
    return { ...q, tally: record, thresholdText: thresholdText(q) };
  });

  const decided = (s: QuestionStatus) => s !== 'open';
  const allDecided = questions.length > 0 && questions.every((q) => decided(q.tally.status));
  let endedOn: string | null = null;
  if (allDecided) {
    if (pollEnded && questions.some((q) => q.tally.status === 'not_adopted')) endedOn = dl.pollEnds;
    else endedOn = questions.reduce((d, q) => ((lastBallotDate.get(q.id) ?? '') > d ? lastBallotDate.get(q.id)! : d), m.voting.meetingDate);
  }
  const state: VotingState = today < m.voting.meetingDate ? 'scheduled' : allDecided ? 'finished' : 'voting';
  const resultsBy = endedOn ? resultsNoticeBy(endedOn) : null;

  const warnings: VotingWarning[] = [];
  const v = m.voting;
  if (m.participants.length === 0)
    warnings.push({
      code: 'no_owners',
      level: 'error',
      message: 'У будинку немає зареєстрованих власників: додайте мешканців з роллю «Власник» або «Співвласник» і збережіть збори ще раз.',
    });
  const unitsWithoutArea = m.units.filter((u) => u.areaCenti === null).length;
  if (unitsWithoutArea > 0)
    warnings.push({
      code: 'units_without_area',
      level: 'error',
      message:
        `У ${unitsWithoutArea} ${plural(unitsWithoutArea, ['приміщенні', 'приміщеннях', 'приміщеннях'])} не вказано площу: ` +
        'загальна площа неповна, тож ваги голосів неточні. Заповніть площу в реєстрі приміщень.',
    });
  if (!v.noticeDate) {
    warnings.push(
      today > dl.noticeBy
        ? {
            code: 'notice_missing',
            level: 'error',
            message:
              `Повідомлення про збори мало дійти до кожного співвласника не пізніше ${formatUa(dl.noticeBy)} (за 10 днів до ` +
              `зборів), але дату вручення не зазначено.`,
          }
        : {
            code: 'notice_due',
            level: 'info',
            message: `Вручіть повідомлення про збори кожному співвласнику під підпис або рекомендованим листом не пізніше ${formatUa(dl.noticeBy)}.`,
          },
    );
  } else if (v.noticeDate > dl.noticeBy) {
    warnings.push({
      code: 'notice_late',
      level: 'error',
      message: `Повідомлення вручено ${formatUa(v.noticeDate)} — пізніше ніж за 10 днів до зборів (до ${formatUa(dl.noticeBy)}). Рішення можуть оскаржити.`,
    });
  }
  if (resultsBy && !v.resultsNoticeDate) {
    warnings.push(
      today > resultsBy
        ? {
            code: 'results_overdue',
            level: 'error',
            message: `Строк повідомлення результатів минув ${formatUa(resultsBy)}: кожен співвласник мав отримати рішення з підсумками голосування.`,
          }
        : {
            code: 'results_due',
            level: 'warning',
            message: `Повідомте рішення з підсумками голосування кожному співвласнику до ${formatUa(resultsBy)} (15 днів).`,
          },
    );
  } else if (resultsBy && v.resultsNoticeDate && v.resultsNoticeDate > resultsBy) {
    warnings.push({
      code: 'results_late',
      level: 'warning',
      message: `Результати повідомлено ${formatUa(v.resultsNoticeDate)} — пізніше строку ${formatUa(resultsBy)}.`,
    });
  }
  if (!allDecided && today >= v.meetingDate && !pollEnded) {
    const open = questions.filter((q) => q.tally.status === 'open').length;
    warnings.push({
      code: 'poll_open',
      level: 'info',
      message:
        `${open} ${plural(open, ['питання', 'питання', 'питань'])} ще не вирішено: ` +
        `письмове опитування тих, хто не голосував, триває до ${formatUa(dl.pollEnds)} (45 днів).`,
    });
  }
  if (e.headcount) {
    warnings.push({
      code: 'headcount',
      level: 'info',
      message:
        v.regime === 'osbb'
          ? 'Один співвласник має більше 50 % площі: кожен співвласник має один голос (ч. 15 ст. 6 Закону 2866).'
          : 'Один співвласник має 50 % площі або більше: рішення приймають за кількістю співвласників (ч. 14 ст. 10 Закону 417).',
    });
  }
  const noContact = m.participants.filter((p) => !p.phone && !p.email).length;
  if (noContact > 0)
    warnings.push({
      code: 'no_contact',
      level: 'info',
      message: `${noContact} ${plural(noContact, ['співвласник', 'співвласники', 'співвласників'])} без телефону й e-mail не ${
        noContact === 1 ? 'зможе' : 'зможуть'
      } голосувати за посиланням: для ${noContact === 1 ? 'нього' : 'них'} — паперовий листок.`,
    });
  const owned = e.participants.reduce((s, p) => s + Number(p.area.num) / Number(p.area.den), 0);
  const total = Number(e.totalArea.num) / Number(e.totalArea.den);
  if (total > 0 && total - owned > 0.5) {
    warnings.push({
      code: 'unowned_area',
      level: 'info',
      message:
        `${((total - owned) / 100).toLocaleString('uk-UA', { maximumFractionDigits: 2 })} м² не мають зареєстрованих власників: ` +
        `ця площа входить у загальну, тож «за» рахується від усіх співвласників.`,
    });
  }

  return {
    electorate: e,
    people,
    questions,
    votes,
    ballotStatus,
    state,
    deadlines: { notice_by: dl.noticeBy, delivery_requests_by: dl.deliveryRequestsBy, poll_ends: dl.pollEnds, ended_on: endedOn, results_by: resultsBy },
    warnings,
    totalArea: squareMetres(e.totalArea),
    unitsWithoutArea,
  };
}

/** Whether co-owners may vote on `today`: from the meeting day until the poll ends. */
export function votingOpen(v: Pick<VotingRow, 'meetingDate'>, today = todayKyiv()) {
  return today >= v.meetingDate && today <= deadlines(v.meetingDate).pollEnds;
}
