import { and, asc, desc, eq, gte, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { fileKeySchema } from '../../../contract/media.ts';
import {
  chatLinkInput,
  chatLinkRecord,
  chatMessage,
  chatPostInput,
  commentUpdate,
  REQUEST_SORTS,
  REQUEST_STAGES,
  serviceRequestDetail,
  serviceRequestForm,
  serviceRequestInput,
  serviceRequestRecord,
  serviceRequestUpdate,
  plausibleYear,
  type ServiceRequestDetail,
} from '../../../contract/serviceRequests.ts';
import {
  houses,
  members,
  realty,
  residents,
  serviceRequestChatLinks,
  serviceRequestComments,
  serviceRequests,
  serviceRequestTypes,
  serviceRequestTypeStaff,
  users,
} from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { expectedVersion } from '../../lib/concurrency.ts';
import { forbidden, issuesToErrors, notFound, unprocessable } from '../../lib/errors.ts';
import { readMultipartForm, removeStored, sendStored } from '../../lib/files.ts';
import { likePattern, listTotal } from '../../lib/list.ts';
import { multipartRoutes } from '../../lib/multipart.ts';
import { paginate, paginationSchema, listQuery } from '../../lib/pagination.ts';
import { newToken } from '../../lib/secrets.ts';
import { ukrainianSortKey } from '../../lib/sortKey.ts';
import { formatAddress, searchText as normalise } from '../houses/address.ts';
import { naturalKeys } from '../../lib/order.ts';
import { houseScope, selectHouses } from '../houses/records.ts';
import {
  chatLinksOf,
  chatMessages,
  handlingStaff,
  historyOf,
  mayEditComment,
  requestMedia,
  requestFile,
  requestMediaUrl,
  requestScope,
  selectRequests,
  toRecords,
  transitionsFrom,
  worksIn,
  type RequestRow,
} from './records.ts';
import { ListCountCache } from './countCache.ts';
import { announce, createRequest, houseComplex, postMessage, updateRequest, type Actor } from './service.ts';

const tags = ['service-requests'];
const params = z.object({ id: idSchema });
const NOT_FOUND = 'Заявку не знайдено.';
const MAX_CHAT_FILES = 5;

const toArray = (v: unknown) => (v === undefined || v === '' ? undefined : Array.isArray(v) ? v : [v]);
const flag = z.enum(['0', '1', 'true', 'false'], { error: 'Прострочені: 1 або 0.' }).transform((v) => v === '1' || v === 'true');
const day = z.iso.date({ error: 'Дата — у форматі РРРР-ММ-ДД.' }).refine(plausibleYear, 'Дата — між 2000 і 2100 роками.');

export const requestListQuery = listQuery.extend({
  sort: z.enum([...REQUEST_SORTS, 'created'], { error: 'Сортування можливе за: created_at, deadline, stage, number, id.' }).default('created_at'),
  order: z.enum(['asc', 'desc'], { error: 'Порядок сортування: asc або desc.' }).optional(),
  stage: z.preprocess(
    toArray,
    z
      .array(z.enum(REQUEST_STAGES, { error: 'Етап: new, underReview, executor або done.' }))
      .max(4)
      .optional(),
  ),
  type_id: idSchema.optional(),
  complex: idSchema.optional(),
  complex_id: idSchema.optional(),
  house_ids: z.preprocess(toArray, z.array(idSchema).max(1000, 'Забагато адрес.').optional()),
  responsible_id: idSchema.optional(),
  performer_id: idSchema.optional(),
  created_from: day.optional(),
  created_to: day.optional(),
  overdue: flag.optional(),
});

/** Stages sort in the order work moves, not alphabetically. */
const stageOrder = sql`CASE ${serviceRequests.stage} WHEN 'new' THEN 0 WHEN 'underReview' THEN 1 WHEN 'executor' THEN 2 ELSE 3 END`;
/** Calendar days are Kyiv days. */
const kyivDay = (d: string) => sql`(${d}::date)::timestamp AT TIME ZONE 'Europe/Kyiv'`;

/**
 * Service requests (docs/decisions.md, "Service requests"): the list with filters and sorts, one
 * request with its chats, media and history, create, update (with stage moves), delete, the form, the chats and
 * their messages, the request's files and staff chat links.
 */
export const serviceRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, live } = app;
  const counts = new ListCountCache(live);

  const actorOf = async (user: CurrentUser): Promise<Actor> => {
    const [u] = await db.select({ name: users.name }).from(users).where(eq(users.id, user.id)).limit(1);
    return { userId: user.id, name: u?.name ?? '', organizationId: user.organizationId, viaLink: false };
  };

  async function findRow(user: CurrentUser, id: number): Promise<RequestRow> {
    const [row] = await db
      .select()
      .from(serviceRequests)
      .where(and(requestScope(db, user), eq(serviceRequests.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  async function detail(user: CurrentUser, id: number): Promise<ServiceRequestDetail> {
    const [joined] = await selectRequests(db)
      .where(and(requestScope(db, user), eq(serviceRequests.id, id)))
      .limit(1);
    if (!joined) throw notFound(NOT_FOUND);
    const [record] = await toRecords(db, [joined]);
    if (!record) throw notFound(NOT_FOUND);
    const url = (key: string) => requestMediaUrl(id, key);
    const viewer = { userId: user.id, isAdmin: user.isAdmin };
    const [files, messages, history, links] = await Promise.all([
      requestMedia(db, id, url),
      chatMessages(db, id, viewer, url),
      historyOf(db, id),
      user.rules.service_requests?.includes('edit') ? chatLinksOf(db, joined.r) : Promise.resolve([]),
    ]);
    return {
      ...record,
      media: files,
      staff_chat: messages.filter((m) => m.chat_type === 'staff_chat'),
      member_chat: messages.filter((m) => m.chat_type === 'member_chat'),
      history,
      transitions: transitionsFrom(joined.r.stage),
      chat_links: links,
    };
  }

  app.get(
    '/service_request',
    {
      preHandler: requirePermission('service_requests', 'view'),
      schema: {
        tags,
        summary: 'Список заявок',
        description:
          'Фільтри: stage (або stage[]), type_id, complex / complex_id, house_ids[], responsible_id, performer_id, created_from і ' +
          'created_to (РРРР-ММ-ДД, дні за київським часом), overdue (1/0); search_query — номер, текст, мешканець, адреса. Сортування: ' +
          'created_at (типово, новіші першими), deadline, stage, number.',
        querystring: requestListQuery,
        response: { 200: z.object({ main_data: paginationSchema.extend({ data: z.array(serviceRequestRecord) }) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const user = request.user;
      const conditions: (SQL | undefined)[] = [requestScope(db, user)];
      if (q.stage?.length) conditions.push(inArray(serviceRequests.stage, q.stage));
      if (q.type_id !== undefined) conditions.push(eq(serviceRequests.typeId, q.type_id));
      const complexId = q.complex_id ?? q.complex;
      if (complexId !== undefined || q.house_ids?.length) {
        const houseWhere = and(
          eq(houses.organizationId, user.organizationId),
          complexId !== undefined ? eq(houses.complexId, complexId) : undefined,
          q.house_ids?.length ? inArray(houses.id, q.house_ids) : undefined,
        );
        conditions.push(inArray(serviceRequests.houseId, db.select({ id: houses.id }).from(houses).where(houseWhere)));
      }
      if (q.responsible_id !== undefined) conditions.push(eq(serviceRequests.responsibleId, q.responsible_id));
      if (q.performer_id !== undefined) conditions.push(eq(serviceRequests.performerId, q.performer_id));
      if (q.created_from) conditions.push(gte(serviceRequests.createdAt, kyivDay(q.created_from)));
      if (q.created_to) conditions.push(lt(serviceRequests.createdAt, sql`${kyivDay(q.created_to)} + interval '1 day'`));
      if (q.overdue !== undefined) {
        const overdue = and(ne(serviceRequests.stage, 'done'), lt(serviceRequests.deadline, sql`now()`));
        conditions.push(q.overdue ? overdue : sql`NOT coalesce(${overdue}, false)`);
      }
      const search = normalise(q.search_query).toLowerCase().replace(/^№\s*/, '№');
      if (search) conditions.push(sql`${serviceRequests.search} LIKE ${likePattern(search)}`);
      const where = and(...conditions);
      const sort = q.sort === 'created' ? 'created_at' : q.sort;
      const order = q.order ?? (sort === 'deadline' || sort === 'stage' ? 'asc' : 'desc');
      const dir = order === 'asc' ? asc : desc;
      const keys: (SQL | ReturnType<typeof asc>)[] =
        sort === 'deadline'
          ? [sql`${serviceRequests.deadline} ${sql.raw(order === 'asc' ? 'ASC NULLS LAST' : 'DESC NULLS LAST')}`]
          : sort === 'stage'
            ? [order === 'asc' ? asc(stageOrder) : desc(stageOrder), desc(serviceRequests.createdAt)]
            : sort === 'number'
              ? [dir(serviceRequests.number)]
              : sort === 'id'
                ? []
                : [dir(serviceRequests.createdAt)];
      // The total depends on the filters and the user's scope, not on the page or the sort.
      const { page: _page, per_page: _perPage, sort: _sort, order: _order, ...filters } = q;
      const countKey = JSON.stringify([user.complexIds, filters]);
      const cached = counts.get(user.organizationId, countKey);
      const [total, rows] = await Promise.all([
        cached ??
          listTotal(
            db,
            db
              .select({ one: sql`1` })
              .from(serviceRequests)
              .where(where),
          ).then((r) => {
            counts.set(user.organizationId, countKey, r);
            return r;
          }),
        selectRequests(db)
          .where(where)
          .orderBy(...keys, dir(serviceRequests.id))
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { main_data: { data: await toRecords(db, rows), ...paginate(total, q.page, q.per_page) } };
    },
  );

  app.get(
    '/service_request/form',
    {
      preHandler: requirePermission('service_requests', 'view'),
      schema: {
        tags,
        summary: 'Довідники форми заявки',
        description:
          'Відповідальні й виконавці (працівники, що працюють із заявками, з їхніми комплексами), типи, адреси; з house_id — приміщення й мешканці будинку.',
        querystring: z.object({ house_id: idSchema.optional() }),
        response: { 200: z.object({ form: serviceRequestForm }) },
      },
    },
    async (request) => {
      const user = request.user;
      const houseId = request.query.house_id;
      const [staff, types, defaults, houseRows] = await Promise.all([
        handlingStaff(db, user.organizationId),
        db
          .select({ id: serviceRequestTypes.id, name: serviceRequestTypes.name, deadline_hours: serviceRequestTypes.deadlineHours })
          .from(serviceRequestTypes)
          .where(eq(serviceRequestTypes.organizationId, user.organizationId))
          .orderBy(ukrainianSortKey(serviceRequestTypes.name), serviceRequestTypes.id),
        db
          .select({ typeId: serviceRequestTypeStaff.typeId, userId: serviceRequestTypeStaff.userId })
          .from(serviceRequestTypeStaff)
          .innerJoin(serviceRequestTypes, eq(serviceRequestTypes.id, serviceRequestTypeStaff.typeId))
          .where(eq(serviceRequestTypes.organizationId, user.organizationId)),
        selectHouses(db).where(houseScope(user)).orderBy(houses.complexId, houses.id),
      ]);
      let units: { id: number; name: string; type: string }[] = [];
      let people: { id: number; name: string; realty_id: number; phone: string | null }[] = [];
      if (houseId !== undefined && houseRows.some((h) => h.id === houseId)) {
        const unitRows = await db
          .select({ id: realty.id, number: realty.number, type: realty.type })
          .from(realty)
          .where(eq(realty.houseId, houseId))
          .orderBy(realty.type, ...naturalKeys(realty.number));
        units = unitRows.map((u) => ({ id: u.id, name: u.number, type: u.type }));
        const residentRows = await db
          .select({ id: members.id, name: members.name, phone: members.phone, realtyId: residents.realtyId })
          .from(residents)
          .innerJoin(members, eq(members.id, residents.memberId))
          .innerJoin(realty, eq(realty.id, residents.realtyId))
          .where(eq(realty.houseId, houseId))
          .orderBy(ukrainianSortKey(members.name), members.id);
        people = residentRows.map((r) => ({ id: r.id, name: r.name, realty_id: r.realtyId, phone: r.phone }));
      }
      // A staff user sees only admins and colleagues of their own complexes, with only those complexes.
      const mine = user.complexIds;
      const visible = mine === null ? staff : staff.filter((s) => s.complexIds === null || s.complexIds.some((id) => mine.includes(id)));
      const options = visible.map((s) => ({
        id: s.id,
        name: s.name,
        complex_ids: s.complexIds === null || mine === null ? s.complexIds : s.complexIds.filter((id) => mine.includes(id)),
      }));
      const visibleIds = new Set(visible.map((s) => s.id));
      return {
        form: {
          responsible: options,
          performer: options,
          types: types.map((t) => ({ ...t, staff_ids: defaults.filter((d) => d.typeId === t.id && visibleIds.has(d.userId)).map((d) => d.userId) })),
          address: houseRows.map((h) => ({ id: h.id, name: formatAddress(h), complex_id: h.complexId })),
          units,
          residents: people,
        },
      };
    },
  );

  const one = z.object({ data: serviceRequestDetail });

  app.get(
    '/service_request/:id',
    {
      preHandler: requirePermission('service_requests', 'view'),
      schema: { tags, summary: 'Заявка з чатами, файлами та історією', params, response: { 200: one } },
    },
    async (request) => ({ data: await detail(request.user, request.params.id) }),
  );

  app.post(
    '/service_request',
    {
      preHandler: requirePermission('service_requests', 'create'),
      schema: {
        tags,
        summary: 'Створити заявку',
        description:
          'Номер — наступний в організації. Без deadline термін береться з типу заявки (або 72 години). Без відповідального — перший ' +
          'працівник типу за замовчуванням.',
        body: serviceRequestInput,
        response: { 200: one },
      },
    },
    async (request) => {
      const id = await createRequest(db, live, request.user, await actorOf(request.user), request.body);
      counts.invalidate(request.user.organizationId);
      return { data: await detail(request.user, id) };
    },
  );

  app.put(
    '/service_request/:id',
    {
      preHandler: requirePermission('service_requests', 'edit'),
      schema: {
        tags,
        summary: 'Змінити заявку або її етап',
        description:
          'Етапи: new → underReview → executor → done; з executor і done — назад на underReview. Інші переходи — 422. Для executor ' +
          'потрібен виконавець. Кожна зміна етапу — рядок історії (хто, коли, з якого, на який, коментар).',
        params,
        body: serviceRequestUpdate,
        response: { 200: one },
      },
    },
    async (request) => {
      const row = await findRow(request.user, request.params.id);
      await updateRequest(db, live, request.user, await actorOf(request.user), row, request.body, expectedVersion(request));
      counts.invalidate(request.user.organizationId);
      return { data: await detail(request.user, row.id) };
    },
  );

  app.delete(
    '/service_request/:id',
    {
      preHandler: requirePermission('service_requests', 'delete'),
      schema: { tags, summary: 'Видалити заявку', params, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      const row = await findRow(request.user, request.params.id);
      const complexId = await houseComplex(db, row.houseId);
      await db.delete(serviceRequests).where(eq(serviceRequests.id, row.id));
      counts.invalidate(row.organizationId);
      await announce(live, { organizationId: row.organizationId, requestId: row.id, complexId, action: 'deleted', notified: [] });
      return { message: 'Заявку видалено.' };
    },
  );

  app.get(
    '/service_request/:id/media/:key',
    {
      preHandler: requirePermission('service_requests', 'view'),
      schema: {
        tags,
        summary: 'Файл заявки або повідомлення її чату',
        description: 'key — випадковий ключ файлу з його поля url.',
        params: z.object({ id: idSchema, key: fileKeySchema }),
      },
    },
    async (request, reply) => {
      const row = await findRow(request.user, request.params.id);
      const file = await requestFile(db, row.id, request.params.key);
      if (!file) throw notFound('Файл не знайдено.');
      return sendStored(reply, app.storage, file);
    },
  );

  await multipartRoutes(app, (mp) => {
    mp.post(
      '/service_request/chat/:id',
      {
        preHandler: requirePermission('service_requests', 'edit'),
        schema: {
          tags,
          summary: 'Повідомлення в чат заявки',
          description:
            `multipart/form-data: chat_type (staff_chat — між працівниками, member_chat — з мешканцем), message, files[] — до ` +
            `${MAX_CHAT_FILES} фото або PDF (до 10 МБ кожен).`,
          consumes: ['multipart/form-data'],
          params,
          response: { 200: z.object({ data: chatMessage }) },
        },
      },
      async (request) => {
        const row = await findRow(request.user, request.params.id);
        const form = await readMultipartForm(request, { storage: app.storage, fileField: 'files', kind: 'attachment', maxFiles: MAX_CHAT_FILES });
        const discard = async () => {
          for (const f of form.files) await removeStored(app.storage, f.storedName);
        };
        const parsed = chatPostInput.safeParse(form.fields);
        if (!parsed.success) {
          await discard();
          throw unprocessable(issuesToErrors(parsed.error.issues));
        }
        if (!parsed.data.message && form.files.length === 0) {
          await discard();
          throw unprocessable({ message: ['Напишіть повідомлення або додайте файл.'] });
        }
        let resident: { memberId: number; name: string } | undefined;
        if (parsed.data.from_resident) {
          const [member] = row.memberId === null ? [] : await db.select({ name: members.name }).from(members).where(eq(members.id, row.memberId)).limit(1);
          const problem =
            parsed.data.chat_type !== 'member_chat'
              ? 'Слова мешканця записуються лише в чат з мешканцем.'
              : !member
                ? 'У заявці не вказано мешканця.'
                : undefined;
          if (problem) {
            await discard();
            throw unprocessable({ from_resident: [problem] });
          }
          resident = { memberId: row.memberId!, name: member.name };
        }
        let id: number;
        try {
          id = await postMessage(
            db,
            live,
            await actorOf(request.user),
            row,
            await houseComplex(db, row.houseId),
            parsed.data.chat_type,
            parsed.data.message,
            form.files,
            resident,
          );
        } catch (err) {
          await discard();
          throw err;
        }
        const messages = await chatMessages(
          db,
          row.id,
          { userId: request.user.id, isAdmin: request.user.isAdmin },
          (key) => requestMediaUrl(row.id, key),
          parsed.data.chat_type,
        );
        return { data: messages.find((m) => m.id === id)! };
      },
    );
  });

  /** A message inside the user's scope that they may change: 404 outside, 403 when not theirs. */
  async function ownComment(user: CurrentUser, id: number) {
    const [found] = await db
      .select({ c: serviceRequestComments, r: serviceRequests })
      .from(serviceRequestComments)
      .innerJoin(serviceRequests, eq(serviceRequests.id, serviceRequestComments.requestId))
      .where(and(eq(serviceRequestComments.id, id), requestScope(db, user)))
      .limit(1);
    if (!found) throw notFound('Повідомлення не знайдено.');
    if (!mayEditComment({ userId: user.id, isAdmin: user.isAdmin }, found.c))
      throw forbidden('Змінювати й видаляти повідомлення може лише його автор або адміністратор.');
    return found;
  }

  app.put(
    '/comments/:id',
    {
      preHandler: requirePermission('service_requests', 'edit'),
      schema: {
        tags,
        summary: 'Змінити повідомлення чату (автор або адміністратор)',
        params,
        body: commentUpdate,
        response: { 200: z.object({ data: chatMessage }) },
      },
    },
    async (request) => {
      const { c, r } = await ownComment(request.user, request.params.id);
      await db.update(serviceRequestComments).set({ message: request.body.message, editedAt: new Date() }).where(eq(serviceRequestComments.id, c.id));
      await announce(live, {
        organizationId: r.organizationId,
        requestId: r.id,
        complexId: await houseComplex(db, r.houseId),
        action: 'updated',
        notified: [],
        chatType: c.chatType,
      });
      const messages = await chatMessages(
        db,
        r.id,
        { userId: request.user.id, isAdmin: request.user.isAdmin },
        (key) => requestMediaUrl(r.id, key),
        c.chatType,
      );
      return { data: messages.find((m) => m.id === c.id)! };
    },
  );

  app.delete(
    '/comments/:id',
    {
      preHandler: requirePermission('service_requests', 'edit'),
      schema: { tags, summary: 'Видалити повідомлення чату (автор або адміністратор)', params, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      const { c, r } = await ownComment(request.user, request.params.id);
      await db.delete(serviceRequestComments).where(eq(serviceRequestComments.id, c.id));
      await announce(live, {
        organizationId: r.organizationId,
        requestId: r.id,
        complexId: await houseComplex(db, r.houseId),
        action: 'deleted',
        notified: [],
        chatType: c.chatType,
      });
      return { message: 'Повідомлення видалено.' };
    },
  );

  app.post(
    '/service_request/:id/chat_links',
    {
      preHandler: requirePermission('service_requests', 'edit'),
      schema: {
        tags,
        summary: 'Посилання на чат працівників для виконавця',
        description: 'Токен показується лише в цій відповіді; зберігається його SHA-256. Типово — для виконавця заявки, на 7 днів.',
        params,
        body: chatLinkInput,
        response: { 200: z.object({ data: chatLinkRecord.extend({ token: z.string(), url: z.string() }) }) },
      },
    },
    async (request) => {
      const row = await findRow(request.user, request.params.id);
      const userId = request.body.user_id ?? row.performerId;
      if (userId === null) throw unprocessable({ user_id: ['Спершу призначте виконавця заявки.'] });
      const complexId = await houseComplex(db, row.houseId);
      const [staff] = await handlingStaff(db, request.user.organizationId, [userId]);
      if (!staff || !worksIn(staff, complexId)) throw unprocessable({ user_id: ['Працівника не знайдено або він не працює в комплексі цієї заявки.'] });
      const { token, hash } = newToken();
      const [link] = await db
        .insert(serviceRequestChatLinks)
        .values({ requestId: row.id, userId, tokenHash: hash, createdBy: request.user.id, expiresAt: new Date(Date.now() + request.body.hours * 3600 * 1000) })
        .returning();
      return {
        data: {
          id: link.id,
          user_id: userId,
          user_name: staff.name,
          expires_at: link.expiresAt.toISOString(),
          revoked_at: null,
          created_at: link.createdAt.toISOString(),
          active: true,
          token,
          url: `${config.publicUrl}/Chat/${token}`,
        },
      };
    },
  );

  app.delete(
    '/service_request/:id/chat_links/:linkId',
    {
      preHandler: requirePermission('service_requests', 'edit'),
      schema: {
        tags,
        summary: 'Відкликати посилання на чат',
        params: z.object({ id: idSchema, linkId: idSchema }),
        response: { 200: z.object({ data: z.array(chatLinkRecord) }) },
      },
    },
    async (request) => {
      const row = await findRow(request.user, request.params.id);
      const [link] = await db
        .update(serviceRequestChatLinks)
        .set({ revokedAt: sql`coalesce(${serviceRequestChatLinks.revokedAt}, now())` })
        .where(and(eq(serviceRequestChatLinks.id, request.params.linkId), eq(serviceRequestChatLinks.requestId, row.id)))
        .returning({ id: serviceRequestChatLinks.id });
      if (!link) throw notFound('Посилання не знайдено.');
      return { data: await chatLinksOf(db, row) };
    },
  );
};
