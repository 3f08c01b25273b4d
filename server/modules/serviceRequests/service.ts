import { and, eq, sql } from 'drizzle-orm';
import {
  canMove,
  DEFAULT_DEADLINE_HOURS,
  STAGE_NAMES,
  type ChatType,
  type NotificationKind,
  type RequestStage,
  type ServiceRequestInput,
  type ServiceRequestUpdate,
} from '../../../contract/serviceRequests.ts';
import type { Db } from '../../db/index.ts';
import {
  houses,
  media,
  members,
  notifications,
  realty,
  residents,
  serviceRequestCommentMedia,
  serviceRequestComments,
  serviceRequestCounters,
  serviceRequestHistory,
  serviceRequestMedia,
  serviceRequests,
  serviceRequestTypes,
  serviceRequestTypeStaff,
} from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { assertVersion, nextVersion } from '../../lib/concurrency.ts';
import { unprocessable } from '../../lib/errors.ts';
import type { StoredUpload } from '../../lib/files.ts';
import type { LiveBus } from '../../lib/live.ts';
import { refusedAttachments } from '../../lib/media.ts';
import { formatAddress } from '../houses/address.ts';
import { houseScope, selectHouses } from '../houses/records.ts';
import { adminIds, attachableToRequest, handlingStaff, searchText, worksIn, type RequestRow } from './records.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Reader = Pick<Db, 'select'>;

/** Who acts: a signed-in staff user, or a performer writing through a chat link. */
export interface Actor {
  userId: number;
  name: string;
  organizationId: number;
  viaLink: boolean;
}

const HOUR = 3600 * 1000;

/** Field values after the checks: everything a request row needs besides its number and stage. */
interface Checked {
  typeId: number | null;
  houseId: number;
  complexId: number | null;
  address: string;
  realtyId: number | null;
  realtyNumber: string | null;
  memberId: number | null;
  memberName: string | null;
  responsibleId: number | null;
  performerId: number | null;
  mediaIds: number[];
  typeDeadlineHours: number | null;
  typeDefaultStaff: number[];
}

/**
 * Checks what a create or update refers to: the type of the organization, a house inside the
 * user's scope, a unit of that house, a resident of that house, staff who may handle requests in
 * the house's complex, and files that are the request's already or the user's own fresh uploads.
 * Each miss is a 422 on its field.
 */
