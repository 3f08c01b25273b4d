/**
 * Service requests: their types and who handles them, numbering, history, files, chats, chat
 * links and notifications.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { CHAT_TYPES, NOTIFICATION_KINDS, REQUEST_PRIORITIES, REQUEST_STAGES } from '../../../contract/serviceRequests.ts';
import { ukrainianSortKey } from '../../lib/sortKey.ts';
import { timestamps } from './columns.ts';
import { organizations, staffRoles, users } from './organizations-users.ts';
import { houses, realty } from './complexes-houses.ts';
import { members } from './members.ts';
import { media } from './community.ts';

/** Kinds of service request («Сантехніка», «Ліфт», …) and who handles them. */
export const serviceRequestTypes = pgTable(
  'service_request_types',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Hours a new request of the type has until its deadline; null: the product default (72). */
    deadlineHours: integer('deadline_hours'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('service_request_types_org_name_uq').on(t.organizationId, sql`lower(${t.name})`),
    index('service_request_types_org_name_sort_idx').on(t.organizationId, ukrainianSortKey(sql`${t.name}`)),
  ],
);

/** Staff roles that handle a request type. */
export const serviceRequestTypeRoles = pgTable(
  'service_request_type_roles',
  {
    typeId: integer('type_id')
      .notNull()
      .references(() => serviceRequestTypes.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => staffRoles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.typeId, t.roleId] }), index('service_request_type_roles_role_idx').on(t.roleId)],
);

/** Staff members a new request of the type is assigned to by default. */
export const serviceRequestTypeStaff = pgTable(
  'service_request_type_staff',
  {
    typeId: integer('type_id')
      .notNull()
      .references(() => serviceRequestTypes.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.typeId, t.userId] }), index('service_request_type_staff_user_idx').on(t.userId)],
);

