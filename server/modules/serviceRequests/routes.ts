import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
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
  REQUEST_STAGES,
  serviceRequestDetail,
  serviceRequestEntity,
  serviceRequestForm,
  plausibleYear,
  type ServiceRequest,
  type ServiceRequestBulkInput,
  type ServiceRequestDetail,
  type ServiceRequestInput,
  type ServiceRequestUpdate,
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
import { forbidden, issuesToErrors, notFound, unprocessable } from '../../lib/errors.ts';
import { readMultipartForm, removeStored, sendStored } from '../../lib/files.ts';
import { crudRoutes } from '../../crud/routes.ts';
import type { CrudContext } from '../../crud/types.ts';
import { contains, likePattern } from '../../lib/list.ts';
import { anyOf } from '../../lib/jsonSql.ts';
import { multipartRoutes } from '../../lib/multipart.ts';
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
  isResidentMessage,
  mayEditComment,
  requestMedia,
  requestFile,
  requestMediaUrl,
  requestScope,
  recordsOf,
  requestRecordsJson,
  transitionsFrom,
  worksIn,
  type RequestRow,
} from './records.ts';
import { announce, createRequest, houseComplex, postMessage, updateRequest, type Actor } from './service.ts';
import { staffComplexes } from '../../lib/scope.ts';
import { NOW } from '../../lib/sqlReads.ts';

const tags = ['service-requests'];
const params = z.object({ id: idSchema });
const NOT_FOUND = 'Заявку не знайдено.';
const MAX_CHAT_FILES = 5;

/** Stages sort in the order work moves, not alphabetically. */
const stageOrder = sql`CASE ${serviceRequests.stage} WHEN 'new' THEN 0 WHEN 'underReview' THEN 1 WHEN 'executor' THEN 2 ELSE 3 END`;
/** Calendar days are Kyiv days. */
const kyivDay = (d: string) => sql`(${d}::date)::timestamp AT TIME ZONE 'Europe/Kyiv'`;
const toArray = (v: unknown) => (v === undefined || v === '' ? undefined : Array.isArray(v) ? v : [v]);
const flag = z.enum(['0', '1', 'true', 'false'], { error: 'Прострочені: 1 або 0.' }).transform((v) => v === '1' || v === 'true');
const day = z.iso.date({ error: 'Дата — у форматі РРРР-ММ-ДД.' }).refine(plausibleYear, 'Дата — між 2000 і 2100 роками.');

/** The list's parameters beyond the declared ones (the type): stages, places, staff, dates and overdue. */
const requestFilters = {
  stage: z.preprocess(
    toArray,
    z
      .array(z.enum(REQUEST_STAGES, { error: 'Етап: new, underReview, executor або done.' }))
      .max(4)
      .optional(),
  ),
  complex: idSchema.optional(),
  complex_id: idSchema.optional(),
  house_ids: z.preprocess(toArray, z.array(idSchema).max(1000, 'Забагато адрес.').optional()),
  responsible_id: idSchema.optional(),
  performer_id: idSchema.optional(),
  created_from: day.optional(),
  created_to: day.optional(),
  overdue: flag.optional(),
};
type RequestFilters = { [K in keyof typeof requestFilters]: z.infer<(typeof requestFilters)[K]> };

/** The houses a requests list is narrowed to (its complex, its houses), as a condition on `houses`; undefined when it is not. */
function narrowedHouses(user: CurrentUser, q: RequestFilters): SQL | undefined {
  const complexId = q.complex_id ?? q.complex;
  if (complexId === undefined && !q.house_ids?.length) return undefined;
  return and(
    eq(houses.organizationId, user.organizationId),
    complexId !== undefined ? eq(houses.complexId, complexId) : undefined,
    q.house_ids?.length ? anyOf(houses.id, q.house_ids) : undefined,
  );
}

const actorOf = async ({ db, user }: CrudContext): Promise<Actor> => {
  const [u] = await db.select({ name: users.name }).from(users).where(eq(users.id, user.id)).limit(1);
  return { userId: user.id, name: u?.name ?? '', organizationId: user.organizationId, viaLink: false };
};