async function check(
  db: Reader,
  user: CurrentUser,
  v: {
    type_id: number | null;
    house_id: number;
    realty_id: number | null;
    member_id: number | null;
    responsible_id: number | null;
    performer_id: number | null;
    media_ids: number[];
  },
  /** What an update leaves as it was: kept even if it would not be chosen today (a deleted type, a moved colleague). */
  kept: { typeId?: number | null; staff?: (number | null)[]; media?: number[] } = {},
): Promise<Checked> {
  const errors: Record<string, string[]> = {};
  const [type] =
    v.type_id === null
      ? []
      : await db
          .select({ id: serviceRequestTypes.id, deadlineHours: serviceRequestTypes.deadlineHours })
          .from(serviceRequestTypes)
          .where(and(eq(serviceRequestTypes.organizationId, user.organizationId), eq(serviceRequestTypes.id, v.type_id)))
          .limit(1);
  if (!type && !(v.type_id === kept.typeId && 'typeId' in kept)) errors.type_id = ['Тип заявки не знайдено.'];
  const [house] = await selectHouses(db)
    .where(and(houseScope(user), eq(houses.id, v.house_id)))
    .limit(1);
  if (!house) errors.house_id = ['Будинок не знайдено.'];
  let realtyNumber: string | null = null;
  if (v.realty_id !== null) {
    const [unit] = await db
      .select({ number: realty.number })
      .from(realty)
      .where(and(eq(realty.id, v.realty_id), eq(realty.houseId, v.house_id), eq(realty.organizationId, user.organizationId)))
      .limit(1);
    if (!unit) errors.realty_id = ['Приміщення не знайдено в цьому будинку.'];
    else realtyNumber = unit.number;
  }
  let memberName: string | null = null;
  if (v.member_id !== null) {
    const [member] = await db
      .select({ name: members.name })
      .from(members)
      .innerJoin(residents, eq(residents.memberId, members.id))
      .innerJoin(realty, eq(realty.id, residents.realtyId))
      .where(and(eq(members.id, v.member_id), eq(members.organizationId, user.organizationId), eq(realty.houseId, v.house_id)))
      .limit(1);
    if (!member) errors.member_id = ['Мешканця цього будинку не знайдено.'];
    else memberName = member.name;
  }
  const complexId = house?.complexId ?? null;
  const staffIds = [v.responsible_id, v.performer_id].filter((id): id is number => id !== null);
  const staff = await handlingStaff(db, user.organizationId, staffIds);
  for (const field of ['responsible_id', 'performer_id'] as const) {
    const id = v[field];
    if (id === null || kept.staff?.includes(id)) continue;
    const s = staff.find((x) => x.id === id);
    if (!s) errors[field] = ['Працівника не знайдено або він не працює із заявками.'];
    else if (house && !worksIn(s, complexId)) errors[field] = [`${s.name} не працює в комплексі цього будинку.`];
  }
  const mediaIds = [...new Set(v.media_ids)];
  // Files the request already holds stay; new ones must be the user's own fresh uploads.
  if ((await refusedAttachments(db, user, mediaIds, { kept: kept.media, accept: attachableToRequest })).length) {
    errors.media_ids = ['Файл не знайдено. Завантажте фото або PDF ще раз.'];
  }
  if (Object.keys(errors).length > 0) throw unprocessable(errors);
  const defaults =
    v.type_id === null
      ? []
      : await db.select({ userId: serviceRequestTypeStaff.userId }).from(serviceRequestTypeStaff).where(eq(serviceRequestTypeStaff.typeId, v.type_id));
  return {
    typeId: v.type_id,
    houseId: v.house_id,
    complexId,
    address: formatAddress(house!),
    realtyId: v.realty_id,
    realtyNumber,
    memberId: v.member_id,
    memberName,
    responsibleId: v.responsible_id,
    performerId: v.performer_id,
    mediaIds,
    typeDeadlineHours: type?.deadlineHours ?? null,
    typeDefaultStaff: defaults.map((d) => d.userId),
  };
}

/** The next number of the organization: the counter row is locked until the transaction ends. */
async function nextNumber(tx: Tx, organizationId: number): Promise<number> {
  const [row] = await tx
    .insert(serviceRequestCounters)
    .values({ organizationId, lastNumber: 1 })
    .onConflictDoUpdate({ target: serviceRequestCounters.organizationId, set: { lastNumber: sql`${serviceRequestCounters.lastNumber} + 1` } })
    .returning({ n: serviceRequestCounters.lastNumber });
  return row.n;
}

interface NotificationDraft {
  userIds: number[];
  kind: NotificationKind;
  text: string;
}

/** Writes notifications for each recipient but the one who acted; answers who got one. */
export async function notify(
  tx: Pick<Db, 'insert'>,
  organizationId: number,
  requestId: number,
  actorId: number | null,
  drafts: NotificationDraft[],
): Promise<number[]> {
  const rows = drafts.flatMap((d) =>
    [...new Set(d.userIds)].filter((id) => id !== actorId).map((userId) => ({ organizationId, userId, kind: d.kind, requestId, text: d.text })),
  );
  if (rows.length === 0) return [];
  await tx.insert(notifications).values(rows);
  return [...new Set(rows.map((r) => r.userId))];
}

/** Tells open screens: the request changed, and the recipients of new notifications. */
export async function announce(
  live: LiveBus,
  e: {
    organizationId: number;
    requestId: number;
    complexId: number | null;
    action: 'created' | 'updated' | 'deleted';
    notified: number[];
    chatType?: ChatType;
  },
) {
  await live.publish({
    type: e.chatType ? 'chat' : 'request',
    organizationId: e.organizationId,
    requestId: e.requestId,
    complexId: e.complexId,
    action: e.action,
    chatType: e.chatType,
  });
  for (const userId of e.notified) await live.publish({ type: 'notification', organizationId: e.organizationId, userId, requestId: e.requestId });
}

