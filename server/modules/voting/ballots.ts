import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { votingAnswers, votingBallots, votingQuestions } from '../../db/schema.ts';
import { conflict, unprocessable } from '../../lib/errors.ts';
import { deadlines } from './tally.ts';
import { formatUa, todayKyiv, type VotingRow } from './meeting.ts';

export type NewBallot = Omit<typeof votingBallots.$inferInsert, 'id' | 'votingId' | 'participantId' | 'createdAt'>;

const CHANNEL = { paper: 'паперовим листком', electronic: 'електронно' } as const;

/** Answers keyed by question id, checked against the meeting's agenda (422 under `field`). */
export async function checkAnswers(db: Pick<Db, 'select'>, votingId: number, answers: Record<string, 'for' | 'against'>, field = 'answers') {
  const ids = Object.keys(answers).map(Number);
  if (ids.length === 0) throw unprocessable({ [field]: ['Оберіть «за» або «проти» хоча б для одного питання.'] });
  const rows = await db
    .select({ id: votingQuestions.id })
    .from(votingQuestions)
    .where(and(eq(votingQuestions.votingId, votingId), inArray(votingQuestions.id, ids)));
  if (rows.length !== ids.length) throw unprocessable({ [field]: ['Таких питань немає в порядку денному цих зборів.'] });
}

/** The ballot date must lie between the meeting day and the end of the poll, and not ahead of today. */
export function checkBallotDate(v: Pick<VotingRow, 'meetingDate'>, date: string, field = 'ballot_date') {
  const { pollEnds } = deadlines(v.meetingDate);
  if (date < v.meetingDate) throw unprocessable({ [field]: [`Голосувати можна з дня зборів (${formatUa(v.meetingDate)}).`] });
  if (date > pollEnds) throw unprocessable({ [field]: [`Письмове опитування тривало до ${formatUa(pollEnds)}: пізніші голоси не враховуються.`] });
  if (date > todayKyiv()) throw unprocessable({ [field]: ['Дата голосування не може бути в майбутньому.'] });
}

/**
 * Records one ballot with its answers. One vote per co-owner per question (Law 417, Art. 10(25)):
 * when any of the questions already has this co-owner's vote — on paper or electronically —
 * the whole ballot is refused with 409 naming the earlier vote, and nothing is stored.
 * docs/voting-rules.md §3.1.
 */
export async function recordBallot(db: Db, votingId: number, participantId: number, answers: Record<string, 'for' | 'against'>, ballot: NewBallot) {
  const ids = Object.keys(answers).map(Number);
  const refuse = async () => {
    const earlier = await db
      .select({ questionId: votingAnswers.questionId, position: votingQuestions.position, channel: votingBallots.channel, date: votingBallots.ballotDate })
      .from(votingAnswers)
      .innerJoin(votingBallots, eq(votingBallots.id, votingAnswers.ballotId))
      .innerJoin(votingQuestions, eq(votingQuestions.id, votingAnswers.questionId))
      .where(and(eq(votingAnswers.participantId, participantId), inArray(votingAnswers.questionId, ids)));
    if (earlier.length === 0) return;
    const first = earlier[0];
    const list = earlier
      .map((e) => e.position)
      .sort((a, b) => a - b)
      .join(', ');
    throw conflict(
      `Співвласник уже проголосував ${CHANNEL[first.channel]} ${formatUa(first.date)} з питань № ${list}: один співвласник має один ` +
        `голос з кожного питання, тому цей ${ballot.channel === 'paper' ? 'листок' : 'голос'} не зараховано.`,
    );
  };
  await refuse();
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(votingBallots)
        .values({ ...ballot, votingId, participantId })
        .returning();
      await tx
        .insert(votingAnswers)
        .values(ids.map((questionId) => ({ ballotId: row.id, votingId, participantId, questionId, answer: answers[String(questionId)] })));
      return row;
    });
  } catch (err) {
    // Two ballots at the same moment: the unique index lets one through; the other hears why.
    const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
    if (code === '23505') {
      await refuse();
    }
    throw err;
  }
}
