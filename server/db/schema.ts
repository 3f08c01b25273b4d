import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Rules } from '../../contract/permissions.ts';
import { MESSAGE_KIND_KEYS, OUTBOX_STATUSES } from '../../contract/outbox.ts';
import { REALTY_TYPES } from '../../contract/realty.ts';
import { CHAT_TYPES, NOTIFICATION_KINDS, REQUEST_PRIORITIES, REQUEST_STAGES } from '../../contract/serviceRequests.ts';
import { ukrainianSortKey } from '../lib/sortKey.ts';
import { leadingDigits } from '../lib/order.ts';

/** An index key on an expression, in one direction with empty values last (as lists order). */
const keyLast = (expression: ReturnType<typeof sql>, direction: 'asc' | 'desc') => sql`(${expression}) ${sql.raw(direction)} nulls last`;

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** The management company; every row of the product belongs to one. */
export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  ...timestamps,
});

export const staffRoles = pgTable(
  'staff_roles',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The department (staff departure) the role belongs to, if any. */
    departureId: integer('departure_id').references((): AnyPgColumn => staffDepartures.id, { onDelete: 'restrict' }),
    permissions: jsonb('permissions').$type<Rules>().notNull().default({}),
    ...timestamps,
  },
  (t) => [uniqueIndex('staff_roles_org_name_uq').on(t.organizationId, t.name), index('staff_roles_departure_idx').on(t.departureId)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    passwordHash: text('password_hash').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    roleId: integer('role_id').references(() => staffRoles.id, { onDelete: 'set null' }),
    /** Set when the user must choose a new password before doing anything else. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    tutorialCompleted: boolean('tutorial_completed').notNull().default(false),
    twoFactor: text('two_factor', { enum: ['phone', 'email'] }),
    /**
     * When the user last chose their password. Null while the account has only the unknown random
     * password it was created with, i.e. its invitation has not been accepted yet.
     */
    passwordSetAt: timestamp('password_set_at', { withTimezone: true }).defaultNow(),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_uq').on(t.email), index('users_org_name_sort_idx').on(t.organizationId, ukrainianSortKey(sql`${t.name}`)), index('users_role_idx').on(t.roleId)],
);

export const complexes = pgTable(
  'complexes',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    city: text('city').notNull(),
    address: text('address').notNull().default(''),
    description: text('description').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('complexes_org_name_uq').on(t.organizationId, sql`lower(${t.name})`),
    index('complexes_org_created_idx').on(t.organizationId, t.createdAt),
    index('complexes_org_city_idx').on(t.organizationId, t.city),
    index('complexes_org_name_sort_idx').on(t.organizationId, ukrainianSortKey(sql`${t.name}`)),
  ],
);

/** Complexes a staff user works in; admins see every complex of their organization. */
export const userComplexes = pgTable(
  'user_complexes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    complexId: integer('complex_id')
      .notNull()
      .references(() => complexes.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.complexId] }), index('user_complexes_complex_idx').on(t.complexId)],
);

export const authTokens = pgTable(
  'auth_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('auth_tokens_hash_uq').on(t.tokenHash), index('auth_tokens_user_idx').on(t.userId), index('auth_tokens_expires_idx').on(t.expiresAt)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /**
     * A hash of the account's password hash and e-mail when the link was issued
     * (server/lib/sessions.ts `accountStamp`): once either changes, the link no longer works.
     */
    accountStamp: text('account_stamp'),
  },
  (t) => [uniqueIndex('password_resets_hash_uq').on(t.tokenHash), index('password_resets_user_idx').on(t.userId)],
);

/**
 * Failed password attempts (sign-in and the current-password checks of the settings), kept in
 * the database so that throttling holds across processes. Keys: see server/lib/throttle.ts.
 */
export const authAttempts = pgTable(
  'auth_attempts',
  {
    id: serial('id').primaryKey(),
    /** 'pair:<e-mail> <client>', 'account:<e-mail>', 'ip:<network>' or 'settings:<user id>' */
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_attempts_key_at_idx').on(t.key, t.at), index('auth_attempts_at_idx').on(t.at)],
);

/**
 * Clients that signed in to an account successfully: the per-account sign-in limit does not
 * apply to them (docs/decisions.md, "Throttling"), so an attacker cannot lock the owner out.
 */
export const signInClients = pgTable(
  'sign_in_clients',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'device:<SHA-256 of the browser's device cookie>' or 'ip:<network>' (an IPv4 address or an IPv6 /64) */
    client: text('client').notNull(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.client] }), index('sign_in_clients_client_idx').on(t.client)],
);

