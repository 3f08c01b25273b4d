import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema, text } from '../../../contract/common.ts';
import { fileKeySchema } from '../../../contract/media.ts';
import { chatMessage, linkChat } from '../../../contract/serviceRequests.ts';
import { serviceRequestChatLinks, serviceRequests, users } from '../../db/schema.ts';
import { forbidden, issuesToErrors, notFound, unprocessable } from '../../lib/errors.ts';
import { readMultipartForm, removeStored, sendStored } from '../../lib/files.ts';
import { multipartRoutes } from '../../lib/multipart.ts';
import { hashToken } from '../../lib/secrets.ts';
import { chatMessages, handlingStaff, linksStillSpeak, requestFile, selectRequests, toRecords, type RequestRow } from './records.ts';
import { announce, houseComplex, moveStage, postMessage, workDoneRecipients, type Actor } from './service.ts';

/** The start of the performer's last word, for the notification of the work done. */
const excerpt = (message: string, max = 120) => {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
};

const INVALID = 'Посилання на чат недійсне або термін його дії минув. Попросіть нове посилання у диспетчера.';
const tokenParams = z.object({
  token: z
    .string()
    .min(20)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/),
});

const linkPost = z.object({
  message: text('Повідомлення', { max: 4000 }).default(''),
  done: z
    .enum(['0', '1', 'true', 'false', 'on'], { error: 'Позначка виконання: 1 або 0.' })
    .optional()
    .transform((v) => v === '1' || v === 'true' || v === 'on'),
  /** When a client names the request, it must be the link's own. */
  request_id: idSchema.optional(),
  /** The chat's message may carry the token (docs/architecture.md, "Link pages"); then it must be the link's. */
  token: z.string().max(200).optional(),
});

/**
 * The staff chat by link (GET/POST /api/staff/chat/{token}; docs/architecture.md, "Link pages"):
 * a performer who does not sign in reads one request's staff chat, writes to it (with a photo) and may mark the work done.
 * No bearer token: the link's token grants that one chat and nothing else — its files are the
 * staff chat's attachments, never the resident chat's or the request's gallery — and only while
 * the performer and the link's maker keep their rights (`linksStillSpeak`).
 */
