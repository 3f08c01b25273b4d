import { plural } from '../../lib/words.ts';
import { and, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idList } from '../../../contract/audience.ts';
import { idSchema } from '../../../contract/common.ts';
import {
  BALLOT_STATUSES,
  participantRecord,
  sheetFields,
  STATUTE_CAPPED_MAX,
  STATUTE_MAX,
  STATUTE_MIN,
  votingFormRecord,
  votingRecord,
  votingEntity,
  type VotingInput,
  type VotingState,
  type VotingParticipant,
  type VotingSummary,
} from '../../../contract/voting.ts';
import { houses, media, votingBallots, votingParticipants, votingQuestions, votings } from '../../db/schema.ts';
import { canAccess } from '../../../contract/permissions.ts';
import { confirmSession, requirePermission, sessionToConfirm, type CurrentUser } from '../../lib/auth.ts';
import { conflict, forbidden, HttpError, notFound, unprocessable } from '../../lib/errors.ts';
import { downloadName, removeStored, sendStored } from '../../lib/files.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { multipartRoutes, readForm } from '../../lib/multipart.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { formatAddress } from '../houses/address.ts';
import { houseScope, selectHouses } from '../houses/records.ts';
import { insertMedia } from '../../lib/media.ts';
import { checkAnswers, checkBallotDate, recordBallot } from './ballots.ts';
import {
  loadMeeting,
  meetingPeople,
  meetingResults,
  snapshotElectorate,
  todayKyiv,
  type Meeting,
  type MeetingPeople,
  type MeetingResults,
  type VotingRow,
} from './meeting.ts';
import { linkKeyOf, linkTokenOf, newLinkToken } from './linkTokens.ts';
import { pageJson, participantsStatement } from './participants.ts';
import { sendInvitations, NOTIFY_INTERVAL_MS } from './notify.ts';
import { protocolPdf } from './protocol.ts';
import type { SignatureProvider } from './signature.ts';

const params = z.object({ id: idSchema });
const tags = ['voting'];
const NOT_FOUND = 'Загальні збори не знайдено.';
const multipartDoc = { consumes: ['multipart/form-data'] };

const residentsQuery = listQuery.extend({
  status: z.enum(BALLOT_STATUSES, { error: 'Статус: not_voted, partial або voted.' }).optional(),
  per_page: listQuery.shape.per_page.removeDefault().default(25),
});

const residentsAnswer = z.object({ data: z.array(participantRecord), pagination: paginationSchema, summary: z.record(z.enum(BALLOT_STATUSES), z.number()) });

export const mediaOf = (votingId: number, ballotId: number) => `/api/admin/voting/${votingId}/ballots/${ballotId}/sheet`;

/** The link a co-owner opens to vote: the SPA's public page for the meeting's token. */
export const deeplinkOf = (publicUrl: string, token: string) => `${publicUrl}/Vote/${token}`;

export function summaryOf(v: VotingRow, address: string, complexId: number | null, m: Meeting, r: MeetingResults): VotingSummary {
  return {
    id: v.id,
    house_id: v.houseId,
    address,
    complex_id: complexId,
    title: v.title,
    regime: v.regime,
    meeting_date: v.meetingDate,
    meeting_time: v.meetingTime,
    state: r.state,
    questions_count: m.questions.length,
    participants_count: m.participants.length,
    voted_count: [...r.ballotStatus.values()].filter((s) => s !== 'not_voted').length,
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
  };
}