/**
 * Every e-mail and SMS the product sends, with its delivery state. Subject and body are kept
 * only in the development outbox (no transport, not production); a message that goes through
 * a transport carries its text in the delivery job alone, which is erased once it is done.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    kind: text('kind', { enum: MESSAGE_KIND_KEYS }).notNull().default('message'),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull().default(''),
    body: text('body'),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('queued'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt)],
);

/**
 * Requests counted against a limit (`server/lib/rateLimit.ts`): one row per request and key,
 * e.g. `voting-code:ip:<address>`; rows older than a day are pruned as new ones come in.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rate_limit_hits_key_at_idx').on(t.key, t.at), index('rate_limit_hits_at_idx').on(t.at)],
);

/** Settlements of Ukraine (KATOTTG), the reference that city look-up searches. */
export const settlements = pgTable(
  'settlements',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** М місто, Х селище, С село, К місто зі спеціальним статусом */
    category: text('category').notNull(),
    region: text('region').notNull(),
    district: text('district'),
    community: text('community'),
    /** lower-cased, apostrophes folded to ’ — what searches compare against */
    searchName: text('search_name').notNull(),
  },
  (t) => [
    uniqueIndex('settlements_code_uq').on(t.code),
    index('settlements_search_prefix_idx').on(sql`${t.searchName} text_pattern_ops`),
    index('settlements_search_trgm_idx').using('gin', sql`${t.searchName} gin_trgm_ops`),
  ],
);

/**
 * Streets: the shared reference for some cities (no organization: read-only to every tenant)
 * plus each organization's own streets, added or renamed by its admins, which only it sees.
 */
export const streets = pgTable(
  'streets',
  {
    id: serial('id').primaryKey(),
    settlementId: integer('settlement_id')
      .notNull()
      .references(() => settlements.id, { onDelete: 'cascade' }),
    /** The organization whose street this is; null for the shared reference. */
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type'),
    district: text('district'),
    searchName: text('search_name').notNull(),
    /** 'reference' rows come from the data file; 'admin' rows were added or renamed by a user. */
    source: text('source', { enum: ['reference', 'admin'] }).notNull().default('reference'),
    /** The reference name a rename replaced. */
    referenceName: text('reference_name'),
    /**
     * The reference street an organization's rename stands for: that organization's look-ups show
     * this street instead, and its houses moved here. Other organizations keep the reference one.
     */
    replacesStreetId: integer('replaces_street_id').references((): AnyPgColumn => streets.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('streets_settlement_search_idx').on(t.settlementId, sql`${t.searchName} text_pattern_ops`),
    index('streets_search_trgm_idx').using('gin', sql`${t.searchName} gin_trgm_ops`),
    index('streets_org_settlement_idx').on(t.organizationId, t.settlementId),
    // One replacement of a reference street per organization.
    uniqueIndex('streets_org_replaces_uq').on(t.organizationId, t.replacesStreetId).where(sql`${t.replacesStreetId} is not null`),
  ],
);

export const houseTypes = pgTable(
  'house_types',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('house_types_org_name_uq').on(t.organizationId, sql`lower(${t.name})`)],
);

export const houses = pgTable(
  'houses',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** A house belongs to at most one complex; unlinking keeps the house. */
    complexId: integer('complex_id').references(() => complexes.id, { onDelete: 'set null' }),
    settlementId: integer('settlement_id')
      .notNull()
      .references(() => settlements.id),
    streetId: integer('street_id')
      .notNull()
      .references(() => streets.id),
    number: text('number').notNull(),
    /** Building letter or section, e.g. «А» or «секція 2». */
    building: text('building').notNull().default(''),
    houseTypeId: integer('house_type_id').references(() => houseTypes.id),
    floors: integer('floors'),
    entrances: integer('entrances'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('houses_org_address_uq').on(t.organizationId, t.streetId, sql`lower(${t.number})`, sql`lower(${t.building})`),
    index('houses_complex_idx').on(t.complexId),
    index('houses_org_settlement_idx').on(t.organizationId, t.settlementId),
    index('houses_street_idx').on(t.streetId),
    index('houses_type_idx').on(t.houseTypeId),
  ],
);

export const realty = pgTable(
  'realty',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    type: text('type', { enum: REALTY_TYPES }).notNull(),
    number: text('number').notNull(),
    /** m², two decimals */
    area: numeric('area', { precision: 10, scale: 2 }),
    floor: integer('floor'),
    entrance: integer('entrance'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('realty_house_type_number_uq').on(t.houseId, t.type, sql`lower(${t.number})`),
    index('realty_org_type_idx').on(t.organizationId, t.type, t.id),
    index('realty_house_type_idx').on(t.houseId, t.type, t.id),
    // Members' search finds people by the number of their unit.
    index('realty_org_number_idx').on(t.organizationId, sql`lower(${t.number})`),
    // The list's sorts: empty values last in both directions, ties broken by id upwards.
    index('realty_org_number_asc_idx').on(t.organizationId, keyLast(leadingDigits(sql`${t.number}`), 'asc'), keyLast(ukrainianSortKey(sql`${t.number}`), 'asc'), t.id),
    index('realty_org_number_desc_idx').on(t.organizationId, keyLast(leadingDigits(sql`${t.number}`), 'desc'), keyLast(ukrainianSortKey(sql`${t.number}`), 'desc'), t.id),
    index('realty_org_house_number_asc_idx').on(t.organizationId, t.houseId, keyLast(leadingDigits(sql`${t.number}`), 'asc'), keyLast(ukrainianSortKey(sql`${t.number}`), 'asc'), t.id),
    index('realty_org_house_number_desc_idx').on(t.organizationId, t.houseId.desc().nullsFirst(), keyLast(leadingDigits(sql`${t.number}`), 'desc'), keyLast(ukrainianSortKey(sql`${t.number}`), 'desc'), t.id),
    index('realty_org_area_asc_idx').on(t.organizationId, t.area.asc().nullsLast(), t.id),
    index('realty_org_area_desc_idx').on(t.organizationId, t.area.desc().nullsLast(), t.id),
    index('realty_org_floor_asc_idx').on(t.organizationId, t.floor.asc().nullsLast(), t.id),
    index('realty_org_floor_desc_idx').on(t.organizationId, t.floor.desc().nullsLast(), t.id),
    // The list's search: any part of the unit number (ILIKE).
    index('realty_number_trgm_idx').using('gin', sql`${t.number} gin_trgm_ops`),
  ],
);

