import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { MediaFile } from '../../../contract/media.ts';
import { canAccess, normaliseRules } from '../../../contract/permissions.ts';
import {
  CHAT_TYPES,
  STAGE_TRANSITIONS,
  type ChatLink,
  type ChatMessage,
  type ChatType,
  type HistoryEntry,
  type ServiceRequest,
} from '../../../contract/serviceRequests.ts';
import type { Db } from '../../db/index.ts';
import {
  complexes,
  houses,
  media,
  members,
  realty,
  serviceRequestChatLinks,
  serviceRequestCommentMedia,
  serviceRequestComments,
  serviceRequestHistory,
  serviceRequestMedia,
  serviceRequests,
  serviceRequestTypes,
  staffRoles,
  userComplexes,
  users,
} from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { downloadName } from '../../lib/files.ts';
import { currentRights, mayIn } from '../../lib/rights.ts';
import { ukrainianSortKey } from '../../lib/sortKey.ts';
import { addressSql, formatAddress } from '../houses/address.ts';
import { houseJoins, isoSql, LIST_PAGE, pageArray } from '../../lib/jsonSql.ts';
import { selectHouses } from '../houses/records.ts';
import { staffComplexes } from '../../lib/scope.ts';
import { NOW } from '../../lib/sqlReads.ts';

type Reader = Pick<Db, 'select'>;
export type RequestRow = typeof serviceRequests.$inferSelect;

/**
 * Requests a user may see: their organization's and, for staff, only those of houses in the
 * complexes assigned to them (a house without a complex is an admin's).
 */
export function requestScope(db: Reader, user: CurrentUser): SQL {
  const org = eq(serviceRequests.organizationId, user.organizationId);
  if (user.complexIds === null) return org;
  if (user.complexIds.length === 0) return sql`false`;
  return and(
    org,
    inArray(
      serviceRequests.houseId,
      db
        .select({ id: houses.id })
        .from(houses)
        .where(and(eq(houses.organizationId, user.organizationId), inArray(houses.complexId, staffComplexes(user.complexIds)))),
    ),
  )!;
}

/** Files of a request are served through the request (scope checked), named by their random key. */
export const requestMediaUrl = (requestId: number, key: string) => `/api/admin/service_request/${requestId}/media/${key}`;

export const toFile = (m: typeof media.$inferSelect, url: string): MediaFile => ({
  id: m.id,
  kind: m.kind,
  name: downloadName(m.originalName, m.mime),
  mime: m.mime,
  size: m.size,
  url,
});