export async function createRequest(db: Db, live: LiveBus, user: CurrentUser, actor: Actor, input: ServiceRequestInput): Promise<number> {
  const c = await check(db, user, input);
  let responsibleId = c.responsibleId;
  if (responsibleId === null && c.typeDefaultStaff.length > 0) {
    // The type's default staff take a new request, the first who works in the house's complex.
    const candidates = await handlingStaff(db, user.organizationId, c.typeDefaultStaff);
    responsibleId = candidates.find((s) => worksIn(s, c.complexId))?.id ?? null;
  }
  const deadline =
    input.deadline === undefined
      ? new Date(Date.now() + (c.typeDeadlineHours ?? DEFAULT_DEADLINE_HOURS) * HOUR)
      : input.deadline === null
        ? null
        : new Date(input.deadline);
  const { id, notified } = await db.transaction(async (tx) => {
    const number = await nextNumber(tx, user.organizationId);
    const [row] = await tx
      .insert(serviceRequests)
      .values({
        organizationId: user.organizationId,
        number,
        typeId: c.typeId,
        houseId: c.houseId,
        realtyId: c.realtyId,
        memberId: c.memberId,
        text: input.text,
        priority: input.priority,
        deadline,
        responsibleId,
        performerId: c.performerId,
        createdBy: actor.userId,
        search: searchText({ number, text: input.text, memberName: c.memberName, address: c.address, realtyNumber: c.realtyNumber }),
      })
      .returning({ id: serviceRequests.id });
    if (c.mediaIds.length) await tx.insert(serviceRequestMedia).values(c.mediaIds.map((mediaId) => ({ requestId: row.id, mediaId })));
    await tx
      .insert(serviceRequestHistory)
      .values({ requestId: row.id, kind: 'stage', userId: actor.userId, actorName: actor.name, fromStage: null, toStage: 'new', comment: 'Заявку створено.' });
    const recipients = responsibleId !== null ? [responsibleId] : await adminIds(tx, user.organizationId);
    const notified = await notify(tx, user.organizationId, row.id, actor.userId, [
      { userIds: recipients, kind: 'request_created', text: `Нова заявка №${number}: ${c.address}` },
      ...(c.performerId !== null ? [{ userIds: [c.performerId], kind: 'assigned' as const, text: `Вас призначено виконавцем заявки №${number}.` }] : []),
    ]);
    return { id: row.id, number, notified };
  });
  await announce(live, { organizationId: user.organizationId, requestId: id, complexId: c.complexId, action: 'created', notified });
  return id;
}

/**
 * Moves a request to another stage inside `tx`: the transition rule, history and notification
 * (`notice`, when given, instead of the usual one to the responsible).
 */
export async function moveStage(
  tx: Tx,
  row: RequestRow,
  to: RequestStage,
  actor: Actor,
  comment: string,
  performerId: number | null,
  notice?: NotificationDraft,
): Promise<number[]> {
  if (!canMove(row.stage, to)) {
    throw unprocessable({ stage: [`Заявку не можна перевести з етапу «${STAGE_NAMES[row.stage]}» на етап «${STAGE_NAMES[to]}».`] });
  }
  if (to === 'executor' && performerId === null) throw unprocessable({ performer_id: ['Щоб передати заявку виконавцю, оберіть виконавця.'] });
  await tx
    .update(serviceRequests)
    .set({ stage: to, doneAt: to === 'done' ? new Date() : null, updatedAt: nextVersion(serviceRequests.updatedAt) })
    .where(eq(serviceRequests.id, row.id));
  await tx
    .insert(serviceRequestHistory)
    .values({ requestId: row.id, kind: 'stage', userId: actor.userId, actorName: actor.name, fromStage: row.stage, toStage: to, comment });
  if (notice) return notify(tx, row.organizationId, row.id, actor.userId, [notice]);
  const recipients = [row.responsibleId, ...(to === 'executor' ? [performerId] : [])].filter((id): id is number => id !== null);
  return notify(tx, row.organizationId, row.id, actor.userId, [
    {
      userIds: recipients,
      kind: 'stage_changed',
      text: `Заявка №${row.number}: ${STAGE_NAMES[row.stage]} → ${STAGE_NAMES[to]}${comment ? ` (${comment})` : ''}`,
    },
  ]);
}

