/**
 * Community content: files, news, announcements, events, advertisements, documents, contacts,
 * discounts, cameras.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { ukrainianSortKey } from '../../lib/sortKey.ts';
import { keyLast, timestamps } from './columns.ts';
import { organizations, users } from './organizations-users.ts';
import { complexes, houses, realty } from './complexes-houses.ts';

/** The plain text of `body` (sanitised HTML), cut to 200 characters with «…» (`articles.excerpt`). */
const PLAIN_BODY = `btrim(regexp_replace(replace(replace(replace(replace(replace(replace(
  regexp_replace(regexp_replace(body, '</?(p|h[1-6]|li|ul|ol|br|div|blockquote|pre|table|tr|td|th|hr)(\\s[^>]*)?/?>', ' ', 'gi'),
  '<[^>]*>', '', 'g'), '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&amp;', '&'),
  '[\\s\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+', ' ', 'g'))`;
const EXCERPT_SQL = `case when length(${PLAIN_BODY}) > 200 then left(${PLAIN_BODY}, 199) || '…' else ${PLAIN_BODY} end`;

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
    /**
     * The first 200 characters of the body's plain text, kept by the database (lists send it
     * without reading HTML in Node): a block's tags part words with a space, other tags go, the
     * entities a sanitiser writes are decoded, every run of white space (no-break too) is one space.
     */
    excerpt: text('excerpt')
      .notNull()
      .generatedAlwaysAs(sql`${sql.raw(EXCERPT_SQL)}`),
    imageId: integer('image_id').references(() => media.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['draft', 'published'] })
      .notNull()
      .default('draft'),
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
    /**
     * The article's `publish_at`, kept by triggers in the statement that writes either (migration
     * 0027): a complex's news are walked in publish order on this table's own index, however many
     * the complex has (docs/architecture.md, "Rows of a complex in a link's order").
     */
    publishAt: timestamp('publish_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.articleId, t.complexId] }),
    index('article_complexes_complex_publish_asc_idx').on(t.complexId, t.publishAt.asc().nullsLast(), t.articleId),
    index('article_complexes_complex_publish_desc_idx').on(t.complexId, t.publishAt.desc().nullsLast(), t.articleId.desc().nullsFirst()),
  ],
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
  (t) => [
    index('advertisements_org_created_idx').on(t.organizationId, t.createdAt),
    index('advertisements_house_idx').on(t.houseId),
    index('advertisements_image_idx').on(t.imageId),
  ],
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
  (t) => [
    index('contacts_section_idx').on(t.sectionId),
    index('contacts_group_idx').on(t.groupId),
    index('contacts_org_name_idx').on(t.organizationId, t.name),
  ],
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