// ── members ──

/**
 * People living in or owning units. Phone (E.164) and e-mail (lower-cased) are unique per
 * organization. `search` is what the list's search box matches (pg_trgm): name, e-mail and
 * the phone's digits, lower-cased, apostrophes folded to ’ as in searchForm.
 */
export const members = pgTable(
  'members',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    phone: text('phone'),
    email: text('email'),
    status: text('status', { enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    note: text('note').notNull().default(''),
    search: text('search')
      .notNull()
      .generatedAlwaysAs(
        sql`translate(lower(name || ' ' || coalesce(email, '') || ' ' || coalesce(substr(phone, 2), '')), '''ʼ\`‘', '’’’’')`,
      ),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('members_org_phone_uq').on(t.organizationId, t.phone).where(sql`${t.phone} is not null`),
    uniqueIndex('members_org_email_uq').on(t.organizationId, t.email).where(sql`${t.email} is not null`),
    index('members_org_name_sort_idx').on(t.organizationId, ukrainianSortKey(sql`${t.name}`), t.id),
    // Sorted by name descending: the list puts empty keys last in both directions.
    index('members_org_name_desc_idx').on(t.organizationId, keyLast(ukrainianSortKey(sql`${t.name}`), 'desc'), t.id.desc().nullsFirst()),
    index('members_org_status_name_idx').on(t.organizationId, t.status, ukrainianSortKey(sql`${t.name}`), t.id),
    index('members_org_created_idx').on(t.organizationId, t.createdAt, t.id),
    index('members_search_trgm_idx').using('gin', sql`${t.search} gin_trgm_ops`),
  ],
);

/**
 * Roles a member can have in a unit (owner, co-owner, tenant, family member), per organization
 * so that role_id is a real id. `holdsShare` marks the roles that own a share of the unit.
 */
export const residentRoles = pgTable(
  'resident_roles',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    holdsShare: boolean('holds_share').notNull().default(false),
    position: integer('position').notNull().default(0),
  },
  (t) => [uniqueIndex('resident_roles_org_code_uq').on(t.organizationId, t.code)],
);

/**
 * A member's link to a unit with a role and, for owners, an ownership share kept as an exact
 * fraction (numerator/denominator) so that shares like 1/3 add up exactly when votes are counted.
 */
export const residents = pgTable(
  'residents',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    realtyId: integer('realty_id')
      .notNull()
      .references(() => realty.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => residentRoles.id),
    shareNumerator: integer('share_numerator'),
    shareDenominator: integer('share_denominator'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('residents_member_realty_uq').on(t.memberId, t.realtyId),
    index('residents_realty_idx').on(t.realtyId, t.memberId),
    index('residents_role_idx').on(t.roleId),
  ],
);

/** A member's vehicle; the plate is kept folded to Latin capitals without spaces (see plate.ts). */
export const vehicles = pgTable(
  'vehicles',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    /** A parking place the vehicle uses, optional. */
    realtyId: integer('realty_id').references(() => realty.id, { onDelete: 'set null' }),
    plate: text('plate').notNull(),
    brand: text('brand').notNull().default(''),
    model: text('model').notNull().default(''),
    color: text('color').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('vehicles_org_plate_uq').on(t.organizationId, t.plate),
    index('vehicles_member_idx').on(t.memberId),
    index('vehicles_realty_idx').on(t.realtyId),
  ],
);

/** A unit's monthly charge for one service; money in kopiyky, never negative. */
export const bills = pgTable(
  'bills',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    realtyId: integer('realty_id')
      .notNull()
      .references(() => realty.id, { onDelete: 'cascade' }),
    /** First day of the month the charge is for. */
    period: date('period').notNull(),
    service: text('service').notNull(),
    amount: integer('amount').notNull(),
    paid: integer('paid').notNull().default(0),
    status: text('status', { enum: ['unpaid', 'partial', 'paid'] })
      .notNull()
      .default('unpaid'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('bills_realty_period_service_uq').on(t.realtyId, t.period, t.service),
    check('bills_amount_nonnegative', sql`${t.amount} >= 0`),
    check('bills_paid_nonnegative', sql`${t.paid} >= 0`),
  ],
);

