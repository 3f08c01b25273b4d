/**
 * General meetings of co-owners (voting): the meeting, its agenda, the snapshot of co-owners,
 * ballots, codes and sessions of the public voting page.
 */
import { boolean, date, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { REALTY_TYPES } from '../../../contract/realty.ts';
import { timestamps } from './columns.ts';
import { organizations, users } from './organizations-users.ts';
import { houses, realty } from './complexes-houses.ts';
import { members } from './members.ts';
import { media } from './community.ts';

/**
 * A general meeting of the co-owners of one house (server/modules/voting, docs/voting-rules.md):
 * the regime decides the law that counts the votes, the agenda lives in `voting_questions`,
 * the co-owners and their areas are a snapshot (`voting_units`, `voting_participants`,
 * `voting_ownerships`) taken from the register when the meeting is created (docs/voting-rules.md §1.1).
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
    /**
     * The public voting link's random token is kept twice, never in clear: its SHA-256 (hex), which
     * the public page looks the meeting up by, and sealed under the link key (server/lib/sealed.ts,
     * bound to the hash), so that staff can be shown the link again (GET /voting/{id}/deeplink).
     */
    linkTokenHash: text('link_token_hash').notNull(),
    linkTokenSealed: text('link_token_sealed'),
    /**
     * The token in clear, as versions before migration 0029 kept it: a row restored from an older
     * backup holds it until the next start seals it (`sealClearLinkTokens`); never written.
     */
    linkToken: text('link_token'),
    /** The uploaded signed scan of the protocol; replaces the generated one. */
    protocolMediaId: integer('protocol_media_id').references(() => media.id, { onDelete: 'set null' }),
    lastNotifiedAt: timestamp('last_notified_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('votings_org_date_idx').on(t.organizationId, t.meetingDate),
    index('votings_house_idx').on(t.houseId),
    uniqueIndex('votings_link_token_hash_uq').on(t.linkTokenHash),
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