/** The last request number issued per organization; bumped in the creating transaction. */
export const serviceRequestCounters = pgTable('service_request_counters', {
  organizationId: integer('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  lastNumber: integer('last_number').notNull().default(0),
});

/**
 * A resident's service request. `search` is what the list's search box matches (pg_trgm): the
 * number, text, resident's name and the house address, lower-cased, written on every save.
 */
export const serviceRequests = pgTable(
  'service_requests',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    typeId: integer('type_id').references(() => serviceRequestTypes.id, { onDelete: 'set null' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    realtyId: integer('realty_id').references(() => realty.id, { onDelete: 'set null' }),
    memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    stage: text('stage', { enum: REQUEST_STAGES }).notNull().default('new'),
    priority: text('priority', { enum: REQUEST_PRIORITIES }).notNull().default('normal'),
    deadline: timestamp('deadline', { withTimezone: true }),
    responsibleId: integer('responsible_id').references(() => users.id, { onDelete: 'set null' }),
    performerId: integer('performer_id').references(() => users.id, { onDelete: 'set null' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** When the request last entered `done`; null while open. */
    doneAt: timestamp('done_at', { withTimezone: true }),
    search: text('search').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('service_requests_org_number_uq').on(t.organizationId, t.number),
    index('service_requests_org_created_idx').on(t.organizationId, t.createdAt, t.id),
    index('service_requests_org_stage_created_idx').on(t.organizationId, t.stage, t.createdAt, t.id),
    index('service_requests_org_deadline_idx').on(t.organizationId, t.deadline, t.id),
    index('service_requests_org_deadline_desc_idx').on(t.organizationId, t.deadline.desc().nullsLast(), t.id.desc().nullsFirst()),
    // sort=stage: the stages in workflow order (stageOrder in the routes), newest first within each.
    index('service_requests_org_stage_order_asc_idx').on(
      t.organizationId,
      sql`(CASE ${t.stage} WHEN 'new' THEN 0 WHEN 'underReview' THEN 1 WHEN 'executor' THEN 2 ELSE 3 END) asc`,
      t.createdAt.desc().nullsFirst(),
      t.id.asc(),
    ),
    index('service_requests_org_stage_order_desc_idx').on(
      t.organizationId,
      sql`(CASE ${t.stage} WHEN 'new' THEN 0 WHEN 'underReview' THEN 1 WHEN 'executor' THEN 2 ELSE 3 END) desc`,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('service_requests_house_created_idx').on(t.houseId, t.createdAt, t.id),
    // stage + complex or addresses (the header selection): a few hundred rows per house, found
    // and counted from the index, then sorted.
    index('service_requests_house_stage_created_idx').on(t.houseId, t.stage, t.createdAt, t.id),
    // type + complex or addresses: each house's newest of the type straight from the index.
    index('service_requests_house_type_created_idx').on(t.houseId, t.typeId, t.createdAt, t.id),
    // overdue + complex or addresses: the open requests' deadlines per house, counted on the index
    // alone (migration 0026 adds organization_id as an INCLUDE column). The list writes 'done'
    // into its text, so that a kept plan matches this predicate.
    index('service_requests_house_open_deadline_idx')
      .on(t.houseId, t.deadline)
      .where(sql`${t.stage} <> 'done'`),
    index('service_requests_responsible_idx').on(t.responsibleId, t.createdAt),
    index('service_requests_performer_idx').on(t.performerId, t.createdAt),
    index('service_requests_type_idx').on(t.typeId),
    index('service_requests_member_idx').on(t.memberId),
    index('service_requests_realty_idx').on(t.realtyId),
    index('service_requests_search_trgm_idx').using('gin', sql`${t.search} gin_trgm_ops`),
  ],
);

/** What happened to a request: stage changes (from → to with a comment) and assignments. */
export const serviceRequestHistory = pgTable(
  'service_request_history',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => serviceRequests.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['stage', 'responsible', 'performer'] }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who did it, as shown then (a performer acting through a chat link is no signed-in user). */
    actorName: text('actor_name').notNull(),
    fromStage: text('from_stage', { enum: REQUEST_STAGES }),
    toStage: text('to_stage', { enum: REQUEST_STAGES }),
    comment: text('comment').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('service_request_history_request_idx').on(t.requestId, t.createdAt, t.id)],
);

/** Photos and PDF files attached to the request itself (its gallery). */
export const serviceRequestMedia = pgTable(
  'service_request_media',
  {
    requestId: integer('request_id')
      .notNull()
      .references(() => serviceRequests.id, { onDelete: 'cascade' }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.mediaId] }), index('service_request_media_media_idx').on(t.mediaId)],
);

/**
 * Chat messages of a request: `staff_chat` among staff, `member_chat` with the resident. The
 * author is a staff user (also when writing through a chat link) or the resident.
 */
export const serviceRequestComments = pgTable(
  'service_request_comments',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => serviceRequests.id, { onDelete: 'cascade' }),
    chatType: text('chat_type', { enum: CHAT_TYPES }).notNull(),
    authorUserId: integer('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    authorMemberId: integer('author_member_id').references(() => members.id, { onDelete: 'set null' }),
    /** The author's name as shown then; kept when the account is gone. */
    authorName: text('author_name').notNull(),
    /** Written through a staff chat link rather than a signed-in session. */
    viaLink: boolean('via_link').notNull().default(false),
    message: text('message').notNull(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_request_comments_request_idx').on(t.requestId, t.chatType, t.createdAt, t.id),
    index('service_request_comments_author_idx').on(t.authorUserId),
  ],
);

export const serviceRequestCommentMedia = pgTable(
  'service_request_comment_media',
  {
    commentId: integer('comment_id')
      .notNull()
      .references(() => serviceRequestComments.id, { onDelete: 'cascade' }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.mediaId] }), index('service_request_comment_media_media_idx').on(t.mediaId)],
);

/**
 * Links to one request's staff chat for a performer who does not sign in. Only the SHA-256 of
 * the token is kept; a link expires and can be revoked.
 */
export const serviceRequestChatLinks = pgTable(
  'service_request_chat_links',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => serviceRequests.id, { onDelete: 'cascade' }),
    /** The performer the link speaks for. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('service_request_chat_links_token_uq').on(t.tokenHash), index('service_request_chat_links_request_idx').on(t.requestId)],
);

/** The header's notifications: one row per recipient. */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    requestId: integer('request_id').references(() => serviceRequests.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('notifications_user_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    index('notifications_request_idx').on(t.requestId),
  ],
);
