/**
 * Residential complexes, the staff assigned to them, house types, houses and their units
 * (realty).
 */
import { sql } from 'drizzle-orm';
import { index, integer, numeric, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { REALTY_TYPES } from '../../../contract/realty.ts';
import { ukrainianSortKey } from '../../lib/sortKey.ts';
import { leadingDigits } from '../../lib/order.ts';
import { keyLast, timestamps } from './columns.ts';
import { organizations, users } from './organizations-users.ts';
import { settlements, streets } from './reference.ts';

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
    index('realty_org_number_asc_idx').on(
      t.organizationId,
      keyLast(leadingDigits(sql`${t.number}`), 'asc'),
      keyLast(ukrainianSortKey(sql`${t.number}`), 'asc'),
      t.id,
    ),
    index('realty_org_number_desc_idx').on(
      t.organizationId,
      keyLast(leadingDigits(sql`${t.number}`), 'desc'),
      keyLast(ukrainianSortKey(sql`${t.number}`), 'desc'),
      t.id,
    ),
    index('realty_org_house_number_asc_idx').on(
      t.organizationId,
      t.houseId,
      keyLast(leadingDigits(sql`${t.number}`), 'asc'),
      keyLast(ukrainianSortKey(sql`${t.number}`), 'asc'),
      t.id,
    ),
    index('realty_org_house_number_desc_idx').on(
      t.organizationId,
      t.houseId.desc().nullsFirst(),
      keyLast(leadingDigits(sql`${t.number}`), 'desc'),
      keyLast(ukrainianSortKey(sql`${t.number}`), 'desc'),
      t.id,
    ),
    index('realty_org_area_asc_idx').on(t.organizationId, t.area.asc().nullsLast(), t.id),
    index('realty_org_area_desc_idx').on(t.organizationId, t.area.desc().nullsLast(), t.id),
    index('realty_org_floor_asc_idx').on(t.organizationId, t.floor.asc().nullsLast(), t.id),
    index('realty_org_floor_desc_idx').on(t.organizationId, t.floor.desc().nullsLast(), t.id),
    // The list's search: any part of the unit number (ILIKE).
    index('realty_number_trgm_idx').using('gin', sql`${t.number} gin_trgm_ops`),
  ],
);
