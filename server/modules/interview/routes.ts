import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audienceFilters } from '../../../contract/audience.ts';
import { idSchema } from '../../../contract/common.ts';
import {
  interviewEntity,
  interviewRecord,
  RESPONDENT_STATUSES,
  respondentRecord,
  responseInput,
  type Interview,
  type InterviewInput,
  type InterviewQuestion,
  type InterviewStatus,
  type InterviewSummary,
  type ResponseInput,
} from '../../../contract/interview.ts';
import { queryRows, renderStatement, runRendered, type Db, type RenderedStatement } from '../../db/index.ts';
import {
  houses,
  interviewAnswers,
  interviewComplexes,
  interviewHouses,
  interviewOptions,
  interviewQuestions,
  interviewResponses,
  interviews,
  members,
  realty,
  residents,
  users,
} from '../../db/schema.ts';
import { canAccess } from '../../../contract/permissions.ts';
import { confirmSession, requirePermission, sessionSqlFixed, sessionToConfirm, type CurrentUser } from '../../lib/auth.ts';
import { KeptStatements, userKey } from '../../lib/keptStatements.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import { houseJoins, isoSql } from '../../lib/jsonSql.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { pageWindow } from '../../lib/list.ts';
import { audienceHooks, audienceScope, loadAudiences, resolveAudience, type Audience, type AudienceTables } from '../community/audience.ts';
import { addressSql } from '../houses/address.ts';
import { naturalKeys } from '../../lib/order.ts';
import { membersWhere, type MemberFilters } from '../members/filters.ts';
import { hasUnitWhere, memberScope } from '../members/scope.ts';
import { NOW } from '../../lib/sqlReads.ts';

type Row = typeof interviews.$inferSelect;
type Reader = Pick<Db, 'select'>;

const AUDIENCE: AudienceTables = {
  complexes: {
    table: interviewComplexes,
    parentId: interviewComplexes.interviewId,
    complexId: interviewComplexes.complexId,
    row: (interviewId, complexId) => ({ interviewId, complexId }),
  },
  houses: {
    table: interviewHouses,
    parentId: interviewHouses.interviewId,
    houseId: interviewHouses.houseId,
    row: (interviewId, houseId) => ({ interviewId, houseId }),
  },
};

const statusSql = sql<InterviewStatus>`case when not ${interviews.published} or ${interviews.startAt} > ${NOW} then 'draft'
  when ${interviews.endAt} <= ${NOW} then 'finished' else 'active' end`;

export function interviewStatus(row: Pick<Row, 'published' | 'startAt' | 'endAt'>, now = new Date()): InterviewStatus {
  if (!row.published || row.startAt > now) return 'draft';
  return row.endAt <= now ? 'finished' : 'active';
}

const usersQuery = listQuery.extend({
  status: z.enum(RESPONDENT_STATUSES, { error: 'Статус: answered або not_answered.' }).optional(),
  per_page: listQuery.shape.per_page.removeDefault().default(25),
  ...audienceFilters,
});

const params = z.object({ id: idSchema });
const tags = ['interview'];
const one = z.object({ data: interviewRecord });
const NOT_FOUND = 'Опитування не знайдено.';
const LOCKED =
  'Після першої відповіді не можна змінювати питання, варіанти відповідей, адресатів, анонімність і початок опитування: відповіді вже дано саме на них.';
const FINISHED = 'Опитування завершено: змінити можна лише назву та опис.';
const UNIT_WORDS = { apartment: 'кв.', parking: 'паркомісце', storage: 'комора', commercial: 'прим.' } as const;

const pct = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part * 1000) / whole) / 10);

/** The houses a survey reaches: the chosen houses of a complex, or all of its houses when none is chosen. */
async function audienceHouses(db: Reader, interviewId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(db as Db, audienceHousesSql(sql`${interviewId}`));
  return rows.map((r) => Number(r.id));
}

/** The same houses as a query (`id`) over the survey `interviewId` names (a value or a subquery). */
function audienceHousesSql(interviewId: SQL): SQL {
  return sql`select ${houses.id} as id from ${interviewHouses} join ${houses} on ${houses.id} = ${interviewHouses.houseId}
      where ${interviewHouses.interviewId} = ${interviewId}
    union
    select h.id from ${interviewComplexes} ic join ${houses} h on h.complex_id = ic.complex_id
      where ic.interview_id = ${interviewId} and not exists (
        select 1 from ${interviewHouses} ih join ${houses} chosen on chosen.id = ih.house_id
        where ih.interview_id = ${interviewId} and chosen.complex_id = ic.complex_id)`;
}