export function participantsOf(votingId: number, m: Meeting, r: MeetingPeople): VotingParticipant[] {
  const answersByBallot = new Map<number, Record<string, 'for' | 'against'>>();
  for (const a of m.answers) answersByBallot.set(a.ballotId, { ...answersByBallot.get(a.ballotId), [String(a.questionId)]: a.answer });
  const ballotsOf = new Map<number, Meeting['ballots']>();
  for (const b of m.ballots) ballotsOf.set(b.ballot.participantId, [...(ballotsOf.get(b.ballot.participantId) ?? []), b]);
  return m.participants.map((p) => {
    const person = r.people.get(p.id)!;
    const votes = r.votes.get(p.id);
    return {
      id: p.memberId,
      name: p.name,
      phone: p.phone,
      email: p.email,
      units: person.units.map((u) => ({ number: u.number, type: u.type, area: u.area, share: u.share, owned_area: u.ownedArea })),
      area: person.area,
      weight_percent: person.weightPercent,
      ownership_document: p.ownershipDocument,
      status: r.ballotStatus.get(p.id)!,
      answers: Object.fromEntries([...(votes ?? new Map())].map(([q, a]) => [String(q), a])),
      ballots: (ballotsOf.get(p.id) ?? []).map(({ ballot: b, sheetName, sheetMime }) => ({
        id: b.id,
        channel: b.channel,
        ballot_date: b.ballotDate,
        identification: b.identification,
        identified_target: b.identifiedTarget,
        signed: b.signatureProvider !== null,
        signature_provider: b.signatureProvider,
        signature_signer: b.signatureSigner,
        counted: true,
        sheet:
          b.sheetMediaId !== null && sheetName
            ? { id: b.sheetMediaId, name: downloadName(sheetName, sheetMime ?? ''), mime: sheetMime ?? '', url: mediaOf(votingId, b.id) }
            : null,
        representative: b.representative,
        representative_document: b.representativeDocument,
        answers: answersByBallot.get(b.id) ?? {},
        created_at: b.createdAt.toISOString(),
      })),
    };
  });
}

/**
 * General meetings of co-owners (/voting; docs/decisions.md, "General meetings of co-owners
 * (voting)"). A meeting belongs to one house; staff see the meetings of houses in their complexes only (404 otherwise).
 */