/** A request with its files, both chats, history, the stages it may move to and (for editors) its chat links. */
async function detailOf({ db, user }: CrudContext, record: ServiceRequest): Promise<ServiceRequestDetail> {
  const id = record.id;
  const url = (key: string) => requestMediaUrl(id, key);
  const viewer = { userId: user.id, isAdmin: user.isAdmin };
  const [files, messages, history, links] = await Promise.all([
    requestMedia(db, id, url),
    chatMessages(db, id, viewer, url),
    historyOf(db, id),
    user.rules.service_requests?.includes('edit') ? chatLinksOf(db, { id, organizationId: user.organizationId, houseId: record.house_id }) : [],
  ]);
  return {
    ...record,
    media: files,
    staff_chat: messages.filter((m) => m.chat_type === 'staff_chat'),
    member_chat: messages.filter((m) => m.chat_type === 'member_chat'),
    history,
    transitions: transitionsFrom(record.stage),
    chat_links: links,
  };
}

/** What the workflow's own check (service.ts) looks at, with its own messages: the generic reference check leaves them to it. */
const checkedByWorkflow = async () => true;

/**
 * Service requests: the generic CRUD of their declaration (contract/serviceRequests.ts) — the list
 * with its filters, sorts and a total reused while nothing changes, one request with its chats and
 * history, the export of the list's filter — with the workflow of service.ts for create (the
 * number, the type's deadline and staff, notifications), update (stage moves, history) and the
 * live events of a delete.
 */