/** The lower-cased text the list's search matches: «№ 12», the text, the resident and the address. */
export function searchText(parts: { number: number; text: string; memberName?: string | null; address: string; realtyNumber?: string | null }) {
  return `№${parts.number} ${parts.text} ${parts.memberName ?? ''} ${parts.address}${parts.realtyNumber ? `, кв. ${parts.realtyNumber}` : ''}`
    .toLowerCase()
    .replace(/['ʼ`‘]/g, '’');
}

const responsible = alias(users, 'responsible');
const performer = alias(users, 'performer');

/** Request rows with the names a record shows (type, unit, resident, staff). */
export function selectRequests(db: Reader) {
  return db
    .select({
      r: serviceRequests,
      typeName: serviceRequestTypes.name,
      realtyNumber: realty.number,
      memberName: members.name,
      memberPhone: members.phone,
      responsibleName: responsible.name,
      performerName: performer.name,
    })
    .from(serviceRequests)
    .leftJoin(serviceRequestTypes, eq(serviceRequestTypes.id, serviceRequests.typeId))
    .leftJoin(realty, eq(realty.id, serviceRequests.realtyId))
    .leftJoin(members, eq(members.id, serviceRequests.memberId))
    .leftJoin(responsible, eq(responsible.id, serviceRequests.responsibleId))
    .leftJoin(performer, eq(performer.id, serviceRequests.performerId));
}
export type JoinedRow = Awaited<ReturnType<ReturnType<typeof selectRequests>['execute']>>[number];

export const isOverdue = (r: Pick<RequestRow, 'stage' | 'deadline'>, now = new Date()) => r.stage !== 'done' && r.deadline !== null && r.deadline < now;

/** The houses and the media ids of a page of requests: one query each. */
function pageOf(db: Reader, rows: RequestRow[]) {
  const houseIds = [...new Set(rows.map((r) => r.houseId))];
  const ids = rows.map((r) => r.id);
  return Promise.all([
    selectHouses(db).where(inArray(houses.id, houseIds)),
    db.select().from(serviceRequestMedia).where(inArray(serviceRequestMedia.requestId, ids)).orderBy(asc(serviceRequestMedia.mediaId)),
  ]);
}

/** Records for rows already read with their names: one more query for the houses of the page, one for media ids. */
export async function toRecords(db: Reader, rows: JoinedRow[]): Promise<ServiceRequest[]> {
  if (rows.length === 0) return [];
  return build(
    rows,
    ...(await pageOf(
      db,
      rows.map((x) => x.r),
    )),
  );
}

/** Records for plain rows of the table (a list page): their names, houses and media ids, three queries at once. */
export async function recordsOf(db: Reader, rows: RequestRow[]): Promise<ServiceRequest[]> {
  if (rows.length === 0) return [];
  // The page's rows again with their names, by primary key: the page's own query has no joins to run for the rows it skips.
  const ids = rows.map((r) => r.id);
  const [joined, [houseRows, mediaLinks]] = await Promise.all([selectRequests(db).where(inArray(serviceRequests.id, ids)), pageOf(db, rows)]);
  const byId = new Map(joined.map((x) => [x.r.id, x]));
  return build(
    rows.flatMap((r) => byId.get(r.id) ?? []),
    houseRows,
    mediaLinks,
  );
}

function build(rows: JoinedRow[], houseRows: Awaited<ReturnType<typeof pageOf>>[0], mediaLinks: Awaited<ReturnType<typeof pageOf>>[1]): ServiceRequest[] {
  const byHouse = new Map(houseRows.map((h) => [h.id, h]));
  const now = new Date();
  return rows.flatMap(({ r, ...x }) => {
    const house = byHouse.get(r.houseId);
    if (!house) return [];
    return {
      id: r.id,
      number: r.number,
      type_id: r.typeId,
      type: x.typeName,
      house_id: r.houseId,
      complex_id: house.complexId,
      complex_name: house.complexName,
      address: formatAddress(house),
      realty_id: r.realtyId,
      realty_number: x.realtyNumber,
      member_id: r.memberId,
      member_name: x.memberName,
      member_phone: x.memberPhone,
      text: r.text,
      stage: r.stage,
      priority: r.priority,
      deadline: r.deadline?.toISOString() ?? null,
      overdue: isOverdue(r, now),
      responsible_id: r.responsibleId,
      responsible: r.responsibleId !== null && x.responsibleName !== null ? { id: r.responsibleId, name: x.responsibleName } : null,
      performer_id: r.performerId,
      performer: r.performerId !== null && x.performerName !== null ? { id: r.performerId, name: x.performerName } : null,
      media_ids: mediaLinks.filter((m) => m.requestId === r.id).map((m) => m.mediaId),
      done_at: r.doneAt?.toISOString() ?? null,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    } satisfies ServiceRequest;
  });
}

export async function requestMedia(db: Reader, requestId: number, url: (key: string) => string): Promise<MediaFile[]> {
  const rows = await db
    .select({ m: media })
    .from(serviceRequestMedia)
    .innerJoin(media, eq(media.id, serviceRequestMedia.mediaId))
    .where(eq(serviceRequestMedia.requestId, requestId))
    .orderBy(asc(media.id));
  return rows.map(({ m }) => toFile(m, url(m.key)));
}

/** Who reads a chat: a staff user (may edit their own messages; admins any) or a chat link. */
export interface ChatViewer {
  userId: number | null;
  isAdmin: boolean;
}

export async function chatMessages(db: Reader, requestId: number, viewer: ChatViewer, url: (key: string) => string, only?: ChatType): Promise<ChatMessage[]> {
  const rows = await db
    .select()
    .from(serviceRequestComments)
    .where(and(eq(serviceRequestComments.requestId, requestId), only ? eq(serviceRequestComments.chatType, only) : undefined))
    .orderBy(asc(serviceRequestComments.createdAt), asc(serviceRequestComments.id));
  const ids = rows.map((r) => r.id);
  const files = ids.length
    ? await db
        .select({ commentId: serviceRequestCommentMedia.commentId, m: media })
        .from(serviceRequestCommentMedia)
        .innerJoin(media, eq(media.id, serviceRequestCommentMedia.mediaId))
        .where(inArray(serviceRequestCommentMedia.commentId, ids))
        .orderBy(asc(media.id))
    : [];
  return rows.map((r) => ({
    id: r.id,
    chat_type: r.chatType,
    message: r.message,
    author: {
      kind: r.authorMemberId !== null ? ('resident' as const) : ('staff' as const),
      id: r.authorMemberId ?? r.authorUserId,
      name: r.authorName,
      via_link: r.viaLink,
    },
    files: files.filter((f) => f.commentId === r.id).map((f) => toFile(f.m, url(f.m.key))),
    edited_at: r.editedAt?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
    can_edit: mayEditComment(viewer, r),
  }));
}

type CommentAuthorship = Pick<typeof serviceRequestComments.$inferSelect, 'authorUserId' | 'authorMemberId' | 'viaLink'>;

/** A resident's message, whether the resident wrote it or staff recorded their words: it is theirs, and no one in the office changes it. */
export const isResidentMessage = (row: Pick<CommentAuthorship, 'authorMemberId'>) => row.authorMemberId !== null;

/**
 * Only its author edits or deletes a staff message, or an admin; messages through a chat link are
 * changed by admins only. A resident's message is changed by no one (`isResidentMessage`).
 */
export function mayEditComment(viewer: ChatViewer, row: CommentAuthorship) {
  if (viewer.userId === null || isResidentMessage(row)) return false;
  if (viewer.isAdmin) return true;
  return !row.viaLink && row.authorUserId === viewer.userId;
}

export async function historyOf(db: Reader, requestId: number): Promise<HistoryEntry[]> {
  const rows = await db
    .select()
    .from(serviceRequestHistory)
    .where(eq(serviceRequestHistory.requestId, requestId))
    .orderBy(asc(serviceRequestHistory.createdAt), asc(serviceRequestHistory.id));
  return rows.map((h) => ({
    id: h.id,
    kind: h.kind,
    user_id: h.userId,
    user_name: h.actorName,
    from: h.fromStage,
    to: h.toStage,
    comment: h.comment,
    created_at: h.createdAt.toISOString(),
  }));
}

export async function chatLinksOf(db: Reader, row: Pick<RequestRow, 'id' | 'organizationId' | 'houseId'>): Promise<ChatLink[]> {
  const rows = await db
    .select({ link: serviceRequestChatLinks, userName: users.name })
    .from(serviceRequestChatLinks)
    .innerJoin(users, eq(users.id, serviceRequestChatLinks.userId))
    .where(eq(serviceRequestChatLinks.requestId, row.id))
    .orderBy(asc(serviceRequestChatLinks.id));
  const [house] = rows.length ? await db.select({ complexId: houses.complexId }).from(houses).where(eq(houses.id, row.houseId)).limit(1) : [];
  const speaks = await linksStillSpeak(
    db,
    row.organizationId,
    house?.complexId ?? null,
    rows.map((r) => r.link),
  );
  const now = new Date();
  return rows.map(({ link, userName }) => ({
    id: link.id,
    user_id: link.userId,
    user_name: userName,
    expires_at: link.expiresAt.toISOString(),
    revoked_at: link.revokedAt?.toISOString() ?? null,
    created_at: link.createdAt.toISOString(),
    active: link.revokedAt === null && link.expiresAt > now && speaks(link),
  }));
}

type LinkRow = typeof serviceRequestChatLinks.$inferSelect;

/**
 * A chat link acts for two people, and ends with the rights of either: the performer it speaks
 * for must still be allowed to handle requests (`service_requests` view, or an admin) in the
 * request's complex, and the one who made it must still be allowed to manage chat links there
 * (`service_requests` edit). A link whose maker's account is gone ends too; one whose performer's
 * account is deleted is deleted with it. Checked at every use, so an unassigned complex, a
 * changed role or a deleted account ends the link at once.
 */
export async function linksStillSpeak(db: Reader, organizationId: number, complexId: number | null, links: Pick<LinkRow, 'userId' | 'createdBy'>[]) {
  const ids = links.flatMap((l) => [l.userId, ...(l.createdBy === null ? [] : [l.createdBy])]);
  const rights = await currentRights(db, organizationId, ids);
  return (link: Pick<LinkRow, 'userId' | 'createdBy'>) =>
    link.createdBy !== null &&
    mayIn(rights.get(link.userId), 'service_requests', 'view', complexId) &&
    mayIn(rights.get(link.createdBy), 'service_requests', 'edit', complexId);
}

export const transitionsFrom = (stage: RequestRow['stage']) => [...STAGE_TRANSITIONS[stage]];

export interface HandlingStaff {
  id: number;
  name: string;
  /** null: an admin, who works in every complex. */
  complexIds: number[] | null;
}

/**
 * Staff members of the organization who may handle requests: admins, and those whose role lets
 * them view requests, with the complexes they work in. `ids` narrows the list.
 */
export async function handlingStaff(db: Reader, organizationId: number, ids?: number[]): Promise<HandlingStaff[]> {
  if (ids && ids.length === 0) return [];
  const rows = await db
    .select({ id: users.id, name: users.name, isAdmin: users.isAdmin, permissions: staffRoles.permissions })
    .from(users)
    .leftJoin(staffRoles, eq(staffRoles.id, users.roleId))
    .where(and(eq(users.organizationId, organizationId), ids ? inArray(users.id, ids) : undefined))
    .orderBy(ukrainianSortKey(users.name), users.id);
  const allowed = rows.filter((r) => r.isAdmin || canAccess(normaliseRules(r.permissions ?? {}), 'service_requests', 'view'));
  const staffIds = allowed.filter((r) => !r.isAdmin).map((r) => r.id);
  const links = staffIds.length ? await db.select().from(userComplexes).where(inArray(userComplexes.userId, staffIds)) : [];
  return allowed.map((r) => ({
    id: r.id,
    name: r.name,
    complexIds: r.isAdmin ? null : links.filter((l) => l.userId === r.id).map((l) => l.complexId),
  }));
}

export const worksIn = (s: HandlingStaff, complexId: number | null) => s.complexIds === null || (complexId !== null && s.complexIds.includes(complexId));

/** Admins of the organization: a new request with no one responsible goes to them. */
export async function adminIds(db: Reader, organizationId: number): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.isAdmin, true)));
  return rows.map((r) => r.id);
}

