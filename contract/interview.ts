import { z } from 'zod';
import { audienceInput, audienceRecord, dateTime } from './audience.ts';
import { idSchema, text } from './common.ts';
import { defineEntity } from './entity.ts';

/** draft: not published or not started yet; active: published and between start and end; finished: past the end. */
export const INTERVIEW_STATUSES = ['draft', 'active', 'finished'] as const;
export type InterviewStatus = (typeof INTERVIEW_STATUSES)[number];

export const QUESTION_KINDS = ['single', 'multiple', 'text', 'scale'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export const SCALE_MAXES = [5, 10] as const;

/** How a resident's answers reached the staff member who recorded them. */
export const ANSWER_CHANNELS = ['phone', 'paper', 'other'] as const;
export type AnswerChannel = (typeof ANSWER_CHANNELS)[number];

export const RESPONDENT_STATUSES = ['answered', 'not_answered'] as const;

export const interviewQuestionInput = z
  .object({
    title: text('Питання', { min: 3, max: 1000 }),
    kind: z.enum(QUESTION_KINDS, { error: 'Тип питання: один варіант, кілька варіантів, вільна відповідь або шкала.' }),
    options: z
      .array(text('Варіант відповіді', { min: 1, max: 300 }), { error: 'Варіанти відповіді — список.' })
      .max(30, 'Не більше 30 варіантів.')
      .default([]),
    scale_max: z
      .union([z.literal(5), z.literal(10)], { error: 'Шкала: від 1 до 5 або від 1 до 10.' })
      .nullable()
      .default(null),
  })
  .superRefine((q, ctx) => {
    if (q.kind === 'single' || q.kind === 'multiple') {
      if (q.options.length < 2) ctx.addIssue({ code: 'custom', path: ['options'], message: 'Додайте щонайменше два варіанти відповіді.' });
      const seen = new Set<string>();
      q.options.forEach((o, i) => {
        const key = o.toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['options', i], message: 'Варіанти відповіді повторюються.' });
        seen.add(key);
      });
    } else if (q.options.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'Варіанти відповіді потрібні лише для питань з вибором.' });
    }
    if (q.kind === 'scale' && q.scale_max === null)
      ctx.addIssue({ code: 'custom', path: ['scale_max'], message: 'Оберіть шкалу: від 1 до 5 або від 1 до 10.' });
  });
export type InterviewQuestionInput = z.infer<typeof interviewQuestionInput>;

export const interviewInput = z
  .object({
    title: text('Назва', { min: 3, max: 300 }),
    description: text('Опис', { max: 5000 }).default(''),
    ...audienceInput,
    start_at: dateTime('Початок'),
    end_at: dateTime('Завершення'),
    anonymous: z.boolean({ error: 'Поле «Анонімне» має бути так або ні.' }).default(false),
    published: z.boolean({ error: 'Поле «Опубліковано» має бути так або ні.' }).default(false),
    questions: z.array(interviewQuestionInput, { error: 'Додайте питання.' }).min(1, 'Додайте хоча б одне питання.').max(50, 'Не більше 50 питань.'),
  })
  .superRefine((v, ctx) => {
    if (v.end_at <= v.start_at) ctx.addIssue({ code: 'custom', path: ['end_at'], message: 'Завершення має бути пізніше за початок.' });
  });
export type InterviewInput = z.infer<typeof interviewInput>;

export const optionRecord = z.object({ id: z.number(), title: z.string(), count: z.number(), percent: z.number() });

export const interviewQuestionRecord = z.object({
  id: z.number(),
  position: z.number(),
  title: z.string(),
  kind: z.enum(QUESTION_KINDS),
  scale_max: z.number().nullable(),
  /** choice questions: the options with their counts; scale: one row per value 1…max */
  options: z.array(optionRecord),
  /** respondents who answered this question: the base of the percentages */
  answered: z.number(),
  /** scale: the mean value, null without answers */
  average: z.number().nullable(),
  /** free text: the answers; `member` is null in an anonymous survey */
  texts: z.array(z.object({ text: z.string(), member: z.string().nullable() })),
});
export type InterviewQuestion = z.infer<typeof interviewQuestionRecord>;

export const interviewSummary = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  status: z.enum(INTERVIEW_STATUSES),
  published: z.boolean(),
  anonymous: z.boolean(),
  start_at: z.string(),
  end_at: z.string(),
  questions_count: z.number(),
  responses_count: z.number(),
  ...audienceRecord,
  created_at: z.string(),
  updated_at: z.string(),
});
export type InterviewSummary = z.infer<typeof interviewSummary>;