export const serviceRequestCrudRoutes = crudRoutes(serviceRequestEntity, {
  table: serviceRequests,
  columns: { type_id: serviceRequests.typeId },
  houseColumn: serviceRequests.houseId,
  /** Staff: requests of houses in their complexes (a house without a complex is an admin's). */
  scope: ({ db, user }) =>
    user.complexIds === null
      ? undefined
      : user.complexIds.length === 0
        ? sql`false`
        : inArray(
            serviceRequests.houseId,
            db
              .select({ id: houses.id })
              .from(houses)
              .where(and(eq(houses.organizationId, user.organizationId), inArray(houses.complexId, staffComplexes(user.complexIds)))),
          ),
  query: requestFilters,
  where({ db, user }, query) {
    const q = query as RequestFilters;
    const conditions: (SQL | undefined)[] = [];
    if (q.stage?.length) conditions.push(inArray(serviceRequests.stage, q.stage));
    const narrowed = narrowedHouses(user, q);
    if (narrowed) conditions.push(inArray(serviceRequests.houseId, db.select({ id: houses.id }).from(houses).where(narrowed)));
    if (q.responsible_id !== undefined) conditions.push(eq(serviceRequests.responsibleId, q.responsible_id));
    if (q.performer_id !== undefined) conditions.push(eq(serviceRequests.performerId, q.performer_id));
    if (q.created_from) conditions.push(gte(serviceRequests.createdAt, kyivDay(q.created_from)));
    if (q.created_to) conditions.push(lt(serviceRequests.createdAt, sql`${kyivDay(q.created_to)} + interval '1 day'`));
    if (q.overdue !== undefined) {
      // 'done' written into the text, as the partial index of open requests' deadlines says it
      // (server/db/schema/requests.ts): a kept plan may then count them on that index.
      const overdue = and(sql`${serviceRequests.stage} <> 'done'`, lt(serviceRequests.deadline, NOW));
      conditions.push(q.overdue ? overdue : sql`NOT coalesce(${overdue}, false)`);
    }
    return and(...conditions);
  },
  /**
   * The number («№ 12» or «12»), the text, the resident and the address: one trigram-indexed
   * column. Within a complex or some houses the column is tested on their requests instead (a few
   * thousand, walked on the house's index): the organization's trigram matches can be tens of
   * thousands, 70–560 ms against 5 ms at a million residents (docs/benchmarks.md).
   */
  search(_ctx, text, query) {
    const search = normalise(text).toLowerCase().replace(/^№\s*/, '№');
    if (!search) return undefined;
    const q = query as RequestFilters;
    const narrowed = q.complex_id !== undefined || q.complex !== undefined || (q.house_ids?.length ?? 0) > 0;
    return narrowed ? contains(serviceRequests.search, search) : sql`${serviceRequests.search} LIKE ${likePattern(search)}`;
  },
  /** The newest requests of a complex or of some houses: each house's newest from its own index, merged. */
  byHouse: {
    sorts: ['created_at', 'created'],
    params: ['complex_id', 'complex', 'house_ids'],
    houses({ db, user }, query) {
      const narrowed = narrowedHouses(user, query as RequestFilters);
      return narrowed && db.select({ id: houses.id }).from(houses).where(narrowed).getSQL();
    },
    named: (query) => (query as RequestFilters).house_ids,
    // Narrowed to houses, the search is `contains` (a strpos test of each row met).
    searchKeepsPlan: true,
  },
  sortKeys: {
    created_at: (order) => [order === 'asc' ? asc(serviceRequests.createdAt) : desc(serviceRequests.createdAt)],
    created: (order) => [order === 'asc' ? asc(serviceRequests.createdAt) : desc(serviceRequests.createdAt)],
    deadline: (order) => [sql`${serviceRequests.deadline} ${sql.raw(order === 'asc' ? 'ASC NULLS LAST' : 'DESC NULLS LAST')}`],
    stage: (order) => [order === 'asc' ? asc(stageOrder) : desc(stageOrder), desc(serviceRequests.createdAt)],
    number: (order) => [order === 'asc' ? asc(serviceRequests.number) : desc(serviceRequests.number)],
  },
  references: {
    'service-request-types': checkedByWorkflow,
    houses: checkedByWorkflow,
    realty: checkedByWorkflow,
    members: checkedByWorkflow,
  },
  async create(app, ctx, input: ServiceRequestInput) {
    const id = await createRequest(ctx.db, app.live, ctx.user, await actorOf(ctx), input);
    return id;
  },
  async update(app, ctx, row, input: ServiceRequestUpdate, expected) {
    await updateRequest(ctx.db, app.live, ctx.user, await actorOf(ctx), row, input, expected);
  },
  /** The list's bulk change of one request: the same workflow as its own update (stage rules, history, notifications, live events). */
  async bulk(app, ctx, row, data) {
    await updateRequest(ctx.db, app.live, ctx.user, await actorOf(ctx), row, data as ServiceRequestBulkInput);
  },
  async afterDelete(app, { db }, row) {
    const complexId = await houseComplex(db, row.houseId);
    await announce(app.live, { organizationId: row.organizationId, requestId: row.id, complexId, action: 'deleted', notified: [] });
  },
  detail: { schema: serviceRequestDetail, load: detailOf, writes: true },
  toRecords: ({ db }, rows) => recordsOf(db, rows),
  recordsJson: ({ db }) => requestRecordsJson(db),
});

/**
 * Service requests' workflow beyond their CRUD: the form's options, the request's files, the
 * chats and their messages, and staff chat links.
 */
export const serviceRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, live } = app;

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
          .orderBy(members.nameKey, members.id);
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

  /** A message inside the user's scope that they may change: 404 outside, 403 for a resident's message and when not theirs. */
  async function ownComment(user: CurrentUser, id: number) {
    const [found] = await db
      .select({ c: serviceRequestComments, r: serviceRequests })
      .from(serviceRequestComments)
      .innerJoin(serviceRequests, eq(serviceRequests.id, serviceRequestComments.requestId))
      .where(and(eq(serviceRequestComments.id, id), requestScope(db, user)))
      .limit(1);
    if (!found) throw notFound('Повідомлення не знайдено.');
    if (isResidentMessage(found.c)) throw forbidden('Повідомлення мешканця не можна ні змінити, ні видалити.');
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
        description: 'Повідомлення мешканця не змінює ніхто (403).',
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
      schema: {
        tags,
        summary: 'Видалити повідомлення чату (автор або адміністратор)',
        description: 'Повідомлення мешканця не видаляє ніхто (403).',
        params,
        response: { 200: z.object({ message: z.string() }) },
      },
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
