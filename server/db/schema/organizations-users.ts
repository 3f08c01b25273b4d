/**
 * The management company, its staff (users, roles, departments) and what signing in keeps:
 * sessions, password links, throttling, one-time codes, live-stream tickets.
 */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Rules } from '../../../contract/permissions.ts';
import { ukrainianSortKey } from '../../lib/sortKey.ts';
import { timestamps } from './columns.ts';

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
  (t) => [
    uniqueIndex('users_email_uq').on(t.email),
    index('users_org_name_sort_idx').on(t.organizationId, ukrainianSortKey(sql`${t.name}`)),
    index('users_role_idx').on(t.roleId),
  ],
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