export const interviewRecord = interviewSummary.extend({
  /** members linked to a unit in the audience's houses (in the reader's scope) */
  audience_count: z.number(),
  /** questions, anonymity, audience and start are fixed once there is an answer */
  questions_locked: z.boolean(),
  questions: z.array(interviewQuestionRecord),
});
export type Interview = z.infer<typeof interviewRecord>;

/**
 * Surveys of residents («Опитування»), addressed to complexes and houses. The CRUD part of its
 * declaration: the list, the survey with its questions and results (`GET /interview/{id}`, and
 * what create and update answer), the export. Answers recorded by staff and the respondents'
 * list are the server's own routes (server/modules/interview).
 */
export const interviewEntity = defineEntity({
  name: 'interview',
  path: '/interview',
  area: 'interviews',
  list: 'main_data',
  input: interviewInput,
  record: interviewSummary,
  fields: {
    title: { type: 'text', label: 'Назва', required: true, max: 300, sortable: true },
    description: { type: 'multiline', label: 'Опис', max: 5000, list: false, export: true, wide: true },
    start_at: { type: 'datetime', label: 'Початок', required: true, sortable: true },
    end_at: { type: 'datetime', label: 'Завершення', required: true, sortable: true },
    status: {
      type: 'enum',
      label: 'Статус',
      options: INTERVIEW_STATUSES,
      optionLabels: { draft: 'Чернетка', active: 'Триває', finished: 'Завершено' },
      input: false,
    },
    published: { type: 'boolean', label: 'Опубліковано', list: false, export: true },
    anonymous: { type: 'boolean', label: 'Анонімне опитування', list: false, export: true },
    complexes: { type: 'text', label: 'Комплекси', optionText: 'name', input: false },
    houses: { type: 'text', label: 'Будинки', optionText: 'address', input: false, list: false, export: true },
    questions_count: { type: 'number', label: 'Питань', input: false, list: false, export: true },
    responses_count: { type: 'number', label: 'Відповідей', input: false },
    created_at: { type: 'datetime', label: 'Створено', input: false, list: false, sortable: true, export: true },
  },
  search: ['title'],
  filters: [{ source: 'status', type: 'enum' }],
  sort: { field: 'start_at', order: 'desc' },
  scope: 'complex',
  form: 'page',
  messages: { notFound: 'Опитування не знайдено.', deleted: 'Опитування видалено.', inUse: 'Опитування з відповідями не можна видалити.' },
  exportName: 'Опитування',
  sample: ({ complexId, unique }) => ({
    title: `Опитування ${unique}`,
    description: 'Як вам нове освітлення двору?',
    complex_ids: [complexId],
    house_ids: [],
    start_at: new Date(Date.now() - 24 * 3600 * 1000).toISOString(),
    end_at: new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString(),
    anonymous: false,
    published: true,
    questions: [{ title: 'Чи задоволені ви освітленням?', kind: 'single' as const, options: ['Так', 'Ні'], scale_max: null }],
  }),
});

export const answerInput = z.object({
  question_id: idSchema,
  option_ids: z.array(idSchema, { error: 'Варіанти — список.' }).max(30).optional(),
  value: z.coerce.number({ error: 'Оцінка має бути числом.' }).int('Оцінка — ціле число.').optional(),
  text: text('Відповідь', { max: 3000 }).optional(),
});

export const responseInput = z.object({
  member_id: idSchema,
  channel: z.enum(ANSWER_CHANNELS, { error: 'Канал: телефон, паперова анкета або інше.' }),
  answers: z.array(answerInput, { error: 'Відповіді — список.' }).min(1, 'Додайте відповідь хоча б на одне питання.').max(50),
});
export type ResponseInput = z.infer<typeof responseInput>;

export const respondentRecord = z.object({
  /** the member's id */
  id: z.number(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  /** the member's units in the audience's houses: «вул. Січових Стрільців, 12, кв. 5» */
  units: z.array(z.string()),
  answered: z.boolean(),
  response: z
    .object({
      id: z.number(),
      channel: z.enum(ANSWER_CHANNELS),
      recorded_by: z.string().nullable(),
      created_at: z.string(),
      /** question id → the answer in words; null in an anonymous survey */
      answers: z.record(z.string(), z.string()).nullable(),
    })
    .nullable(),
});
export type Respondent = z.infer<typeof respondentRecord>;
