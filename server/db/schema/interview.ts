/** Surveys of residents (interview): audience, questions, options and the answers recorded. */
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { organizations, users } from './organizations-users.ts';
import { complexes, houses } from './complexes-houses.ts';
import { members } from './members.ts';

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