/**
 * Who hears that a performer marked the work done through a chat link: the request's responsible
 * and the one who made the link (the dispatchers who sent the performer there), each only while
 * they may still handle requests in the request's complex; when none of them is left (or the
 * performer is one of them), the organization's admins. Never the performer, never anyone of
 * another complex or organization.
 */
export async function workDoneRecipients(
  db: Reader,
  row: Pick<RequestRow, 'organizationId' | 'responsibleId'>,
  complexId: number | null,
  linkMaker: number | null,
  performerId: number,
): Promise<number[]> {
  const named = [row.responsibleId, linkMaker].filter((id): id is number => id !== null && id !== performerId);
  const staff = await handlingStaff(db, row.organizationId, [...new Set(named)]);
  const here = staff.filter((s) => worksIn(s, complexId)).map((s) => s.id);
  if (here.length) return here;
  return (await adminIds(db, row.organizationId)).filter((id) => id !== performerId);
}

/** `version`: the `updated_at` the client read (If-Match); a request changed since then is refused with 409. */
export async function updateRequest(
  db: Db,
  live: LiveBus,
  user: CurrentUser,
  actor: Actor,
  row: RequestRow,
  input: ServiceRequestUpdate,
  version?: Date,
): Promise<void> {
  const currentMedia = await db.select({ id: serviceRequestMedia.mediaId }).from(serviceRequestMedia).where(eq(serviceRequestMedia.requestId, row.id));
  const merged = {
    type_id: input.type_id ?? row.typeId,
    house_id: input.house_id ?? row.houseId,
    realty_id: input.realty_id !== undefined ? input.realty_id : row.realtyId,
    member_id: input.member_id !== undefined ? input.member_id : row.memberId,
    responsible_id: input.responsible_id !== undefined ? input.responsible_id : row.responsibleId,
    performer_id: input.performer_id !== undefined ? input.performer_id : row.performerId,
    media_ids: input.media_ids ?? currentMedia.map((m) => m.id),
  };
  // A unit or resident of another house does not follow the request to a new house.
  if (input.house_id !== undefined && input.house_id !== row.houseId) {
    if (input.realty_id === undefined) merged.realty_id = null;
    if (input.member_id === undefined) merged.member_id = null;
  }
  const c = await check(db, user, merged, { typeId: row.typeId, staff: [row.responsibleId, row.performerId], media: currentMedia.map((m) => m.id) });
  const text = input.text ?? row.text;
  const changesStage = input.stage !== undefined && input.stage !== row.stage;
  const notified = await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, row.id)).for('update');
    assertVersion(locked.updatedAt, version);
    const out: number[] = [];
    await tx
      .update(serviceRequests)
      .set({
        typeId: c.typeId,
        houseId: c.houseId,
        realtyId: c.realtyId,
        memberId: c.memberId,
        text,
        priority: input.priority ?? locked.priority,
        deadline: input.deadline === undefined ? locked.deadline : input.deadline === null ? null : new Date(input.deadline),
        responsibleId: c.responsibleId,
        performerId: c.performerId,
        search: searchText({ number: locked.number, text, memberName: c.memberName, address: c.address, realtyNumber: c.realtyNumber }),
        updatedAt: nextVersion(serviceRequests.updatedAt),
      })
      .where(eq(serviceRequests.id, row.id));
    if (input.media_ids !== undefined) {
      await tx.delete(serviceRequestMedia).where(eq(serviceRequestMedia.requestId, row.id));
      if (c.mediaIds.length) await tx.insert(serviceRequestMedia).values(c.mediaIds.map((mediaId) => ({ requestId: row.id, mediaId })));
    }
    for (const [kind, before, after] of [
      ['responsible', locked.responsibleId, c.responsibleId],
      ['performer', locked.performerId, c.performerId],
    ] as const) {
      if (before === after) continue;
      const names = await handlingStaff(
        tx,
        user.organizationId,
        [before, after].filter((x): x is number => x !== null),
      );
      const name = (id: number | null) => (id === null ? '—' : (names.find((n) => n.id === id)?.name ?? '—'));
      const label = kind === 'responsible' ? 'Відповідальний' : 'Виконавець';
      await tx
        .insert(serviceRequestHistory)
        .values({ requestId: row.id, kind, userId: actor.userId, actorName: actor.name, comment: `${label}: ${name(before)} → ${name(after)}` });
      if (after !== null) {
        out.push(
          ...(await notify(tx, user.organizationId, row.id, actor.userId, [
            {
              userIds: [after],
              kind: 'assigned',
              text:
                kind === 'responsible' ? `Вас призначено відповідальним за заявку №${locked.number}.` : `Вас призначено виконавцем заявки №${locked.number}.`,
            },
          ])),
        );
      }
    }
    if (changesStage)
      out.push(...(await moveStage(tx, { ...locked, responsibleId: c.responsibleId }, input.stage!, actor, input.comment ?? '', c.performerId)));
    return out;
  });
  await announce(live, { organizationId: user.organizationId, requestId: row.id, complexId: c.complexId, action: 'updated', notified });
}