// ── personal settings and two-factor sign-in ──

export const CODE_PURPOSES = ['phone', 'email', 'two_factor_phone', 'two_factor_email', 'login'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/**
 * One-time codes sent to confirm a new phone or e-mail, a change of the second factor, or a
 * sign-in with two factors. Stored hashed with a per-code salt, valid 10 minutes, single use,
 * void after 5 wrong attempts; a new code for the same purpose replaces the old one.
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: CODE_PURPOSES }).notNull(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    /** the phone or e-mail the code went to (for a change: the new one) */
    target: text('target').notNull(),
    salt: text('salt').notNull(),
    codeHash: text('code_hash').notNull(),
    /** sign-in only: the hash of the challenge the first step answered with */
    challengeHash: text('challenge_hash'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** set when a newer code replaced this one, or when it ran out of attempts */
    voidedAt: timestamp('voided_at', { withTimezone: true }),
  },
  (t) => [
    index('verification_codes_user_purpose_idx').on(t.userId, t.purpose, t.createdAt),
    uniqueIndex('verification_codes_challenge_uq').on(t.challengeHash),
  ],
);

// ── staff ──

/** Departments of the management company («Диспетчерська служба», «Технічна служба», …). */
export const staffDepartures = pgTable(
  'staff_departures',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('staff_departures_org_name_uq').on(t.organizationId, sql`lower(${t.name})`)],
);

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

// ── community content: files, news, announcements, events, advertisements, documents, contacts, discounts, cameras ──

/**
 * Uploaded files. The bytes live under the uploads folder with a random name (`storedName`);
 * only authorised routes serve them, each through the row that holds the file (an article's
 * cover, a request's photo, ...), and URLs name a file by its random `key`, never by its id.
 * `image` files back covers and pictures, `document` files back documents.
 */
export const media = pgTable(
  'media',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['image', 'document'] }).notNull(),
    storedName: text('stored_name').notNull(),
    originalName: text('original_name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    /** 128 random bits (hex): how URLs name the file, so that no one can count through files. */
    key: text('key')
      .notNull()
      .default(sql`replace(gen_random_uuid()::text, '-', '')`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('media_stored_name_uq').on(t.storedName), uniqueIndex('media_key_uq').on(t.key), index('media_org_idx').on(t.organizationId)],
);

/**
 * News articles. `status` is what the author chose (draft or published); a published article
 * whose `publishAt` is still ahead reads as "scheduled" until then (derived when read).
 */
export const articles = pgTable(
  'articles',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** Sanitised HTML. */
    body: text('body').notNull(),
    imageId: integer('image_id').references(() => media.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['draft', 'published'] }).notNull().default('draft'),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    isEmergency: boolean('is_emergency').notNull().default(false),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    // The list's sorts (empty values last in both directions, id in the same direction) and search.
    index('articles_org_publish_asc_idx').on(t.organizationId, t.publishAt.asc().nullsLast(), t.id),
    index('articles_org_publish_desc_idx').on(t.organizationId, t.publishAt.desc().nullsLast(), t.id.desc().nullsFirst()),
    index('articles_org_created_id_idx').on(t.organizationId, t.createdAt, t.id),
    index('articles_org_title_asc_idx').on(t.organizationId, keyLast(ukrainianSortKey(sql`${t.title}`), 'asc'), t.id),
    index('articles_org_title_desc_idx').on(t.organizationId, keyLast(ukrainianSortKey(sql`${t.title}`), 'desc'), t.id.desc().nullsFirst()),
    index('articles_title_trgm_idx').using('gin', sql`${t.title} gin_trgm_ops`),
    // Filters whose totals are counted (drafts, emergencies are a few percent of the news).
    index('articles_org_status_publish_idx').on(t.organizationId, t.status, t.publishAt),
    index('articles_org_emergency_idx').on(t.organizationId, t.isEmergency),
    // Which article holds a file (serving and attaching files look it up).
    index('articles_image_idx').on(t.imageId),
  ],
);

/** Audience of an article: the complexes, and optionally single houses of them. */
export const articleComplexes = pgTable(
  'article_complexes',
  {
    articleId: integer('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    complexId: integer('complex_id')
      .notNull()
      .references(() => complexes.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.complexId] }), index('article_complexes_complex_idx').on(t.complexId)],
);

export const articleHouses = pgTable(
  'article_houses',
  {
    articleId: integer('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.houseId] }), index('article_houses_house_idx').on(t.houseId)],
);

/** Announcements (notices to residents) with a validity period. */
export const announcements = pgTable(
  'announcements',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('announcements_org_valid_idx').on(t.organizationId, t.validFrom)],
);

export const announcementComplexes = pgTable(
  'announcement_complexes',
  {
    announcementId: integer('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    complexId: integer('complex_id')
      .notNull()
      .references(() => complexes.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.announcementId, t.complexId] }), index('announcement_complexes_complex_idx').on(t.complexId)],
);

