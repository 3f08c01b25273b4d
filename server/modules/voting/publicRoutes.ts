import { randomBytes } from 'node:crypto';
import { and, count, eq, gt } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ballotInput, codeRequest, codeVerify, publicBallotRecord, publicVotingRecord } from '../../../contract/voting.ts';
import { houses, members, votingParticipants, votings, votingSessions } from '../../db/schema.ts';
import { bearerToken } from '../../lib/auth.ts';
import { CODE_RULES, maskTarget } from '../../lib/codes.ts';
import { HttpError, notFound, unprocessable } from '../../lib/errors.ts';
import { normalisePhone } from '../../lib/phone.ts';
import { keyDigest, notBefore, takeRateLimit, waitText, type Limit } from '../../lib/rateLimit.ts';
import { hashToken } from '../../lib/secrets.ts';
import { formatAddress } from '../houses/address.ts';
import { selectHouses } from '../houses/records.ts';
import { checkAnswers, recordBallot } from './ballots.ts';
import { createVotingCodes } from './codes.ts';
import { formatUa, loadMeeting, meetingResults, todayKyiv, unitLabel, votingOpen, type VotingRow } from './meeting.ts';
import { ballotDocument, type SignatureProvider } from './signature.ts';
import { deadlines } from './tally.ts';

export const PUBLIC_VOTING_PREFIX = '/api/public/voting';
const SESSION_TTL_MS = 60 * 60_000;
const tags = ['voting (співвласники)'];
const params = z.object({
  token: z
    .string()
    .min(10)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Некоректне посилання.'),
});
const GONE = 'Посилання недійсне: таких зборів немає.';

/** The least time a code request takes, whether or not the address is a co-owner's (sending costs more). */
const CODE_ANSWER_MIN_MS = 250;
const HOUR = 3600_000;

/**
 * Limits of POST /{token}/code, applied alike to every address: per address (the code rules: once
 * a minute, 5 an hour), per client address (request.ip, which honours TRUST_PROXY) and per meeting
 * link (in proportion to its co-owners, so a house can sign in on the first day but nobody can
 * send a house's worth of SMS).
 */
export function codeLimits(ip: string, votingId: number, participants: number, contact: string): Limit[] {
  const address = `voting-code:contact:${votingId}:${keyDigest(contact)}`;
  return [
    { key: address, limit: 1, windowMs: CODE_RULES.resendIntervalMs, message: (s) => `Новий код можна надіслати через ${waitText(s)}.` },
    { key: address, limit: CODE_RULES.perHour, windowMs: HOUR, message: (s) => `Забагато кодів на цю адресу за годину. Спробуйте через ${waitText(s)}.` },
    { key: `voting-code:ip:${ip}`, limit: 20, windowMs: HOUR, message: (s) => `Забагато запитів коду з вашої мережі. Спробуйте через ${waitText(s)}.` },
    {
      key: `voting-code:link:${votingId}`,
      limit: 30 + 3 * participants,
      windowMs: HOUR,
      message: (s) => `Забагато запитів коду для цих зборів. Спробуйте через ${waitText(s)}.`,
    },
  ];
}

/**
 * The co-owner's side of a meeting, without an admin login: the meeting's link token opens the
 * agenda; a one-time code sent to the member's own phone or e-mail identifies the co-owner and
 * gives a short session in which they vote. Every ballot cast here is electronic and carries how
 * the co-owner was identified; it is signed only through a plugged-in signature provider.
 */
