import { and, count, countDistinct, desc, eq, gte, inArray, isNotNull, lt, ne, sql, sum, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { dashboardRecord } from '../../../contract/dashboard.ts';
import { REQUEST_STAGES } from '../../../contract/serviceRequests.ts';
import {
  bills,
  houses,
  interviewComplexes,
  interviewResponses,
  interviews,
  realty,
  serviceRequestComments,
  serviceRequests,
  votingBallots,
  votingParticipants,
  votings,
} from '../../db/schema.ts';
import { canAccess } from '../../../contract/permissions.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { houseScope } from '../houses/records.ts';
import { requestScope } from '../serviceRequests/records.ts';
import { POLL_DAYS } from '../voting/tally.ts';

const tags = ['dashboard'];
const DAYS = 14;

/**
 * The company's day at a glance (/dashboard/{index}): open requests by stage and overdue,
 * requests per day, meetings in their voting window with turnout, active surveys, the latest messages from
 * residents, and this month's bills charged vs collected. Every figure is inside the user's
 * complexes (and the chosen complex); tiles the role may not view are left out (null).
 */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  const housesOf = (user: CurrentUser, complexId?: number) =>
    db
      .select({ id: houses.id })
      .from(houses)
      .where(and(houseScope(user), complexId === undefined ? undefined : eq(houses.complexId, complexId)));

  /** The requests the user may see, of the chosen complex when there is one. */
  const requestsWhere = (user: CurrentUser, complexId?: number): SQL =>
    and(requestScope(db, user), complexId === undefined ? undefined : inArray(serviceRequests.houseId, housesOf(user, complexId)))!;

  async function requestsTile(user: CurrentUser, complexId?: number) {
    const where = requestsWhere(user, complexId);
    const since = new Date(Date.now() - (DAYS - 1) * 86400_000);
    since.setUTCHours(0, 0, 0, 0);
    const [byStage, [overdue], perDay] = await Promise.all([
      db.select({ stage: serviceRequests.stage, n: count() }).from(serviceRequests).where(where).groupBy(serviceRequests.stage),
      db
        .select({ n: count() })
        .from(serviceRequests)
        .where(and(where, ne(serviceRequests.stage, 'done'), isNotNull(serviceRequests.deadline), lt(serviceRequests.deadline, new Date()))),
      db
        .select({ day: sql<string>`to_char(${serviceRequests.createdAt} at time zone 'Europe/Kyiv', 'YYYY-MM-DD')`, n: count() })
        .from(serviceRequests)
        .where(and(where, gte(serviceRequests.createdAt, since)))
        .groupBy(sql`1`),
    ]);
    const stages = Object.fromEntries(REQUEST_STAGES.map((s) => [s, byStage.find((r) => r.stage === s)?.n ?? 0])) as Record<
      (typeof REQUEST_STAGES)[number],
      number
    >;
    const counts = new Map(perDay.map((d) => [d.day, d.n]));
    const days = Array.from({ length: DAYS }, (_, i) => {
      const d = new Date(since.getTime() + i * 86400_000).toISOString().slice(0, 10);
      return { date: d, count: counts.get(d) ?? 0 };
    });
    return { by_stage: stages, open: stages.new + stages.underReview + stages.executor, overdue: overdue.n, per_day: days };
  }

  async function votingsTile(user: CurrentUser, complexId?: number) {
    const today = new Date().toISOString().slice(0, 10);
    const opened = new Date(Date.now() - POLL_DAYS * 86400_000).toISOString().slice(0, 10);
    const rows = await db
      .select({ id: votings.id, title: votings.title, meetingDate: votings.meetingDate })
      .from(votings)
      .where(
        and(
          eq(votings.organizationId, user.organizationId),
          inArray(votings.houseId, housesOf(user, complexId)),
          sql`${votings.meetingDate} <= ${today}`,
          sql`${votings.meetingDate} >= ${opened}`,
        ),
      )
      .orderBy(desc(votings.meetingDate))
      .limit(5);
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [totals, voted] = await Promise.all([
      db
        .select({ votingId: votingParticipants.votingId, n: count() })
        .from(votingParticipants)
        .where(inArray(votingParticipants.votingId, ids))
        .groupBy(votingParticipants.votingId),
      db
        .select({ votingId: votingBallots.votingId, n: countDistinct(votingBallots.participantId) })
        .from(votingBallots)
        .where(inArray(votingBallots.votingId, ids))
        .groupBy(votingBallots.votingId),
    ]);
    return rows.map((r) => {
      const total = totals.find((t) => t.votingId === r.id)?.n ?? 0;
      const done = voted.find((v) => v.votingId === r.id)?.n ?? 0;
      return { id: r.id, title: r.title, meeting_date: r.meetingDate, voted: done, total, turnout_percent: total ? Math.round((done / total) * 1000) / 10 : 0 };
    });
  }

  /** Published surveys whose period is now, for the user's complexes (or the chosen one), with their answer counts. */
  async function surveysTile(user: CurrentUser, complexId?: number) {
    const now = new Date();
    const complexes = complexId !== undefined ? [complexId] : user.complexIds;
    const rows = await db
      .select({ id: interviews.id, title: interviews.title, endAt: interviews.endAt })
      .from(interviews)
      .where(
        and(
          eq(interviews.organizationId, user.organizationId),
          eq(interviews.published, true),
          lt(interviews.startAt, now),
          gte(interviews.endAt, now),
          complexes === null
            ? undefined
            : inArray(
                interviews.id,
                db
                  .select({ id: interviewComplexes.interviewId })
                  .from(interviewComplexes)
                  .where(inArray(interviewComplexes.complexId, complexes.length ? complexes : [0])),
              ),
        ),
      )
      .orderBy(interviews.endAt)
      .limit(5);
    if (rows.length === 0) return [];
    const answers = await db
      .select({ interviewId: interviewResponses.interviewId, n: count() })
      .from(interviewResponses)
      .where(
        inArray(
          interviewResponses.interviewId,
          rows.map((r) => r.id),
        ),
      )
      .groupBy(interviewResponses.interviewId);
    return rows.map((r) => ({ id: r.id, title: r.title, end_at: r.endAt.toISOString(), answers: answers.find((a) => a.interviewId === r.id)?.n ?? 0 }));
  }

  async function messagesTile(user: CurrentUser, complexId?: number) {
    const where = requestsWhere(user, complexId);
    const rows = await db
      .select({
        id: serviceRequestComments.id,
        requestId: serviceRequests.id,
        number: serviceRequests.number,
        author: serviceRequestComments.authorName,
        message: serviceRequestComments.message,
        createdAt: serviceRequestComments.createdAt,
      })
      .from(serviceRequestComments)
      .innerJoin(serviceRequests, eq(serviceRequests.id, serviceRequestComments.requestId))
      .where(and(where, eq(serviceRequestComments.chatType, 'member_chat'), isNotNull(serviceRequestComments.authorMemberId)))
      .orderBy(desc(serviceRequestComments.createdAt), desc(serviceRequestComments.id))
      .limit(5);
    return rows.map((r) => ({
      id: r.id,
      request_id: r.requestId,
      number: r.number,
      author: r.author,
      message: r.message,
      created_at: r.createdAt.toISOString(),
    }));
  }

  /** The latest month with charges, up to this one: charged vs collected. */
  async function billsTile(user: CurrentUser, complexId?: number) {
    const thisMonth = `${new Date().toISOString().slice(0, 7)}-01`;
    const inScope = and(eq(bills.organizationId, user.organizationId), inArray(realty.houseId, housesOf(user, complexId)));
    const [latest] = await db
      .select({ period: sql<string | null>`max(${bills.period})` })
      .from(bills)
      .innerJoin(realty, eq(realty.id, bills.realtyId))
      .where(and(inScope, sql`${bills.period} <= ${thisMonth}`));
    const period = latest?.period ?? thisMonth;
    const [row] = await db
      .select({ charged: sum(bills.amount), collected: sum(bills.paid) })
      .from(bills)
      .innerJoin(realty, eq(realty.id, bills.realtyId))
      .where(and(inScope, eq(bills.period, period)));
    return { month: String(period).slice(0, 7), charged: Number(row?.charged ?? 0), collected: Number(row?.collected ?? 0) };
  }

  app.get(
    '/dashboard',
    {
      schema: {
        tags,
        summary: 'Огляд дня',
        description:
          'Заявки за етапами й прострочені, заявки за 14 днів, збори з явкою, останні повідомлення мешканців, нарахування й оплати ' +
          'місяця; complex_id — лише цей комплекс.',
        querystring: z.object({ complex_id: idSchema.optional() }),
        response: { 200: z.object({ data: dashboardRecord }) },
      },
    },
    async (request) => {
      const user = request.user;
      const complexId = request.query.complex_id;
      const may = (area: Parameters<typeof canAccess>[1]) => canAccess(user.rules, area, 'view');
      const [requests, votingList, surveys, messages, money] = await Promise.all([
        may('service_requests') ? requestsTile(user, complexId) : null,
        may('votings') ? votingsTile(user, complexId) : null,
        may('interviews') ? surveysTile(user, complexId) : null,
        may('service_requests') ? messagesTile(user, complexId) : null,
        may('members') ? billsTile(user, complexId) : null,
      ]);
      return { data: { requests, votings: votingList, surveys, messages, bills: money } };
    },
  );
};