/** Members a user may see who live in (are linked to a unit of) the survey's houses. */
function audienceMembers(db: Reader, user: CurrentUser, houseIds: number[]): SQL {
  if (houseIds.length === 0) return sql`false`;
  return and(memberScope(db, user), hasUnitWhere(db, inArray(realty.houseId, houseIds), false))!;
}

/** Results of every question: counts over the respondents who answered it. */
async function questionResults(db: Reader, row: Pick<Row, 'id' | 'anonymous'>): Promise<InterviewQuestion[]> {
  const questions = await db.select().from(interviewQuestions).where(eq(interviewQuestions.interviewId, row.id)).orderBy(asc(interviewQuestions.position));
  if (questions.length === 0) return [];
  const ids = questions.map((q) => q.id);
  const [options, answers] = await Promise.all([
    db.select().from(interviewOptions).where(inArray(interviewOptions.questionId, ids)).orderBy(asc(interviewOptions.position)),
    db
      .select({
        questionId: interviewAnswers.questionId,
        optionId: interviewAnswers.optionId,
        value: interviewAnswers.value,
        text: interviewAnswers.text,
        key: interviewAnswers.answerKey,
        member: members.name,
      })
      .from(interviewAnswers)
      .leftJoin(interviewResponses, eq(interviewResponses.id, interviewAnswers.responseId))
      .leftJoin(members, eq(members.id, interviewResponses.memberId))
      .where(eq(interviewAnswers.interviewId, row.id))
      .orderBy(asc(interviewAnswers.id)),
  ]);
  return questions.map((q) => {
    const mine = answers.filter((a) => a.questionId === q.id);
    const answered = new Set(mine.map((a) => a.key)).size;
    const countOf = (pred: (a: (typeof mine)[number]) => boolean) => mine.filter(pred).length;
    let opts: InterviewQuestion['options'] = [];
    let average: number | null = null;
    let texts: InterviewQuestion['texts'] = [];
    if (q.kind === 'single' || q.kind === 'multiple') {
      opts = options
        .filter((o) => o.questionId === q.id)
        .map((o) => {
          const n = countOf((a) => a.optionId === o.id);
          return { id: o.id, title: o.title, count: n, percent: pct(n, answered) };
        });
    } else if (q.kind === 'scale') {
      const max = q.scaleMax ?? 5;
      opts = Array.from({ length: max }, (_, i) => {
        const n = countOf((a) => a.value === i + 1);
        return { id: i + 1, title: String(i + 1), count: n, percent: pct(n, answered) };
      });
      const values = mine.map((a) => a.value ?? 0);
      average = values.length ? Math.round((values.reduce((s, v) => s + v, 0) / values.length) * 100) / 100 : null;
    } else {
      texts = mine.map((a) => ({ text: a.text ?? '', member: row.anonymous ? null : a.member }));
      // In an anonymous survey the order of entry could give away who wrote what.
      if (row.anonymous) texts.sort((x, y) => x.text.localeCompare(y.text, 'uk'));
    }
    return { id: q.id, position: q.position, title: q.title, kind: q.kind, scale_max: q.scaleMax, options: opts, answered, average, texts };
  });
}

const responsesCount = async (db: Reader, id: number) =>
  (await db.select({ n: count() }).from(interviewResponses).where(eq(interviewResponses.interviewId, id)))[0].n;