/** What a request's gallery may hold: photos and PDF files. */
export const attachableToRequest = (m: Pick<typeof media.$inferSelect, 'kind' | 'mime'>) => m.kind === 'image' || m.mime === 'application/pdf';

/**
 * A file of the request's gallery or of a message of one of `chats`, by its key; nothing else
 * by the routes that serve a request's files. A chat link passes only its own chat.
 */
export async function requestFile(
  db: Reader,
  requestId: number,
  key: string,
  within: { gallery: boolean; chats: readonly ChatType[] } = { gallery: true, chats: CHAT_TYPES },
) {
  if (within.gallery) {
    const [inGallery] = await db
      .select({ m: media })
      .from(serviceRequestMedia)
      .innerJoin(media, eq(media.id, serviceRequestMedia.mediaId))
      .where(and(eq(serviceRequestMedia.requestId, requestId), eq(media.key, key)))
      .limit(1);
    if (inGallery) return inGallery.m;
  }
  const chats = [...within.chats];
  if (chats.length === 0) return undefined;
  const [inChat] = await db
    .select({ m: media })
    .from(serviceRequestCommentMedia)
    .innerJoin(media, eq(media.id, serviceRequestCommentMedia.mediaId))
    .innerJoin(serviceRequestComments, eq(serviceRequestComments.id, serviceRequestCommentMedia.commentId))
    .where(and(eq(serviceRequestComments.requestId, requestId), inArray(serviceRequestComments.chatType, chats), eq(media.key, key)))
    .limit(1);
  return inChat?.m;
}