export const publicVotingRoutes: FastifyPluginAsyncZod<{ signatureProviders?: SignatureProvider[] }> = async (app, opts) => {
  const { db } = app;
  const providers = opts.signatureProviders ?? [];
  const codes = createVotingCodes(db, app.delivery);

  /** The meeting of a link, found by the token's hash (the token itself is not stored: ./linkTokens.ts). */
  async function byToken(token: string): Promise<VotingRow> {
    const [v] = await db
      .select()
      .from(votings)
      .where(eq(votings.linkTokenHash, hashToken(token)))
      .limit(1);
    if (!v) throw notFound(GONE);
    return v;
  }
  async function addressOf(houseId: number) {
    const [h] = await selectHouses(db).where(eq(houses.id, houseId)).limit(1);
    return h ? formatAddress(h) : '';
  }
  async function session(request: FastifyRequest, v: VotingRow) {
    const token = bearerToken(request);
    if (!token || token.length > 200) throw new HttpError(401, 'Увійдіть кодом, щоб голосувати.');
    const [s] = await db
      .select()
      .from(votingSessions)
      .where(and(eq(votingSessions.tokenHash, hashToken(token)), eq(votingSessions.votingId, v.id), gt(votingSessions.expiresAt, new Date())))
      .limit(1);
    if (!s) throw new HttpError(401, 'Сеанс голосування завершився. Отримайте новий код.');
    return s;
  }

  async function ballotView(v: VotingRow, participantId: number, s: { identification: 'sms_code' | 'email_code'; identifiedTarget: string }) {
    const m = await loadMeeting(db, v);
    const r = meetingResults(m);
    const p = m.participants.find((x) => x.id === participantId);
    if (!p) throw new HttpError(401, 'Вас більше немає серед учасників цих зборів.');
    const person = r.people.get(p.id)!;
    const answered: Record<string, { answer: 'for' | 'against'; channel: 'paper' | 'electronic'; date: string }> = {};
    for (const a of m.answers.filter((x) => x.participantId === p.id)) {
      const b = m.ballots.find((x) => x.ballot.id === a.ballotId)!.ballot;
      answered[String(a.questionId)] = { answer: a.answer, channel: b.channel, date: b.ballotDate };
    }
    return publicBallotRecord.parse({
      voter: { name: p.name, units: person.units.map(unitLabel), area: person.area, identification: s.identification, identified_target: s.identifiedTarget },
      answered,
    });
  }

  app.get(
    '/:token',
    { schema: { tags, summary: 'Збори за посиланням: порядок денний', params, response: { 200: z.object({ data: publicVotingRecord }) } } },
    async (request) => {
      const v = await byToken(request.params.token);
      const m = await loadMeeting(db, v);
      const r = meetingResults(m);
      return {
        data: {
          title: v.title,
          address: await addressOf(v.houseId),
          regime: v.regime,
          initiator: v.initiator,
          meeting_date: v.meetingDate,
          meeting_time: v.meetingTime,
          place: v.place,
          video_tools: v.videoTools,
          poll_ends: r.deadlines.poll_ends,
          open: votingOpen(v),
          opens_on: v.meetingDate,
          signed_only: v.signedOnly,
          signature_providers: providers.map((p) => ({ id: p.id, title: p.title })),
          code_channels: app.delivery.canSend('sms') ? ['email' as const, 'sms' as const] : ['email' as const],
          questions: r.questions.map((q) => ({
            id: q.id,
            position: q.position,
            title: q.title,
            description: q.description,
            threshold_text: q.thresholdText,
            status: q.tally.status,
          })),
        },
      };
    },
  );

  app.post(
    '/:token/code',
    {
      schema: {
        tags,
        summary: 'Надіслати одноразовий код на телефон або e-mail співвласника',
        description:
          'Код надходить лише на телефон або e-mail, записаний у реєстрі мешканців. Відповідь однакова для будь-якої адреси — і ' +
          'статусом, і текстом, і часом. ' +
          'Обмеження (429 з Retry-After): одна адреса — раз на хвилину і 5 разів на годину, один клієнт (IP) — 20 запитів на годину, ' +
          'одні збори — 30 + 3 на кожного учасника на годину. ' +
          'Телефон приймається, лише поки SMS надсилаються (code_channels сторінки зборів).',
        params,
        body: codeRequest,
      },
    },
    async (request) => {
      const v = await byToken(request.params.token);
      const contact = request.body.contact.trim();
      const isEmail = contact.includes('@');
      const value = isEmail ? contact.toLowerCase() : normalisePhone(contact);
      if (!value) throw unprocessable({ contact: ['Вкажіть номер телефону (+380…) або e-mail.'] });
      if (!isEmail && !app.delivery.canSend('sms'))
        throw unprocessable({ contact: ['SMS зараз не надсилаються: вкажіть e-mail, записаний за вами в управителя.'] });
      // The same limits for every address, registered or not, so a refusal tells nothing either.
      const [{ n: participants }] = await db.select({ n: count() }).from(votingParticipants).where(eq(votingParticipants.votingId, v.id));
      await takeRateLimit(db, codeLimits(request.ip, v.id, participants, value));
      const started = Date.now();
      const [p] = await db
        .select({ id: votingParticipants.id, phone: members.phone, email: members.email })
        .from(votingParticipants)
        .innerJoin(members, eq(members.id, votingParticipants.memberId))
        .where(and(eq(votingParticipants.votingId, v.id), isEmail ? eq(members.email, value) : eq(members.phone, value)))
        .limit(1);
      const message = 'Якщо цей телефон або e-mail записано за співвласником будинку, на нього надіслано код. Він діє 10 хвилин.';
      // The same answer, in the same time, as for a co-owner: the page does not tell who lives in the house.
      const challenge = p
        ? (
            await codes.send({
              votingId: v.id,
              participantId: p.id,
              organizationId: v.organizationId,
              channel: isEmail ? 'email' : 'sms',
              target: value,
              title: v.title,
            })
          ).challenge
        : randomBytes(24).toString('base64url');
      await notBefore(started, CODE_ANSWER_MIN_MS);
      return { data: { challenge, message, resend_after: CODE_RULES.resendIntervalMs / 1000, expires_in: CODE_RULES.ttlMs / 1000 } };
    },
  );

  app.post('/:token/verify', { schema: { tags, summary: 'Перевірити код і відкрити сеанс голосування', params, body: codeVerify } }, async (request) => {
    const v = await byToken(request.params.token);
    const checked = await codes.check(v.id, request.body.challenge, request.body.code);
    const token = randomBytes(32).toString('base64url');
    const identification = checked.channel === 'sms' ? ('sms_code' as const) : ('email_code' as const);
    const identifiedTarget = maskTarget(checked.channel, checked.target);
    await db.insert(votingSessions).values({
      votingId: v.id,
      participantId: checked.participantId,
      tokenHash: hashToken(token),
      identification,
      identifiedTarget,
      expiresAt: new Date(Date.now() + SESSION_TTL_MS),
    });
    return { data: { token, expires_in: SESSION_TTL_MS / 1000, ballot: await ballotView(v, checked.participantId, { identification, identifiedTarget }) } };
  });

  app.get(
    '/:token/ballot',
    { schema: { tags, summary: 'Мій бюлетень: хто я і як уже проголосував', params, response: { 200: z.object({ data: publicBallotRecord }) } } },
    async (request) => {
      const v = await byToken(request.params.token);
      const s = await session(request, v);
      return { data: await ballotView(v, s.participantId, s) };
    },
  );

  async function documentFor(v: VotingRow, participantId: number, answers: Record<string, 'for' | 'against'>) {
    const m = await loadMeeting(db, v);
    const r = meetingResults(m);
    const p = m.participants.find((x) => x.id === participantId)!;
    return ballotDocument({
      votingId: v.id,
      title: v.title,
      address: await addressOf(v.houseId),
      meetingDate: formatUa(v.meetingDate),
      voter: p.name,
      units: r.people.get(p.id)!.units.map((u) => `${unitLabel(u)}, ${u.area ?? '—'} м², частка ${u.share}`),
      ballotDate: formatUa(todayKyiv()),
      questions: m.questions,
      answers,
    });
  }

  app.post(
    '/:token/ballot/document',
    { schema: { tags, summary: 'Текст бюлетеня для підпису КЕП і його SHA-256', params, body: ballotInput.pick({ answers: true }) } },
    async (request) => {
      const v = await byToken(request.params.token);
      const s = await session(request, v);
      await checkAnswers(db, v.id, request.body.answers);
      return { data: await documentFor(v, s.participantId, request.body.answers) };
    },
  );

  app.post(
    '/:token/ballot',
    {
      schema: {
        tags,
        summary: 'Проголосувати «за» або «проти»',
        description: 'Голос позначається як електронний зі способом ідентифікації. Повторний голос з того самого питання (зокрема паперовий листок) — 409.',
        params,
        body: ballotInput,
        response: { 200: z.object({ data: publicBallotRecord }) },
      },
    },
    async (request) => {
      const v = await byToken(request.params.token);
      const s = await session(request, v);
      const today = todayKyiv();
      if (today < v.meetingDate) throw unprocessable({ answers: [`Голосування відкриється в день зборів, ${formatUa(v.meetingDate)}.`] });
      if (today > deadlines(v.meetingDate).pollEnds)
        throw unprocessable({ answers: [`Письмове опитування завершилось ${formatUa(deadlines(v.meetingDate).pollEnds)}.`] });
      const { answers, signature } = request.body;
      await checkAnswers(db, v.id, answers);
      let signed: { provider: string; signer: string; signedAt: Date; hash: string } | undefined;
      if (signature) {
        const provider = providers.find((p) => p.id === signature.provider);
        if (!provider) throw unprocessable({ signature: ['Цей спосіб підпису не підключено.'] });
        const document = await documentFor(v, s.participantId, answers);
        const check = await provider.verify(document.text, signature.data);
        if (!check.valid) throw unprocessable({ signature: [`Підпис не пройшов перевірку: ${check.reason}`] });
        signed = { provider: provider.id, signer: check.signer, signedAt: check.signedAt, hash: document.sha256 };
      } else if (v.signedOnly) {
        throw unprocessable({
          signature: [
            'На цих зборах зараховують лише бюлетені з кваліфікованим електронним підписом або паперові листки. Підпишіть бюлетень або ' +
              'зверніться до ініціатора по паперовий листок.',
          ],
        });
      }
      await recordBallot(db, v.id, s.participantId, answers, {
        channel: 'electronic',
        ballotDate: today,
        identification: s.identification,
        identifiedTarget: s.identifiedTarget,
        signatureProvider: signed?.provider ?? null,
        signatureSigner: signed?.signer ?? null,
        signedAt: signed?.signedAt ?? null,
        documentHash: signed?.hash ?? null,
      });
      return { data: await ballotView(v, s.participantId, s) };
    },
  );
};