export const linkChatRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, live } = app;
  const tags = ['staff-chat'];

  async function resolve(token: string) {
    const [found] = await db
      .select({ link: serviceRequestChatLinks, row: serviceRequests, name: users.name })
      .from(serviceRequestChatLinks)
      .innerJoin(serviceRequests, eq(serviceRequests.id, serviceRequestChatLinks.requestId))
      .innerJoin(users, eq(users.id, serviceRequestChatLinks.userId))
      .where(
        and(
          eq(serviceRequestChatLinks.tokenHash, hashToken(token)),
          isNull(serviceRequestChatLinks.revokedAt),
          gt(serviceRequestChatLinks.expiresAt, new Date()),
        ),
      )
      .limit(1);
    if (!found) throw notFound(INVALID);
    // The same answer as for an unknown link: the holder's rights ended it.
    const complexId = await houseComplex(db, found.row.houseId);
    if (!(await linksStillSpeak(db, found.row.organizationId, complexId, [found.link]))(found.link)) throw notFound(INVALID);
    const actor: Actor = { userId: found.link.userId, name: found.name, organizationId: found.row.organizationId, viaLink: true };
    return { ...found, actor, complexId };
  }

  const mediaUrl = (token: string) => (key: string) => `/api/staff/chat/${token}/media/${key}`;
  const canFinish = (row: RequestRow, userId: number) => row.stage === 'executor' && row.performerId === userId;

  async function view(token: string) {
    const { link, row } = await resolve(token);
    const [joined] = await selectRequests(db).where(eq(serviceRequests.id, row.id)).limit(1);
    const [record] = await toRecords(db, [joined]);
    if (!record) throw notFound(INVALID);
    const url = mediaUrl(token);
    const viewer = { userId: null, isAdmin: false };
    const [messages, staff] = await Promise.all([
      chatMessages(db, row.id, viewer, url, 'staff_chat'),
      handlingStaff(
        db,
        row.organizationId,
        [row.responsibleId, row.performerId].filter((x): x is number => x !== null),
      ),
    ]);
    const pick = (id: number | null) => staff.filter((s) => s.id === id).map(({ id, name }) => ({ id, name }));
    return {
      staff_chat: {
        request: {
          id: record.id,
          number: record.number,
          type: record.type,
          address: record.address,
          realty_number: record.realty_number,
          text: record.text,
          stage: record.stage,
          deadline: record.deadline,
        },
        messages,
        responsible: pick(row.responsibleId),
        performer: pick(row.performerId),
        can_finish: canFinish(row, link.userId),
        expires_at: link.expiresAt.toISOString(),
      },
    };
  }

  app.get(
    '/chat/:token',
    { schema: { tags, summary: 'Чат працівників за посиланням', security: [], params: tokenParams, response: { 200: linkChat } } },
    async (request) => view(request.params.token),
  );

  app.get(
    '/chat/:token/media/:key',
    {
      schema: {
        tags,
        summary: 'Файл заявки або чату працівників за посиланням',
        description: 'Лише вкладення чату працівників; файли чату з мешканцем і галерея заявки — ні.',
        security: [],
        params: tokenParams.extend({ key: fileKeySchema }),
      },
    },
    async (request, reply) => {
      const { row } = await resolve(request.params.token);
      const file = await requestFile(db, row.id, request.params.key, { gallery: false, chats: ['staff_chat'] });
      if (!file) throw notFound('Файл не знайдено.');
      return sendStored(reply, app.storage, file);
    },
  );

  await multipartRoutes(app, (mp) => {
    mp.post(
      '/chat/:token',
      {
        schema: {
          tags,
          summary: 'Написати в чат за посиланням',
          description:
            'multipart/form-data: message, token (той самий, що в адресі; необов’язково), photo (необов’язково, JPEG/PNG/WEBP/GIF до 5 ' +
            'МБ), done=1 — виконавець позначає роботу виконаною.',
          security: [],
          consumes: ['multipart/form-data'],
          params: tokenParams,
          response: { 200: z.object({ data: chatMessage.nullable(), staff_chat: linkChat.shape.staff_chat }) },
        },
      },
      async (request) => {
        const { row, link, actor, complexId } = await resolve(request.params.token);
        const form = await readMultipartForm(request, { storage: app.storage, fileField: 'photo', kind: 'image' });
        const discard = () => removeStored(app.storage, form.file?.storedName);
        let posted = false;
        try {
          const parsed = linkPost.safeParse(form.fields);
          if (!parsed.success) throw unprocessable(issuesToErrors(parsed.error.issues));
          const body = parsed.data;
          if (body.request_id !== undefined && body.request_id !== row.id) throw forbidden('Це посилання відкриває лише чат своєї заявки.');
          if (body.token !== undefined && body.token !== request.params.token) throw forbidden('Ключ у повідомленні не збігається з посиланням.');
          if (!body.message && !form.file && !body.done) throw unprocessable({ message: ['Напишіть повідомлення або додайте фото.'] });
          if (body.done && !canFinish(row, link.userId)) {
            throw unprocessable({ done: ['Позначити виконаною можна лише заявку, що у вас на виконанні.'] });
          }
          let messageId: number | null = null;
          if (body.message || form.file)
            messageId = await postMessage(db, live, actor, row, complexId, 'staff_chat', body.message, form.file ? [form.file] : [], undefined, !body.done);
          posted = true;
          if (body.done) {
            const notified = await db.transaction(async (tx) => {
              const [locked] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, row.id)).for('update');
              if (!canFinish(locked, link.userId)) throw unprocessable({ done: ['Позначити виконаною можна лише заявку, що у вас на виконанні.'] });
              // The dispatchers learn it in the header's notifications, not only from the request's stage.
              const lastWord = body.message ? `: «${excerpt(body.message)}»` : '.';
              const recipients = await workDoneRecipients(tx, locked, complexId, link.createdBy, link.userId);
              return moveStage(tx, locked, 'done', actor, 'Виконавець позначив роботу виконаною (за посиланням).', locked.performerId, {
                userIds: recipients,
                kind: 'work_done',
                text: `Заявка №${locked.number}: ${actor.name} позначив(ла) роботу виконаною за посиланням${lastWord}`,
              });
            });
            await announce(live, { organizationId: row.organizationId, requestId: row.id, complexId, action: 'updated', notified });
          }
          const current = await view(request.params.token);
          return { data: current.staff_chat.messages.find((m) => m.id === messageId) ?? null, staff_chat: current.staff_chat };
        } catch (err) {
          // A stored photo whose message was not written is removed again.
          if (!posted) await discard();
          throw err;
        }
      },
    );
  });
};