/** The same records as `recordsOf`, built in SQL for a list's page (server/crud/types.ts `recordsJson`). */
export function requestRecordsJson(db: Reader): SQL {
  const r = serviceRequests;
  const staff = (id: PgColumn, name: PgColumn) =>
    sql`case when ${id} is not null and ${name} is not null then json_build_object('id', ${id}, 'name', ${name}) end`;
  const mediaIds = db
    .select({ ids: sql`json_agg(${serviceRequestMedia.mediaId} order by ${serviceRequestMedia.mediaId})` })
    .from(serviceRequestMedia)
    .where(sql`${serviceRequestMedia.requestId} = ${r.id}`);
  return pageArray(
    sql`json_build_object('id', ${r.id}, 'number', ${r.number}, 'type_id', ${r.typeId}, 'type', ${serviceRequestTypes.name},
      'house_id', ${r.houseId}, 'complex_id', ${houses.complexId}, 'complex_name', ${complexes.name}, 'address', ${addressSql},
      'realty_id', ${r.realtyId}, 'realty_number', ${realty.number}, 'member_id', ${r.memberId}, 'member_name', ${members.name},
      'member_phone', ${members.phone}, 'text', ${r.text}, 'stage', ${r.stage}, 'priority', ${r.priority}, 'deadline', ${isoSql(r.deadline)},
      'overdue', (${r.stage} <> 'done' and ${r.deadline} is not null and ${r.deadline} < ${NOW}),
      'responsible_id', ${r.responsibleId}, 'responsible', ${staff(r.responsibleId, responsible.name)},
      'performer_id', ${r.performerId}, 'performer', ${staff(r.performerId, performer.name)},
      'media_ids', coalesce((${mediaIds}), '[]'::json), 'done_at', ${isoSql(r.doneAt)},
      'created_at', ${isoSql(r.createdAt)}, 'updated_at', ${isoSql(r.updatedAt)})`,
    sql`join ${r} on ${r.id} = ${LIST_PAGE}.id ${houseJoins(r.houseId)}
      left join ${complexes} on ${complexes.id} = ${houses.complexId}
      left join ${serviceRequestTypes} on ${serviceRequestTypes.id} = ${r.typeId}
      left join ${realty} on ${realty.id} = ${r.realtyId}
      left join ${members} on ${members.id} = ${r.memberId}
      left join ${users} "responsible" on ${responsible.id} = ${r.responsibleId}
      left join ${users} "performer" on ${performer.id} = ${r.performerId}`,
  );
}