/** A chat message with its files (already stored); notifies the responsible of what was written. */
export async function postMessage(
  db: Db,
  live: LiveBus,
  actor: Actor,
  row: RequestRow,
  complexId: number | null,
  chatType: ChatType,
  message: string,
  files: StoredUpload[],
  /** The resident whose words the staff member records; the message is theirs. */
  resident?: { memberId: number; name: string },
  /** false: the caller tells the responsible itself (a performer's last message with the work done). */
  notifyResponsible = true,
): Promise<number> {
  const { id, notified } = await db.transaction(async (tx) => {
    const [comment] = await tx
      .insert(serviceRequestComments)
      .values({
        requestId: row.id,
        chatType,
        authorUserId: actor.userId,
        authorMemberId: resident?.memberId ?? null,
        authorName: resident?.name ?? actor.name,
        viaLink: actor.viaLink,
        message,
      })
      .returning({ id: serviceRequestComments.id });
    if (files.length) {
      const stored = await tx
        .insert(media)
        .values(
          files.map((f) => ({
            organizationId: row.organizationId,
            kind: f.mime.startsWith('image/') ? ('image' as const) : ('document' as const),
            storedName: f.storedName,
            originalName: f.originalName,
            mime: f.mime,
            size: f.size,
            uploadedBy: actor.userId,
          })),
        )
        .returning({ id: media.id });
      await tx.insert(serviceRequestCommentMedia).values(stored.map((m) => ({ commentId: comment.id, mediaId: m.id })));
    }
    await tx.update(serviceRequests).set({ updatedAt: new Date() }).where(eq(serviceRequests.id, row.id));
    // What a resident says and what a performer writes through a link are news for the one responsible.
    const responsible = row.responsibleId !== null && notifyResponsible ? [row.responsibleId] : [];
    const notified = resident
      ? await notify(tx, row.organizationId, row.id, actor.userId, [
          { userIds: responsible, kind: 'resident_message', text: `${resident.name} написав(ла) у заявці №${row.number}.` },
        ])
      : actor.viaLink
        ? await notify(tx, row.organizationId, row.id, actor.userId, [
            { userIds: responsible, kind: 'link_message', text: `${actor.name} написав у чаті заявки №${row.number}.` },
          ])
        : [];
    return { id: comment.id, notified };
  });
  await announce(live, { organizationId: row.organizationId, requestId: row.id, complexId, action: 'created', notified, chatType });
  return id;
}

export async function houseComplex(db: Reader, houseId: number): Promise<number | null> {
  const [h] = await db.select({ complexId: houses.complexId }).from(houses).where(eq(houses.id, houseId)).limit(1);
  return h?.complexId ?? null;
}
