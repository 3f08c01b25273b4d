/** The address reference: settlements of Ukraine (KATOTTG) and streets. */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations } from './organizations-users.ts';

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
    source: text('source', { enum: ['reference', 'admin'] })
      .notNull()
      .default('reference'),
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
    uniqueIndex('streets_org_replaces_uq')
      .on(t.organizationId, t.replacesStreetId)
      .where(sql`${t.replacesStreetId} is not null`),
  ],
);