export const announcementHouses = pgTable(
  'announcement_houses',
  {
    announcementId: integer('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.announcementId, t.houseId] }), index('announcement_houses_house_idx').on(t.houseId)],
);

/** Events (the poster of community events): when, where, for whom. */
export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    place: text('place').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    imageId: integer('image_id').references(() => media.id, { onDelete: 'set null' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('events_org_starts_idx').on(t.organizationId, t.startsAt), index('events_image_idx').on(t.imageId)],
);

export const eventComplexes = pgTable(
  'event_complexes',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    complexId: integer('complex_id')
      .notNull()
      .references(() => complexes.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.complexId] }), index('event_complexes_complex_idx').on(t.complexId)],
);

export const eventHouses = pgTable(
  'event_houses',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.houseId] }), index('event_houses_house_idx').on(t.houseId)],
);

/** Residents' advertisements on a house's board; an admin publishes or hides them. */
export const advertisements = pgTable(
  'advertisements',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    imageId: integer('image_id').references(() => media.id, { onDelete: 'set null' }),
    published: boolean('published').notNull().default(false),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('advertisements_org_created_idx').on(t.organizationId, t.createdAt), index('advertisements_house_idx').on(t.houseId), index('advertisements_image_idx').on(t.imageId)],
);

/** Documents for residents: a file and whom it concerns (complexes, houses, apartments). */
export const documents = pgTable(
  'documents',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => media.id),
    /** Shown to the residents in scope (otherwise kept for the staff only). */
    isPublic: boolean('is_public').notNull().default(false),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('documents_org_created_idx').on(t.organizationId, t.createdAt), index('documents_file_idx').on(t.fileId)],
);

export const documentComplexes = pgTable(
  'document_complexes',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    complexId: integer('complex_id')
      .notNull()
      .references(() => complexes.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.complexId] }), index('document_complexes_complex_idx').on(t.complexId)],
);

export const documentHouses = pgTable(
  'document_houses',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.houseId] }), index('document_houses_house_idx').on(t.houseId)],
);

export const documentApartments = pgTable(
  'document_apartments',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    realtyId: integer('realty_id')
      .notNull()
      .references(() => realty.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.realtyId] }), index('document_apartments_realty_idx').on(t.realtyId)],
);

/** Contact groups of the organization (e.g. «Аварійні служби»), shared by every complex. */
export const contactGroups = pgTable(
  'contact_groups',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('contact_groups_org_name_uq').on(t.organizationId, sql`lower(${t.name})`)],
);

/** A block of contacts on a complex's page (management office, emergency services, ...). */
export const contactSections = pgTable(
  'contact_sections',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    complexId: integer('complex_id')
      .notNull()
      .references(() => complexes.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    type: text('type', { enum: ['management', 'emergency', 'services', 'other'] }).notNull(),
    ...timestamps,
  },
  (t) => [index('contact_sections_complex_idx').on(t.complexId)],
);

/** A contact: a person or a service with a normalised phone, in a section and optionally a group. */
export const contacts = pgTable(
  'contacts',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    sectionId: integer('section_id')
      .notNull()
      .references(() => contactSections.id, { onDelete: 'restrict' }),
    groupId: integer('group_id').references(() => contactGroups.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** E.164, e.g. +380441234567. */
    phone: text('phone'),
    email: text('email'),
    link: text('link'),
    description: text('description').notNull().default(''),
    ...timestamps,
  },
  (t) => [index('contacts_section_idx').on(t.sectionId), index('contacts_group_idx').on(t.groupId), index('contacts_org_name_idx').on(t.organizationId, t.name)],
);

/** Partner discounts for residents (the legacy area's «Disconts»), shown to chosen complexes. */
export const discounts = pgTable(
  'discounts',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    partner: text('partner').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** Percent off, when the offer is one. */
    percent: integer('percent'),
    promoCode: text('promo_code'),
    address: text('address').notNull().default(''),
    phone: text('phone'),
    link: text('link'),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('discounts_org_created_idx').on(t.organizationId, t.createdAt)],
);

export const discountComplexes = pgTable(
  'discount_complexes',
  {
    discountId: integer('discount_id')
      .notNull()
      .references(() => discounts.id, { onDelete: 'cascade' }),
    complexId: integer('complex_id')
      .notNull()
      .references(() => complexes.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.discountId, t.complexId] }), index('discount_complexes_complex_idx').on(t.complexId)],
);

export const discountHouses = pgTable(
  'discount_houses',
  {
    discountId: integer('discount_id')
      .notNull()
      .references(() => discounts.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.discountId, t.houseId] }), index('discount_houses_house_idx').on(t.houseId)],
);