export const votingRoutes: FastifyPluginAsyncZod<{ signatureProviders?: SignatureProvider[] }> = async (app, opts) => {
  const { db, config } = app;
  /** Voting links are kept sealed under this key (./linkTokens.ts). */
  const linkKey = linkKeyOf(config);
  const providers = opts.signatureProviders ?? [];
  const providerList = providers.map((p) => ({ id: p.id, title: p.title }));

  const scope = (user: CurrentUser): SQL =>
    user.complexIds === null
      ? eq(votings.organizationId, user.organizationId)
      : and(eq(votings.organizationId, user.organizationId), inArray(votings.houseId, db.select({ id: houses.id }).from(houses).where(houseScope(user))))!;

  async function findVoting(user: CurrentUser, id: number) {
    const [row] = await db
      .select()
      .from(votings)
      .where(and(scope(user), eq(votings.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async function houseOf(houseId: number) {
    const [h] = await selectHouses(db).where(eq(houses.id, houseId)).limit(1);
    return { address: h ? formatAddress(h) : '', complexId: h?.complexId ?? null };
  }

  async function fullRecord(v: VotingRow) {
    const m = await loadMeeting(db, v);
    const r = meetingResults(m);
    const h = await houseOf(v.houseId);
    const [protocol] = v.protocolMediaId ? await db.select().from(media).where(eq(media.id, v.protocolMediaId)).limit(1) : [];
    return votingRecord.parse({
      ...summaryOf(v, h.address, h.complexId, m, r),
      initiator: v.initiator,
      place: v.place,
      video_tools: v.videoTools,
      chair: v.chair,
      statute_text: v.statuteText,
      signed_only: v.signedOnly,
      notice_date: v.noticeDate,
      results_notice_date: v.resultsNoticeDate,
      headcount: r.electorate.headcount,
      total_area: r.totalArea,
      largest_share_percent: Number((r.electorate.largestWeight.num * 10000n) / (r.electorate.largestWeight.den || 1n)) / 100,
      deadlines: r.deadlines,
      questions: r.questions.map((q) => ({
        id: q.id,
        position: q.position,
        title: q.title,
        description: q.description,
        threshold: q.threshold,
        threshold_percent: q.thresholdPercent === null ? null : Number(q.thresholdPercent),
        capped: q.capped,
        threshold_text: q.thresholdText,
        tally: q.tally,
      })),
      warnings: r.warnings,
      protocol: {
        uploaded: Boolean(protocol),
        name: protocol ? downloadName(protocol.originalName, protocol.mime) : null,
        uploaded_at: protocol?.createdAt.toISOString() ?? null,
      },
      last_notified_at: v.lastNotifiedAt?.toISOString() ?? null,
      signature_providers: providerList,
      electorate_editable: m.ballots.length === 0,
    });
  }

  const columns = (b: VotingInput) => ({
    houseId: b.house_id,
    title: b.title,
    regime: b.regime,
    initiator: b.initiator,
    meetingDate: b.meeting_date,
    meetingTime: b.meeting_time,
    place: b.place,
    videoTools: b.video_tools,
    chair: b.chair,
    statuteText: b.statute_text,
    signedOnly: b.signed_only,
    noticeDate: b.notice_date,
    resultsNoticeDate: b.results_notice_date,
  });
  const questionColumns = (q: VotingInput['questions'][number], position: number) => ({
    position,
    title: q.title,
    description: q.description,
    threshold: q.threshold,
    thresholdPercent: q.threshold === 'statute' && q.threshold_percent !== null ? q.threshold_percent.toFixed(2) : null,
    capped: q.capped,
  });

  app.get(
    '/voting/form',
    {
      preHandler: requirePermission('votings', 'view'),
      schema: { tags, summary: 'Вибір для форми зборів: будинки, режими, пороги', response: { 200: z.object({ form: votingFormRecord }) } },
    },
    async (request) => {
      const rows = await selectHouses(db).where(houseScope(request.user)).orderBy(houses.id);
      return {
        form: {
          houses: rows.map((h) => ({ id: h.id, name: formatAddress(h), complex_id: h.complexId, complex_name: h.complexName })),
          regimes: [
            { id: 'osbb' as const, name: 'ОСББ', law: 'Закон № 2866-III «Про об’єднання співвласників багатоквартирного будинку»' },
            { id: 'no_osbb' as const, name: 'Без ОСББ', law: 'Закон № 417-VIII «Про особливості здійснення права власності у багатоквартирному будинку»' },
          ],
          thresholds: [
            {
              id: 'majority' as const,
              name: 'Більше 50 %',
              description: 'Звичайне питання: «за» мають більше половини голосів усіх співвласників.',
              regimes: ['osbb' as const, 'no_osbb' as const],
              needs_percent: false,
            },
            {
              id: 'qualified' as const,
              name: 'Більше 75 %',
              description: 'Відчуження спільного майна, реконструкція чи капремонт з відселенням або зміною приміщень, відключення від централізованих мереж.',
              regimes: ['osbb' as const, 'no_osbb' as const],
              needs_percent: false,
            },
            {
              id: 'statute' as const,
              name: 'За статутом ОСББ',
              description:
                `Поріг статуту: від ${STATUTE_MIN} до ${STATUTE_MAX} % (до ${STATUTE_CAPPED_MAX} % для органів управління, ` +
                `форми управління, внесків і кошторису).`,
              regimes: ['osbb' as const],
              needs_percent: true,
            },
            {
              id: 'two_thirds' as const,
              name: 'Не менше 2/3 (старий статут)',
              description: 'Статут до 10.11.2023 зі словами «не менш як дві третини»: досить рівно 2/3.',
              regimes: ['osbb' as const],
              needs_percent: false,
            },
          ],
          statute: { min: STATUTE_MIN, max: STATUTE_MAX, capped_max: STATUTE_CAPPED_MAX },
          answers: [
            { id: 'for' as const, name: 'За' },
            { id: 'against' as const, name: 'Проти' },
          ],
        },
      };
    },
  );

  /** The meetings of the scope in one state: the state comes from the tallies, so the (few) meetings of the scope are read whole. */
  async function inState(user: CurrentUser, state: VotingState): Promise<SQL> {
    const rows = await db.select().from(votings).where(scope(user));
    const today = todayKyiv();
    const ids: number[] = [];
    for (const v of rows) if (meetingResults(await loadMeeting(db, v), today).state === state) ids.push(v.id);
    return ids.length ? inArray(votings.id, ids) : sql`false`;
  }

  /** Whether the meeting has ballots: then its house, regime, date and agenda are fixed. */
  const ballotsOf = async (reader: Pick<typeof db, 'select'>, id: number) =>
    (await reader.select({ n: count() }).from(votingBallots).where(eq(votingBallots.votingId, id)))[0].n;

  await app.register(
    crudRoutes(votingEntity, {
      table: votings,
      columns: { title: votings.title, meeting_date: votings.meetingDate },
      houseColumn: votings.houseId,
      query: { house_ids: idList('Будинки').optional() },
      where: (_ctx, q) => ((q.house_ids as number[] | undefined)?.length ? inArray(votings.houseId, q.house_ids as number[]) : undefined),
      filterReading: { state: ({ user }, value) => inState(user, value as VotingState) },
      sortKeys: { title: (order) => [sql`${votings.title} ${sql.raw(order)}`] },
      /** After the first ballot the house, regime, date and agenda stay; counting only signed ballots needs no unsigned ones. */
      async check(_ctx, b: VotingInput, id) {
        if (id === undefined) return;
        const [v] = await db.select().from(votings).where(eq(votings.id, id));
        const ballots = await ballotsOf(db, id);
        const existing = await db.select().from(votingQuestions).where(eq(votingQuestions.votingId, id));
        const byId = new Map(existing.map((q) => [q.id, q]));
        for (const [i, q] of b.questions.entries()) {
          if (q.id !== undefined && !byId.has(q.id)) throw unprocessable({ [`questions.${i}.id`]: ['Такого питання в цих зборах немає.'] });
        }
        if (ballots > 0) {
          const frozen = 'Після першого голосу не змінюються будинок, режим, дата зборів і порядок денний: голоси вже віддано саме за них.';
          const same =
            b.house_id === v.houseId &&
            b.regime === v.regime &&
            b.meeting_date === v.meetingDate &&
            b.questions.length === existing.length &&
            b.questions.every((q, i) => {
              const old = q.id !== undefined ? byId.get(q.id) : undefined;
              const next = questionColumns(q, i + 1);
              return (
                old &&
                old.position === next.position &&
                old.title === next.title &&
                old.threshold === next.threshold &&
                (old.thresholdPercent === null ? null : Number(old.thresholdPercent).toFixed(2)) === next.thresholdPercent &&
                old.capped === next.capped
              );
            });
          if (!same) throw unprocessable({ questions: [frozen] }, frozen);
        }
        if (b.signed_only && !v.signedOnly) {
          const [{ n: unsigned }] = await db
            .select({ n: count() })
            .from(votingBallots)
            .where(and(eq(votingBallots.votingId, id), eq(votingBallots.channel, 'electronic'), isNull(votingBallots.signatureProvider)));
          if (unsigned > 0) {
            throw unprocessable({
              signed_only: [
                `Уже є ${unsigned} ${plural(unsigned, ['електронний бюлетень', 'електронні бюлетені', 'електронних бюлетенів'])} ` +
                  'без кваліфікованого підпису: анулюйте їх, перш ніж зараховувати лише підписані та паперові.',
              ],
            });
          }
        }
      },
      values: (b: VotingInput, { user }, created) => ({
        ...columns(b),
        ...(created ? { ...newLinkToken(linkKey).columns, createdBy: user.id } : {}),
      }),
      /** The agenda and the electorate (a snapshot of the register), until the first ballot. */
      async afterWrite({ db: tx, user }, id, b: VotingInput, created) {
        if (created) {
          await tx.insert(votingQuestions).values(b.questions.map((q, i) => ({ ...questionColumns(q, i + 1), votingId: id })));
          await snapshotElectorate(tx, id, user.organizationId, b.house_id);
          return;
        }
        if ((await ballotsOf(tx, id)) > 0) return;
        const existing = await tx.select({ id: votingQuestions.id }).from(votingQuestions).where(eq(votingQuestions.votingId, id));
        const keep = new Set(b.questions.map((q) => q.id).filter((x): x is number => x !== undefined));
        const drop = existing.filter((q) => !keep.has(q.id)).map((q) => q.id);
        if (drop.length) await tx.delete(votingQuestions).where(inArray(votingQuestions.id, drop));
        for (const [i, q] of b.questions.entries()) {
          if (q.id !== undefined)
            await tx
              .update(votingQuestions)
              .set(questionColumns(q, i + 1))
              .where(eq(votingQuestions.id, q.id));
          else await tx.insert(votingQuestions).values({ ...questionColumns(q, i + 1), votingId: id });
        }
        await snapshotElectorate(tx, id, user.organizationId, b.house_id);
      },
      async beforeDelete({ db: reader }, id) {
        const n = await ballotsOf(reader, id);
        const ballots = `${n} ${plural(n, ['бюлетень', 'бюлетені', 'бюлетенів'])}`;
        if (n > 0) throw conflict(`Збори з голосами (${ballots}) не можна видалити: листки опитування й протокол — документи, які треба зберігати.`);
      },
      /** The uploaded protocol goes with the meeting. */
      async afterDelete(_app, _ctx, v) {
        if (!v.protocolMediaId) return;
        const [file] = await db.delete(media).where(eq(media.id, v.protocolMediaId)).returning();
        await removeStored(app.storage, file?.storedName);
      },
      async toRecords(_ctx, rows) {
        const today = todayKyiv();
        const houseCache = new Map<number, Awaited<ReturnType<typeof houseOf>>>();
        const out: VotingSummary[] = [];
        for (const v of rows) {
          const m = await loadMeeting(db, v);
          const h = houseCache.get(v.houseId) ?? (await houseOf(v.houseId));
          houseCache.set(v.houseId, h);
          out.push(summaryOf(v, h.address, h.complexId, m, meetingResults(m, today)));
        }
        return out;
      },
      detail: {
        schema: votingRecord,
        load: async (_ctx, summary) => fullRecord((await db.select().from(votings).where(eq(votings.id, summary.id)))[0]),
        writes: true,
      },
    }),
  );

  app.get(
    '/voting/:id/residents',
    {
      preHandler: requirePermission('votings', 'view'),
      schema: {
        tags,
        summary: 'Співвласники зборів: приміщення, площа, частка, стан бюлетеня',
        description: 'status: not_voted, partial, voted; search_query — в імені, телефоні, e-mail або номері приміщення.',
        params,
        querystring: residentsQuery,
        response: { 200: residentsAnswer },
      },
      config: { confirmsSession: true },
    },
    async function residents(request, reply): Promise<void> {
      // One statement: the meeting as far as the user may see it, its rows, and the session when
      // the request started with the one this process knew (server/lib/auth.ts).
      const user = request.user;
      const toConfirm = sessionToConfirm(request);
      const q = request.query;
      const search = q.search_query.trim().toLowerCase();
      const [row] = await participantsStatement(user.complexIds === null, toConfirm)<{
        data: string | null;
        n: number;
        summary: string;
        sheets: boolean;
        found: boolean;
        session: unknown;
      }>(db, {
        org: user.organizationId,
        id: request.params.id,
        complexes: user.complexIds ?? [],
        ...(toConfirm ? { session_hash: request.session.hash } : {}),
        status: q.status ?? null,
        search,
        digits: search.replace(/\D/g, ''),
        limit: q.per_page,
        offset: (q.page - 1) * q.per_page,
      });
      if (!confirmSession(db, request, row.session)) {
        // The rights changed since: nothing read with the old ones is answered.
        if (!canAccess(request.user.rules, 'votings', 'view')) throw forbidden();
        return residents.call(app, request, reply);
      }
      if (!row.found) throw notFound(NOT_FOUND);
      // Sent as the statement wrote it: the records are built field by field there, the schema is for the documentation.
      (reply as FastifyReply)
        .type('application/json; charset=utf-8')
        .send(`{"data":${pageJson(row.data, row.sheets)},"pagination":${JSON.stringify(paginate(row.n, q.page, q.per_page))},"summary":${row.summary}}`);
    },
  );

  async function participantOf(votingId: number, memberId: number) {
    const [p] = await db
      .select()
      .from(votingParticipants)
      .where(and(eq(votingParticipants.votingId, votingId), eq(votingParticipants.memberId, memberId)))
      .limit(1);
    if (!p) throw notFound('Такого співвласника серед учасників зборів немає.');
    return p;
  }

  await multipartRoutes(app, (mp) => {
    mp.post(
      '/voting/:votingId/resident/:residentId/upload_sheet',
      {
        preHandler: requirePermission('votings', 'edit'),
        schema: {
          tags,
          summary: 'Паперовий листок опитування співвласника: скан і записані з нього відповіді',
          description:
            'multipart/form-data: file (PDF, JPEG або PNG, до 20 МБ), type, answer_<id питання> = for | against, ballot_date ' +
            '(РРРР-ММ-ДД, типово сьогодні), representative, representative_document, ownership_document. Повторний голос з того самого ' +
            'питання — 409.',
          params: z.object({ votingId: idSchema, residentId: idSchema }),
          ...multipartDoc,
        },
      },
      async (request) => {
        const v = await findVoting(request.user, request.params.votingId);
        const p = await participantOf(v.id, request.params.residentId);
        const { body, file, discard } = await readForm(request, sheetFields.passthrough(), { storage: app.storage, fileField: 'file', kind: 'document' });
        try {
          if (!file) throw unprocessable({ file: ['Додайте скан або фото підписаного листка опитування.'] });
          if (!['application/pdf', 'image/jpeg', 'image/png'].includes(file.mime)) throw new HttpError(415, 'Листок опитування — PDF, JPEG або PNG.');
          const answers: Record<string, 'for' | 'against'> = {};
          for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
            const match = /^answer_(\d{1,10})$/.exec(key);
            if (!match) continue;
            if (value !== 'for' && value !== 'against') throw unprocessable({ [key]: ['Відповідь: «за» або «проти».'] });
            answers[match[1]] = value;
          }
          await checkAnswers(db, v.id, answers, 'answers');
          const ballotDate = body.ballot_date ?? todayKyiv();
          checkBallotDate(v, ballotDate);
          const sheet = await insertMedia(db, app.storage, request.user, 'document', file);
          try {
            await recordBallot(db, v.id, p.id, answers, {
              channel: 'paper',
              ballotDate,
              sheetMediaId: sheet.id,
              representative: body.representative,
              representativeDocument: body.representative_document,
              recordedBy: request.user.id,
            });
          } catch (err) {
            await db.delete(media).where(eq(media.id, sheet.id));
            throw err;
          }
          if (body.ownership_document !== undefined)
            await db.update(votingParticipants).set({ ownershipDocument: body.ownership_document }).where(eq(votingParticipants.id, p.id));
        } catch (err) {
          await discard();
          throw err;
        }
        const m = await loadMeeting(db, v);
        const [rec] = participantsOf(v.id, m, meetingPeople(m)).filter((x) => x.id === p.memberId);
        return { data: rec };
      },
    );

    mp.post(
      '/voting/:id/protocol',
      {
        preHandler: requirePermission('votings', 'edit'),
        schema: {
          tags,
          summary: 'Завантажити підписаний скан протоколу (замінює згенерований)',
          description: 'multipart/form-data: file (PDF, JPEG або PNG, до 20 МБ), type.',
          params,
          ...multipartDoc,
        },
      },
      async (request) => {
        const v = await findVoting(request.user, request.params.id);
        const { file, discard } = await readForm(request, z.object({ type: z.string().max(50, 'Некоректний тип.').optional() }), {
          storage: app.storage,
          fileField: 'file',
          kind: 'document',
        });
        if (!file) throw unprocessable({ file: ['Оберіть файл протоколу.'] });
        if (!['application/pdf', 'image/jpeg', 'image/png'].includes(file.mime)) {
          await discard();
          throw new HttpError(415, 'Протокол — PDF, JPEG або PNG.');
        }
        const row = await insertMedia(db, app.storage, request.user, 'document', file);
        await db.update(votings).set({ protocolMediaId: row.id, updatedAt: new Date() }).where(eq(votings.id, v.id));
        if (v.protocolMediaId) {
          const [old] = await db.delete(media).where(eq(media.id, v.protocolMediaId)).returning();
          await removeStored(app.storage, old?.storedName);
        }
        const [fresh] = await db.select().from(votings).where(eq(votings.id, v.id));
        return { data: await fullRecord(fresh) };
      },
    );
  });

  app.get(
    '/voting/:id/protocol',
    {
      preHandler: requirePermission('votings', 'view'),
      schema: {
        tags,
        summary: 'Протокол зборів: завантажений підписаний скан або згенерований PDF',
        description: 'generated=1 — згенерований PDF навіть тоді, коли є підписаний скан.',
        params,
        querystring: z.object({ generated: z.enum(['0', '1'], { error: 'generated: 0 або 1.' }).optional() }),
      },
    },
    async (request, reply) => {
      const v = await findVoting(request.user, request.params.id);
      if (v.protocolMediaId && request.query.generated !== '1') {
        const [file] = await db.select().from(media).where(eq(media.id, v.protocolMediaId)).limit(1);
        if (file) return sendStored(reply, app.storage, file, 'attachment');
      }
      const m = await loadMeeting(db, v);
      const h = await houseOf(v.houseId);
      const pdf = await protocolPdf(m, meetingResults(m), h.address);
      const name = `Протокол зборів ${v.meetingDate}.pdf`;
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `attachment; filename="protocol-${v.id}.pdf"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('Cache-Control', 'no-store')
        .send(pdf);
    },
  );

  app.delete(
    '/voting/:id/protocol',
    {
      preHandler: requirePermission('votings', 'edit'),
      schema: { tags, summary: 'Прибрати завантажений скан протоколу', params, response: { 200: z.object({ data: votingRecord }) } },
    },
    async (request) => {
      const v = await findVoting(request.user, request.params.id);
      if (!v.protocolMediaId) throw notFound('Підписаний скан протоколу не завантажено.');
      await db.update(votings).set({ protocolMediaId: null, updatedAt: new Date() }).where(eq(votings.id, v.id));
      const [old] = await db.delete(media).where(eq(media.id, v.protocolMediaId)).returning();
      await removeStored(app.storage, old?.storedName);
      const [fresh] = await db.select().from(votings).where(eq(votings.id, v.id));
      return { data: await fullRecord(fresh) };
    },
  );

  app.get(
    '/voting/:id/ballots/:ballotId/sheet',
    {
      preHandler: requirePermission('votings', 'view'),
      schema: { tags, summary: 'Скан паперового листка', params: z.object({ id: idSchema, ballotId: idSchema }) },
    },
    async (request, reply) => {
      const v = await findVoting(request.user, request.params.id);
      const [row] = await db
        .select({ file: media })
        .from(votingBallots)
        .innerJoin(media, eq(media.id, votingBallots.sheetMediaId))
        .where(and(eq(votingBallots.votingId, v.id), eq(votingBallots.id, request.params.ballotId)))
        .limit(1);
      if (!row) throw notFound('Скан листка не знайдено.');
      return sendStored(reply, app.storage, row.file);
    },
  );

  app.delete(
    '/voting/:id/ballots/:ballotId',
    {
      preHandler: requirePermission('votings', 'edit'),
      schema: {
        tags,
        summary: 'Анулювати бюлетень (помилково записаний листок або непідписаний електронний голос)',
        params: z.object({ id: idSchema, ballotId: idSchema }),
        response: { 200: z.object({ data: z.object({ id: z.number() }) }) },
      },
    },
    async (request) => {
      const v = await findVoting(request.user, request.params.id);
      const [row] = await db
        .delete(votingBallots)
        .where(and(eq(votingBallots.votingId, v.id), eq(votingBallots.id, request.params.ballotId)))
        .returning();
      if (!row) throw notFound('Бюлетень не знайдено.');
      if (row.sheetMediaId) {
        const [file] = await db.delete(media).where(eq(media.id, row.sheetMediaId)).returning();
        await removeStored(app.storage, file?.storedName);
      }
      return { data: { id: row.id } };
    },
  );

  app.post(
    '/voting/:id/replay-notification',
    {
      preHandler: requirePermission('votings', 'edit'),
      schema: {
        tags,
        summary: 'Надіслати запрошення з посиланням тим, хто ще не голосував',
        description: `Не частіше ніж раз на ${NOTIFY_INTERVAL_MS / 3600_000} год (429 з Retry-After). E-mail, а без нього — SMS.`,
        params,
        response: { 200: z.object({ data: z.object({ sent: z.number(), skipped: z.number(), next_allowed_at: z.string() }) }) },
      },
    },
    async (request) => {
      const v = await findVoting(request.user, request.params.id);
      const m = await loadMeeting(db, v);
      const h = await houseOf(v.houseId);
      // The link first: one that cannot be shown (409) sends nothing and keeps the day's turn.
      const link = deeplinkOf(config.publicUrl, linkTokenOf(linkKey, v));
      return { data: await sendInvitations(app, m, meetingResults(m), h.address, link) };
    },
  );

  app.get(
    '/voting/:id/deeplink',
    {
      preHandler: requirePermission('votings', 'view'),
      schema: { tags, summary: 'Посилання для голосування співвласників', params, response: { 200: z.object({ deeplink: z.string() }) } },
    },
    async (request) => {
      const v = await findVoting(request.user, request.params.id);
      return { deeplink: deeplinkOf(config.publicUrl, linkTokenOf(linkKey, v)) };
    },
  );

  app.post(
    '/voting/:id/deeplink',
    {
      preHandler: requirePermission('votings', 'edit'),
      schema: {
        tags,
        summary: 'Нове посилання для голосування (старе перестає діяти)',
        description:
          'Для посилання, яке не можна показати знову (ключ посилань змінено), або такого, що потрапило до сторонніх. ' +
          'Старе посилання перестає відкривати збори; запрошення з новим треба надіслати ще раз.',
        params,
        response: { 200: z.object({ deeplink: z.string() }) },
      },
    },
    async (request) => {
      const v = await findVoting(request.user, request.params.id);
      const fresh = newLinkToken(linkKey);
      await db
        .update(votings)
        .set({ ...fresh.columns, linkToken: null })
        .where(eq(votings.id, v.id));
      return { deeplink: deeplinkOf(config.publicUrl, fresh.token) };
    },
  );
};