async function summaries(db: Reader, rows: Row[]): Promise<InterviewSummary[]> {
  const ids = rows.map((r) => r.id);
  const [audiences, qCounts, rCounts] = await Promise.all([
    loadAudiences(db, AUDIENCE, ids),
    ids.length
      ? db
          .select({ id: interviewQuestions.interviewId, n: count() })
          .from(interviewQuestions)
          .where(inArray(interviewQuestions.interviewId, ids))
          .groupBy(interviewQuestions.interviewId)
      : [],
    ids.length
      ? db
          .select({ id: interviewResponses.interviewId, n: count() })
          .from(interviewResponses)
          .where(inArray(interviewResponses.interviewId, ids))
          .groupBy(interviewResponses.interviewId)
      : [],
  ]);
  const qn = new Map(qCounts.map((r) => [r.id, r.n]));
  const rn = new Map(rCounts.map((r) => [r.id, r.n]));
  const now = new Date();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    status: interviewStatus(r, now),
    published: r.published,
    anonymous: r.anonymous,
    start_at: r.startAt.toISOString(),
    end_at: r.endAt.toISOString(),
    questions_count: qn.get(r.id) ?? 0,
    responses_count: rn.get(r.id) ?? 0,
    ...audiences.get(r.id)!,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

/** The survey with its questions and results, and how many members it reaches (in the reader's scope). */
async function fullRecord(db: Reader, user: CurrentUser, summary: InterviewSummary): Promise<Interview> {
  const houseIds = await audienceHouses(db, summary.id);
  const [{ n }] = await db
    .select({ n: count() })
    .from(members)
    .where(audienceMembers(db, user, houseIds));
  return { ...summary, audience_count: n, questions_locked: summary.responses_count > 0, questions: await questionResults(db, summary) };
}

async function writeQuestions(tx: Pick<Db, 'insert' | 'delete'>, interviewId: number, questions: InterviewInput['questions']) {
  await tx.delete(interviewQuestions).where(eq(interviewQuestions.interviewId, interviewId));
  for (const [i, q] of questions.entries()) {
    const [row] = await tx
      .insert(interviewQuestions)
      .values({ interviewId, position: i + 1, title: q.title, kind: q.kind, scaleMax: q.kind === 'scale' ? q.scale_max : null })
      .returning({ id: interviewQuestions.id });
    if (q.options.length) await tx.insert(interviewOptions).values(q.options.map((title, j) => ({ questionId: row.id, position: j + 1, title })));
  }
}

/** Whether the stored questions are exactly the submitted ones (wording, kind, scale, options and order). */
async function sameQuestions(db: Reader, interviewId: number, questions: InterviewInput['questions']) {
  const stored = await db.select().from(interviewQuestions).where(eq(interviewQuestions.interviewId, interviewId)).orderBy(asc(interviewQuestions.position));
  if (stored.length !== questions.length) return false;
  const options = stored.length
    ? await db
        .select()
        .from(interviewOptions)
        .where(
          inArray(
            interviewOptions.questionId,
            stored.map((q) => q.id),
          ),
        )
        .orderBy(asc(interviewOptions.position))
    : [];
  return stored.every((s, i) => {
    const q = questions[i];
    const mine = options.filter((o) => o.questionId === s.id).map((o) => o.title);
    return (
      s.title === q.title &&
      s.kind === q.kind &&
      (s.kind === 'scale' ? s.scaleMax === q.scale_max : true) &&
      mine.length === q.options.length &&
      mine.every((t, j) => t === q.options[j])
    );
  });
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((x) => b.includes(x));

const audience = audienceHooks<InterviewInput>(AUDIENCE, interviews.id);

/**
 * The CRUD part of surveys: the generic routes of their declaration (contract/interview.ts) for
 * the audience of complexes and houses. A survey is written with its questions; after the first
 * answer its questions, audience, anonymity and start are fixed (409), and a finished survey
 * changes only its title and description. One with answers is not deleted.
 */
const interviewCrud = crudRoutes(interviewEntity, {
  table: interviews,
  columns: {
    title: interviews.title,
    start_at: interviews.startAt,
    end_at: interviews.endAt,
    created_at: interviews.createdAt,
    status: statusSql,
  },
  ...audience,
  async check(ctx, b: InterviewInput, id) {
    const resolved: Audience = await resolveAudience(ctx.db, ctx.user, b);
    if (id === undefined) return;
    const { db } = ctx;
    const [row] = await db.select().from(interviews).where(eq(interviews.id, id));
    const answered = (await responsesCount(db, id)) > 0;
    if (interviewStatus(row) === 'finished') {
      const same =
        b.start_at.getTime() === row.startAt.getTime() &&
        b.end_at.getTime() === row.endAt.getTime() &&
        b.anonymous === row.anonymous &&
        b.published === row.published;
      if (!same || !(await sameQuestions(db, id, b.questions))) throw conflict(FINISHED);
    }
    if (answered) {
      const current = (await loadAudiences(db, AUDIENCE, [id])).get(id)!;
      const same =
        b.anonymous === row.anonymous &&
        b.start_at.getTime() === row.startAt.getTime() &&
        sameSet(resolved.complexIds, current.complex_ids) &&
        sameSet(resolved.houseIds, current.house_ids) &&
        (await sameQuestions(db, id, b.questions));
      if (!same) throw conflict(LOCKED);
      if (!b.published) throw conflict('Опитування з відповідями не можна повернути в чернетку.');
    }
  },
  values: (b: InterviewInput, { user }, created) => ({
    title: b.title,
    description: b.description,
    startAt: b.start_at,
    endAt: b.end_at,
    anonymous: b.anonymous,
    published: b.published,
    ...(created ? { createdBy: user.id } : {}),
  }),
  /** Audience and questions: written until the first answer (then they are the same, as checked). */
  async afterWrite(ctx, id, input: InterviewInput, created) {
    if (!created && (await responsesCount(ctx.db, id)) > 0) return;
    await audience.afterWrite(ctx, id, input, created);
    await writeQuestions(ctx.db, id, input.questions);
  },
  async beforeDelete({ db }, id) {
    const n = await responsesCount(db, id);
    if (n > 0) throw conflict(`Опитування з відповідями (${n}) не можна видалити: це результати, на які посилаються.`);
  },
  toRecords: ({ db }, rows) => summaries(db, rows),
  detail: { schema: interviewRecord, load: ({ db, user }, summary) => fullRecord(db, user, summary), writes: true },
});

/** The respondents' statements of this process, rendered once per user, survey and query. */
const RESPONDENT_STATEMENTS_KEPT = 200;

/**
 * Surveys of residents (/interview; docs/decisions.md, "Surveys (interview)"). A survey is for
 * complexes and, optionally, single houses of them; staff see the surveys meant for at least one of their complexes (404 otherwise)
 * and change only those whose whole audience is theirs (403). Staff record the answers a resident
 * gives by phone or on paper; one answer set per member and survey.
 */
export const interviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const respondentStatements = new KeptStatements<RenderedStatement>(RESPONDENT_STATEMENTS_KEPT);
  const { db } = app;
  await app.register(interviewCrud);

  const scope = (user: CurrentUser) => and(eq(interviews.organizationId, user.organizationId), audienceScope(db, user, AUDIENCE, interviews.id));

  async function findOne(user: CurrentUser, id: number) {
    const [row] = await db
      .select()
      .from(interviews)
      .where(and(scope(user), eq(interviews.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  const recordOf = async (user: CurrentUser, id: number) => {
    const [row] = await db.select().from(interviews).where(eq(interviews.id, id));
    return fullRecord(db, user, (await summaries(db, [row]))[0]);
  };

  /** Checks the answers against the questions; errors name the field (`answers.<i>.…`). Nothing is written before this passes. */
  async function checkAnswers(interviewId: number, input: ResponseInput['answers']) {
    const questions = await db.select().from(interviewQuestions).where(eq(interviewQuestions.interviewId, interviewId));
    const options = questions.length
      ? await db
          .select()
          .from(interviewOptions)
          .where(
            inArray(
              interviewOptions.questionId,
              questions.map((q) => q.id),
            ),
          )
      : [];
    const errors: Record<string, string[]> = {};
    const fail = (key: string, message: string) => (errors[key] ??= []).push(message);
    const seen = new Set<number>();
    input.forEach((a, i) => {
      const q = questions.find((x) => x.id === a.question_id);
      if (!q) return fail(`answers.${i}.question_id`, 'Такого питання в цьому опитуванні немає.');
      if (seen.has(q.id)) return fail(`answers.${i}.question_id`, 'На одне питання — одна відповідь.');
      seen.add(q.id);
      const ids = a.option_ids ?? [];
      if (q.kind === 'single' || q.kind === 'multiple') {
        const mine = new Set(options.filter((o) => o.questionId === q.id).map((o) => o.id));
        if (ids.length === 0) return fail(`answers.${i}.option_ids`, 'Оберіть варіант відповіді.');
        if (q.kind === 'single' && ids.length > 1) return fail(`answers.${i}.option_ids`, 'У цьому питанні можна обрати лише один варіант.');
        if (new Set(ids).size !== ids.length) return fail(`answers.${i}.option_ids`, 'Варіанти повторюються.');
        if (ids.some((id) => !mine.has(id))) return fail(`answers.${i}.option_ids`, 'Такого варіанта відповіді в цьому питанні немає.');
      } else if (q.kind === 'scale') {
        const max = q.scaleMax ?? 5;
        if (a.value === undefined || a.value < 1 || a.value > max) return fail(`answers.${i}.value`, `Оцінка — ціле число від 1 до ${max}.`);
      } else if (!a.text) {
        return fail(`answers.${i}.text`, 'Напишіть відповідь.');
      }
    });
    if (Object.keys(errors).length) throw unprocessable(errors);
    return questions;
  }

  app.post(
    '/interview/:id/answers',
    {
      preHandler: requirePermission('interviews', 'edit'),
      schema: {
        tags,
        summary: 'Записати відповіді мешканця (за телефоном, з паперової анкети тощо)',
        description:
          'member_id — мешканець із будинків опитування; channel: phone, paper, other; answers: [{question_id, option_ids | value | ' +
          'text}]. Лише під час активного опитування; повторні відповіді того самого мешканця — 409.',
        params,
        body: responseInput,
        response: { 200: one },
      },
    },
    async (request) => {
      const row = await findOne(request.user, request.params.id);
      const status = interviewStatus(row);
      if (status === 'draft') throw conflict('Опитування ще не розпочалося або не опубліковане: відповіді приймають лише під час опитування.');
      if (status === 'finished') throw conflict('Опитування завершено: відповіді більше не приймають.');
      const b = request.body;
      const houseIds = await audienceHouses(db, row.id);
      const [member] = await db
        .select({ id: members.id, name: members.name })
        .from(members)
        .where(and(audienceMembers(db, request.user, houseIds), eq(members.id, b.member_id)))
        .limit(1);
      if (!member) throw unprocessable({ member_id: ['Такого мешканця немає серед адресатів опитування.'] });
      const questions = await checkAnswers(row.id, b.answers);
      const duplicate = `${member.name} уже відповів(-ла) на це опитування: одна анкета на мешканця.`;
      const [existing] = await db
        .select({ id: interviewResponses.id })
        .from(interviewResponses)
        .where(and(eq(interviewResponses.interviewId, row.id), eq(interviewResponses.memberId, member.id)))
        .limit(1);
      if (existing) throw conflict(duplicate);
      try {
        await db.transaction(async (tx) => {
          const [resp] = await tx
            .insert(interviewResponses)
            .values({ interviewId: row.id, memberId: member.id, channel: b.channel, recordedBy: request.user.id })
            .returning({ id: interviewResponses.id });
          const values = b.answers.flatMap((a): (typeof interviewAnswers.$inferInsert)[] => {
            const q = questions.find((x) => x.id === a.question_id)!;
            const base = { interviewId: row.id, responseId: row.anonymous ? null : resp.id, questionId: q.id, answerKey: randomUUID() };
            if (q.kind === 'single' || q.kind === 'multiple') return (a.option_ids ?? []).map((optionId) => ({ ...base, optionId }));
            if (q.kind === 'scale') return [{ ...base, value: a.value! }];
            return [{ ...base, text: a.text! }];
          });
          await tx.insert(interviewAnswers).values(values);
        });
      } catch (err) {
        if ((err as { code?: string; cause?: { code?: string } }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505')
          throw conflict(duplicate);
        throw err;
      }
      return { data: await recordOf(request.user, row.id) };
    },
  );

  app.get(
    '/interview/:id/users',
    {
      preHandler: requirePermission('interviews', 'view'),
      // Its one statement checks the session (server/lib/auth.ts).
      config: { confirmsSession: true },
      schema: {
        tags,
        summary: 'Адресати опитування: хто відповів, а хто ні',
        description:
          'Мешканці будинків опитування (у ваших комплексах). status: answered, not_answered; complex_id і house_ids[] — вибір у шапці; ' +
          'search_query — ім’я, телефон, e-mail або номер приміщення. В анонімному опитуванні відповіді не показуються.',
        params,
        querystring: usersQuery,
        response: {
          200: z.object({ data: z.array(respondentRecord), pagination: paginationSchema, summary: z.record(z.enum(RESPONDENT_STATUSES), z.number()) }),
        },
      },
    },
    async function respondents(this: unknown, request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const q = request.query as z.infer<typeof usersQuery>;
      const user = request.user;
      const id = (request.params as { id: number }).id;
      // One statement after the sign-in (and with it, when the session was known): the survey in
      // the user's scope, its houses, the members they reach with the answered mark, both counts,
      // and the page's records with their units and answers, written as JSON by the database.
      // Built and rendered once per user and query (server/lib/keptStatements.ts); a search may
      // read the database to build its condition (the members of a unit of that number), so a
      // statement with one is built every call.
      const toConfirm = sessionToConfirm(request);
      const statement = await respondentStatements.get(`${userKey(user)}\u0000${id}\u0000${toConfirm}\u0000${JSON.stringify(q)}`, async (built) => {
        built.pure = !q.search_query.trim();
        const filters = {
          search_query: q.search_query,
          status: undefined,
          complex_id: q.complex_id,
          house_ids: q.house_ids?.length ? q.house_ids : undefined,
        } as unknown as MemberFilters;
        const where = and(hasUnitWhere(db, sql`${realty.houseId} in (select id from respondent_houses)`, false), await membersWhere(db, user, filters));
        const chosen = q.status === 'answered' ? sql`where response_id is not null` : q.status === 'not_answered' ? sql`where response_id is null` : sql``;
        const unitWord = sql`case ${realty.type} ${sql.raw(
          Object.entries(UNIT_WORDS)
            .map(([k, v]) => `when '${k}' then '${v}'`)
            .join(' '),
        )} end`;
        return renderStatement(
          sql`with survey as (
              select ${interviews.id} as id, ${interviews.anonymous} as anonymous from ${interviews} where ${and(scope(user), eq(interviews.id, id))}),
            respondent_houses as (${audienceHousesSql(sql`(select id from survey)`)}),
            audience as (
              select ${members.id} as id, ${members.name} as name, ${members.phone} as phone, ${members.email} as email, ${members.nameKey} as name_key,
                ${interviewResponses.id} as response_id
              from ${members} left join ${interviewResponses}
                on ${interviewResponses.interviewId} = (select id from survey) and ${interviewResponses.memberId} = ${members.id}
              where ${where}),
            page as (select * from audience ${chosen} order by name_key, id ${pageWindow(q.page, q.per_page)})
            select exists (select 1 from survey) as found,
              (select coalesce(json_agg(json_build_object('id', page.id, 'name', page.name, 'phone', page.phone, 'email', page.email,
                'units', coalesce((
                  select json_agg(${addressSql} || ', ' || ${unitWord} || ' ' || ${realty.number} order by ${sql.join(naturalKeys(realty.number), sql`, `)})
                  from ${residents} join ${realty} on ${realty.id} = ${residents.realtyId} ${houseJoins(realty.houseId)}
                  where ${residents.memberId} = page.id and ${realty.houseId} in (select id from respondent_houses)), '[]'),
                'answered', page.response_id is not null,
                'response', (select json_build_object('id', ${interviewResponses.id}, 'channel', ${interviewResponses.channel}, 'recorded_by', ${users.name},
                    'created_at', ${isoSql(interviewResponses.createdAt)},
                    'answers', case when (select anonymous from survey) then null else coalesce((
                      select json_object_agg(words.question_id, words.text order by words.question_id) from (
                        select ${interviewAnswers.questionId} as question_id,
                          string_agg(coalesce(${interviewOptions.title}, ${interviewAnswers.value}::text, ${interviewAnswers.text}, ''), '; '
                            order by ${interviewAnswers.id}) as text
                        from ${interviewAnswers} left join ${interviewOptions} on ${interviewOptions.id} = ${interviewAnswers.optionId}
                        where ${interviewAnswers.responseId} = page.response_id group by ${interviewAnswers.questionId}) words), '{}') end)
                  from ${interviewResponses} left join ${users} on ${users.id} = ${interviewResponses.recordedBy}
                  where ${interviewResponses.id} = page.response_id))
                order by page.name_key, page.id), '[]') from page)::text as data,
              (select count(*)::int from audience) as n,
              (select count(*)::int from audience where response_id is not null) as answered,
              ${sessionSqlFixed(toConfirm)} as session`,
          // Page 1 without a search: one plan serves every call (docs/architecture.md, "Plans kept with the statement").
          { planOnce: built.pure && q.page === 1 },
        );
      });
      const [row] = await runRendered<{ found: boolean; data: string; n: number; answered: number; session: unknown }>(
        db,
        statement,
        toConfirm ? { session_hash: request.session.hash } : {},
      );
      if (!confirmSession(db, request, row.session)) {
        // The rights changed since: nothing read with the old ones is answered.
        if (!canAccess(request.user.rules, 'interviews', 'view')) throw forbidden();
        return respondents.call(this, request, reply);
      }
      if (!row.found) throw notFound(NOT_FOUND);
      const total = q.status === 'answered' ? row.answered : q.status === 'not_answered' ? row.n - row.answered : row.n;
      const rest = { pagination: paginate(total, q.page, q.per_page), summary: { answered: row.answered, not_answered: row.n - row.answered } };
      void reply.type('application/json; charset=utf-8').send(`{"data":${row.data},${JSON.stringify(rest).slice(1)}`);
    },
  );
};