/** A house's security camera: where it looks, and a live stream and/or snapshot address. */
export const cameras = pgTable(
  'cameras',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    place: text('place').notNull().default(''),
    streamUrl: text('stream_url'),
    snapshotUrl: text('snapshot_url'),
    ...timestamps,
  },
  (t) => [index('cameras_house_idx').on(t.houseId), index('cameras_org_idx').on(t.organizationId)],
);

// ── support conversation ──

/** The signed-in user's conversation with the service's support (POST /chat); sent through the delivery module. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('support_messages_user_idx').on(t.userId, t.createdAt)],
);

// ── general meetings of co-owners (voting) ──

/**
 * A general meeting of the co-owners of one house (server/modules/voting, VOTING-RULES.md):
 * the regime decides the law that counts the votes, the agenda lives in `voting_questions`,
 * the co-owners and their areas are a snapshot (`voting_units`, `voting_participants`,
 * `voting_ownerships`) taken from the register when the meeting is created.
 */
export const votings = pgTable(
  'votings',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    regime: text('regime', { enum: ['osbb', 'no_osbb'] }).notNull(),
    initiator: text('initiator').notNull(),
    meetingDate: date('meeting_date').notNull(),
    /** «18:30» */
    meetingTime: text('meeting_time').notNull(),
    place: text('place').notNull().default(''),
    /** Video tools and how to connect, empty when there is no video participation. */
    videoTools: text('video_tools').notNull().default(''),
    chair: text('chair').notNull().default(''),
    /** The ОСББ statute's voting rule, word for word, for statute and "2/3" thresholds. */
    statuteText: text('statute_text').notNull().default(''),
    /** Count only paper ballots and electronic ballots signed with a qualified signature. */
    signedOnly: boolean('signed_only').notNull().default(false),
    /** The day the (legal) notice reached the co-owners, as the initiator reports it. */
    noticeDate: date('notice_date'),
    /** The day the results were delivered to every co-owner. */
    resultsNoticeDate: date('results_notice_date'),
    /** Random token of the public voting link (GET /voting/{id}/deeplink). */
    linkToken: text('link_token').notNull(),
    /** The uploaded signed scan of the protocol; replaces the generated one. */
    protocolMediaId: integer('protocol_media_id').references(() => media.id, { onDelete: 'set null' }),
    lastNotifiedAt: timestamp('last_notified_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('votings_org_date_idx').on(t.organizationId, t.meetingDate),
    index('votings_house_idx').on(t.houseId),
    uniqueIndex('votings_link_token_uq').on(t.linkToken),
    index('votings_protocol_media_idx').on(t.protocolMediaId),
  ],
);

