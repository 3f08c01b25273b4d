/** Members (residents and owners), their roles and shares in units, vehicles and bills. */
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ukrainianSortKey } from '../../lib/sortKey.ts';
import { timestamps } from './columns.ts';
import { organizations } from './organizations-users.ts';
import { realty } from './complexes-houses.ts';

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
      .generatedAlwaysAs(sql`translate(lower(name || ' ' || coalesce(email, '') || ' ' || coalesce(substr(phone, 2), '')), '''ʼ\`‘', '’’’’')`),
    /**
     * The name's Ukrainian sort key (server/lib/sortKey.ts), stored: an index on it answers a page
     * far from the start from the index alone, which an index on the expression cannot.
     */
    nameKey: text('name_key')
      .notNull()
      .generatedAlwaysAs(ukrainianSortKey(sql`name`)),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('members_org_phone_uq')
      .on(t.organizationId, t.phone)
      .where(sql`${t.phone} is not null`),
    uniqueIndex('members_org_email_uq')
      .on(t.organizationId, t.email)
      .where(sql`${t.email} is not null`),
    // One index serves both directions: the key is never empty (NOT NULL).
    index('members_org_name_key_idx').on(t.organizationId, t.nameKey, t.id),
    index('members_org_status_name_key_idx').on(t.organizationId, t.status, t.nameKey, t.id),
    index('members_org_created_idx').on(t.organizationId, t.createdAt, t.id),
    index('members_search_trgm_idx').using('gin', sql`${t.search} gin_trgm_ops`),
    // A phone's digits searched (seven or more): the runs of seven digits of the search text, each
    // an integer, so that one of the searched digits' names the few members that have it
    // (docs/architecture.md, "Phone numbers searched"). digit_windows is made by migration 0028.
    index('members_digit_windows_idx').using('gin', sql`digit_windows(${t.search})`),
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
    ...timestamps,
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

/**
 * One row per resident link (member ↔ unit) with what the members list filters and sorts by
 * inside a complex: the unit's house and complex, the member's Ukrainian sort key, status and
 * search text. The list of one complex (or some of its houses) walks
 * `member_units_complex_name_idx` in name order and reads only the page's members, instead of
 * every member of the complex (docs/benchmarks.md, "Members of a complex").
 *
 * Kept by database triggers in the same statement as the write (migrations 0021, 0022): a link added,
 * changed or removed (with its member, unit or house), a member renamed or blocked, a unit or a
 * house moved. No application code writes it.
 */
export const memberUnits = pgTable(
  'member_units',
  {
    residentId: integer('resident_id')
      .primaryKey()
      .references(() => residents.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').notNull(),
    memberId: integer('member_id').notNull(),
    houseId: integer('house_id').notNull(),
    complexId: integer('complex_id'),
    nameKey: text('name_key').notNull(),
    status: text('status').notNull(),
    search: text('search').notNull(),
  },
  (t) => [
    index('member_units_complex_name_idx').on(t.complexId, t.nameKey, t.memberId),
    index('member_units_member_idx').on(t.memberId),
    index('member_units_house_idx').on(t.houseId),
  ],
);
