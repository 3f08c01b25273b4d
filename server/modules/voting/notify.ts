import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { votings } from '../../db/schema.ts';
import type { Message } from '../../lib/delivery.ts';
import { HttpError, unprocessable } from '../../lib/errors.ts';
import { formatUa, todayKyiv, type Meeting, type MeetingResults } from './meeting.ts';

/** Invitations may be re-sent at most this often: co-owners are reminded, not flooded. */
export const NOTIFY_INTERVAL_MS = 24 * 3600_000;

/**
 * Sends the meeting's invitation with the voting link to every co-owner who has not answered
 * every question: by e-mail, or by SMS when there is no e-mail (each only while it can be sent;
 * otherwise the co-owner counts as skipped). This is a reminder with the
 * link; the legal notice (against signature or by registered letter, Law 417, Art. 10(7)) is
 * the initiator's, and its date is recorded on the meeting.
 */
export async function sendInvitations(app: FastifyInstance, m: Meeting, r: MeetingResults, address: string, link: string) {
  const v = m.voting;
  if (todayKyiv() > r.deadlines.poll_ends) throw unprocessable({ voting: ['Письмове опитування завершено: нагадувати вже нема про що.'] });
  if (r.state === 'finished') throw unprocessable({ voting: ['З усіх питань рішення вже є.'] });
  const now = new Date();
  const claimed = await app.db
    .update(votings)
    .set({ lastNotifiedAt: now })
    .where(and(eq(votings.id, v.id), or(isNull(votings.lastNotifiedAt), lt(votings.lastNotifiedAt, new Date(now.getTime() - NOTIFY_INTERVAL_MS)))))
    .returning({ id: votings.id });
  if (claimed.length === 0) {
    const next = (v.lastNotifiedAt?.getTime() ?? now.getTime()) + NOTIFY_INTERVAL_MS;
    const wait = Math.max(1, Math.ceil((next - now.getTime()) / 1000));
    throw new HttpError(
      429,
      `Запрошення вже надсилали ${v.lastNotifiedAt ? v.lastNotifiedAt.toLocaleString('uk-UA', { timeZone: 'Europe/Kyiv' }) : ''}. ` +
        `Повторно — не раніше ніж через ${Math.ceil(wait / 3600)} год.`,
      undefined,
      {
        'Retry-After': String(wait),
      },
    );
  }
  const agenda = m.questions.map((q) => `${q.position}. ${q.title}`).join('\n');
  const body = [
    `Загальні збори співвласників будинку ${address}: «${v.title}».`,
    `Дата і час: ${formatUa(v.meetingDate)} о ${v.meetingTime}, місце: ${v.place}.`,
    v.videoTools ? `Участь у режимі відеоконференції: ${v.videoTools}.` : '',
    `Ініціатор: ${v.initiator}.`,
    '',
    'Порядок денний:',
    agenda,
    '',
    `Голосувати «за» чи «проти» можна за посиланням (вхід — одноразовим кодом на ваш телефон або e-mail): ${link}`,
    `Письмове опитування триває до ${formatUa(r.deadlines.poll_ends)}.`,
  ]
    .filter((l, i, a) => l !== '' || a[i - 1] !== '')
    .join('\n');
  const messages: Message[] = [];
  let skipped = 0;
  // A channel that reaches nobody (no mail server or SMS gateway in production) is not used: skipped.
  const email = app.delivery.canSend('email');
  const sms = app.delivery.canSend('sms');
  for (const p of m.participants) {
    if (r.ballotStatus.get(p.id) === 'voted') continue;
    if (p.email && email)
      messages.push({
        channel: 'email',
        kind: 'voting_invitation',
        to: p.email,
        organizationId: v.organizationId,
        subject: `Загальні збори: ${v.title}`,
        body,
      });
    else if (p.phone && sms)
      messages.push({
        channel: 'sms',
        kind: 'voting_invitation',
        to: p.phone,
        organizationId: v.organizationId,
        body: `Збори ${formatUa(v.meetingDate)} ${v.meetingTime}, ${v.place}. Голосування: ${link}`,
      });
    else skipped += 1;
  }
  // One batch into the outbox (and one of delivery jobs): the sending itself runs in the background.
  await app.delivery.sendMany(messages);
  return { sent: messages.length, skipped, next_allowed_at: new Date(now.getTime() + NOTIFY_INTERVAL_MS).toISOString() };
}