/** An agenda question worded as a resolution, with its threshold (tally.ts `Threshold`). */
export const votingQuestions = pgTable(
  'voting_questions',
  {
    id: serial('id').primaryKey(),
    votingId: integer('voting_id')
      .notNull()
      .references(() => votings.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    threshold: text('threshold', { enum: ['majority', 'qualified', 'statute', 'two_thirds'] }).notNull(),
    /** `statute` only: more than this percent (50–75, at most 67 for capped questions). */
    thresholdPercent: numeric('threshold_percent', { precision: 5, scale: 2 }),
    /** The question is one of those the ОСББ law caps at 67 % (bodies, form of management, contributions, budget). */
    capped: boolean('capped').notNull().default(false),
  },
  (t) => [index('voting_questions_voting_idx').on(t.votingId, t.position)],
);

/** Every unit of the house at the snapshot: all of them make up the total area. */
export const votingUnits = pgTable(
  'voting_units',
  {
    id: serial('id').primaryKey(),
    votingId: integer('voting_id')
      .notNull()
      .references(() => votings.id, { onDelete: 'cascade' }),
    realtyId: integer('realty_id').references(() => realty.id, { onDelete: 'set null' }),
    type: text('type', { enum: REALTY_TYPES }).notNull(),
    number: text('number').notNull(),
    /** hundredths of m²; null when the register has no area for the unit */
    areaCenti: integer('area_centi'),
  },
  (t) => [index('voting_units_voting_idx').on(t.votingId)],
);

/** A co-owner at the snapshot (one row per person), with what the ballot and protocol need. */
export const votingParticipants = pgTable(
  'voting_participants',
  {
    id: serial('id').primaryKey(),
    votingId: integer('voting_id')
      .notNull()
      .references(() => votings.id, { onDelete: 'cascade' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Ownership document or State Register entry (ballot field 5). */
    ownershipDocument: text('ownership_document').notNull().default(''),
  },
  (t) => [uniqueIndex('voting_participants_voting_member_uq').on(t.votingId, t.memberId)],
);

/** A participant's ownership of a snapshot unit; a null share is a joint owner in equal parts. */
export const votingOwnerships = pgTable(
  'voting_ownerships',
  {
    id: serial('id').primaryKey(),
    votingId: integer('voting_id')
      .notNull()
      .references(() => votings.id, { onDelete: 'cascade' }),
    participantId: integer('participant_id')
      .notNull()
      .references(() => votingParticipants.id, { onDelete: 'cascade' }),
    unitId: integer('unit_id')
      .notNull()
      .references(() => votingUnits.id, { onDelete: 'cascade' }),
    shareNumerator: integer('share_numerator'),
    shareDenominator: integer('share_denominator'),
  },
  (t) => [index('voting_ownerships_voting_idx').on(t.votingId), index('voting_ownerships_participant_idx').on(t.participantId)],
);

/**
 * One ballot of one co-owner: a paper sheet (scan + answers recorded by staff) or an electronic
 * ballot cast through the public link after a one-time code (and, when a provider is plugged in,
 * signed with a qualified electronic signature).
 */
export const votingBallots = pgTable(
  'voting_ballots',
  {
    id: serial('id').primaryKey(),
    votingId: integer('voting_id')
      .notNull()
      .references(() => votings.id, { onDelete: 'cascade' }),
    participantId: integer('participant_id')
      .notNull()
      .references(() => votingParticipants.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['paper', 'electronic'] }).notNull(),
    /** The day of the vote (ballot field 1). */
    ballotDate: date('ballot_date').notNull(),
    /** electronic: how the co-owner was identified — a code by SMS or e-mail */
    identification: text('identification', { enum: ['sms_code', 'email_code'] }),
    /** electronic: where the code went, masked */
    identifiedTarget: text('identified_target'),
    /** signature provider id, when the ballot is signed */
    signatureProvider: text('signature_provider'),
    /** the signer as the provider reports them */
    signatureSigner: text('signature_signer'),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    /** SHA-256 of the ballot document that was signed (electronic) */
    documentHash: text('document_hash'),
    /** paper: the scan of the signed sheet */
    sheetMediaId: integer('sheet_media_id').references(() => media.id, { onDelete: 'set null' }),
    /** Representative's name and authority document (ballot field 6), empty when the owner voted. */
    representative: text('representative').notNull().default(''),
    representativeDocument: text('representative_document').notNull().default(''),
    recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('voting_ballots_voting_idx').on(t.votingId, t.participantId), index('voting_ballots_sheet_media_idx').on(t.sheetMediaId)],
);

/** "за" or "проти" of one ballot on one question; one per co-owner and question (the double-vote rule). */
export const votingAnswers = pgTable(
  'voting_answers',
  {
    id: serial('id').primaryKey(),
    ballotId: integer('ballot_id')
      .notNull()
      .references(() => votingBallots.id, { onDelete: 'cascade' }),
    votingId: integer('voting_id')
      .notNull()
      .references(() => votings.id, { onDelete: 'cascade' }),
    participantId: integer('participant_id')
      .notNull()
      .references(() => votingParticipants.id, { onDelete: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => votingQuestions.id, { onDelete: 'cascade' }),
    answer: text('answer', { enum: ['for', 'against'] }).notNull(),
  },
  (t) => [uniqueIndex('voting_answers_participant_question_uq').on(t.participantId, t.questionId), index('voting_answers_voting_idx').on(t.votingId)],
);

/**
 * One-time codes of the public voting page: co-owners are members, not users, so they have
 * codes of their own with the same rules as the staff's (server/lib/codes.ts CODE_RULES).
 */
export const votingCodes = pgTable(
  'voting_codes',
  {
    id: serial('id').primaryKey(),
    votingId: integer('voting_id')
      .notNull()
      .references(() => votings.id, { onDelete: 'cascade' }),
    participantId: integer('participant_id')
      .notNull()
      .references(() => votingParticipants.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    target: text('target').notNull(),
    salt: text('salt').notNull(),
    codeHash: text('code_hash').notNull(),
    challengeHash: text('challenge_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
  },
  (t) => [index('voting_codes_participant_idx').on(t.participantId, t.createdAt), uniqueIndex('voting_codes_challenge_uq').on(t.challengeHash)],
);

/** A co-owner's session on the public voting page after a correct code (token stored hashed). */
export const votingSessions = pgTable(
  'voting_sessions',
  {
    id: serial('id').primaryKey(),
    votingId: integer('voting_id')
      .notNull()
      .references(() => votings.id, { onDelete: 'cascade' }),
    participantId: integer('participant_id')
      .notNull()
      .references(() => votingParticipants.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    identification: text('identification', { enum: ['sms_code', 'email_code'] }).notNull(),
    identifiedTarget: text('identified_target').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('voting_sessions_token_uq').on(t.tokenHash)],
);

// ── service requests ──

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
    index('service_requests_org_stage_order_asc_idx').on(t.organizationId, sql`(CASE ${t.stage} WHEN 'new' THEN 0 WHEN 'underReview' THEN 1 WHEN 'executor' THEN 2 ELSE 3 END) asc`, t.createdAt.desc().nullsFirst(), t.id.asc()),
    index('service_requests_org_stage_order_desc_idx').on(t.organizationId, sql`(CASE ${t.stage} WHEN 'new' THEN 0 WHEN 'underReview' THEN 1 WHEN 'executor' THEN 2 ELSE 3 END) desc`, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('service_requests_house_created_idx').on(t.houseId, t.createdAt, t.id),
    // stage + complex or addresses (the header selection): a few hundred rows per house, found
    // and counted from the index, then sorted.
    index('service_requests_house_stage_created_idx').on(t.houseId, t.stage, t.createdAt, t.id),
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
  (t) => [index('service_request_comments_request_idx').on(t.requestId, t.chatType, t.createdAt, t.id), index('service_request_comments_author_idx').on(t.authorUserId)],
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
  (t) => [index('notifications_user_created_idx').on(t.userId, t.createdAt, t.id), index('notifications_user_unread_idx').on(t.userId).where(sql`${t.readAt} is null`), index('notifications_request_idx').on(t.requestId)],
);

/**
 * One-minute, single-use tickets for the live-updates stream: EventSource cannot send the
 * Authorization header, and the bearer token itself should not travel in a URL (logs, history).
 */
export const liveTickets = pgTable(
  'live_tickets',
  {
    id: serial('id').primaryKey(),
    tokenId: integer('token_id')
      .notNull()
      .references(() => authTokens.id, { onDelete: 'cascade' }),
    ticketHash: text('ticket_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('live_tickets_hash_uq').on(t.ticketHash), index('live_tickets_expires_idx').on(t.expiresAt)],
);

// ── surveys (interview) ──

/**
 * A survey of residents (server/modules/interview): whom it is for (`interview_complexes`,
 * `interview_houses`), its questions and options, and the answers staff record on a member's
 * behalf. The status (draft, active, finished) is derived from `published` and the dates.
 */
export const interviews = pgTable(
  'interviews',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    /** Answers are stored without a link to the member who gave them. */
    anonymous: boolean('anonymous').notNull().default(false),
    published: boolean('published').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('interviews_org_start_idx').on(t.organizationId, t.startAt)],
);

export const interviewComplexes = pgTable(
  'interview_complexes',
  {
    interviewId: integer('interview_id')
      .notNull()
      .references(() => interviews.id, { onDelete: 'cascade' }),
    complexId: integer('complex_id')
      .notNull()
      .references(() => complexes.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.interviewId, t.complexId] }), index('interview_complexes_complex_idx').on(t.complexId)],
);

export const interviewHouses = pgTable(
  'interview_houses',
  {
    interviewId: integer('interview_id')
      .notNull()
      .references(() => interviews.id, { onDelete: 'cascade' }),
    houseId: integer('house_id')
      .notNull()
      .references(() => houses.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.interviewId, t.houseId] }), index('interview_houses_house_idx').on(t.houseId)],
);

export const interviewQuestions = pgTable(
  'interview_questions',
  {
    id: serial('id').primaryKey(),
    interviewId: integer('interview_id')
      .notNull()
      .references(() => interviews.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    kind: text('kind', { enum: ['single', 'multiple', 'text', 'scale'] }).notNull(),
    /** scale questions: 5 or 10 */
    scaleMax: integer('scale_max'),
  },
  (t) => [index('interview_questions_interview_idx').on(t.interviewId, t.position)],
);

export const interviewOptions = pgTable(
  'interview_options',
  {
    id: serial('id').primaryKey(),
    questionId: integer('question_id')
      .notNull()
      .references(() => interviewQuestions.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
  },
  (t) => [index('interview_options_question_idx').on(t.questionId, t.position)],
);

/** That a member answered, how the answers came in and who recorded them: one per member and survey. */
export const interviewResponses = pgTable(
  'interview_responses',
  {
    id: serial('id').primaryKey(),
    interviewId: integer('interview_id')
      .notNull()
      .references(() => interviews.id, { onDelete: 'cascade' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['phone', 'paper', 'other'] }).notNull(),
    recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('interview_responses_member_uq').on(t.interviewId, t.memberId)],
);

/**
 * One answer to one question: a chosen option (a row per option of a multiple choice), a scale
 * value or a text. `response_id` is null in an anonymous survey, so nobody can tell who answered what.
 */
export const interviewAnswers = pgTable(
  'interview_answers',
  {
    id: serial('id').primaryKey(),
    interviewId: integer('interview_id')
      .notNull()
      .references(() => interviews.id, { onDelete: 'cascade' }),
    responseId: integer('response_id').references(() => interviewResponses.id, { onDelete: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => interviewQuestions.id, { onDelete: 'cascade' }),
    optionId: integer('option_id').references(() => interviewOptions.id, { onDelete: 'cascade' }),
    value: integer('value'),
    text: text('text'),
    /** Which answers of a question belong together (one per respondent and question), also when anonymous. */
    answerKey: text('answer_key').notNull(),
  },
  (t) => [index('interview_answers_interview_idx').on(t.interviewId, t.questionId), index('interview_answers_response_idx').on(t.responseId)],
);
