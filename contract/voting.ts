import { z } from 'zod';
import { idSchema, text } from './common.ts';
import { defineEntity } from './entity.ts';

/** ОСББ house (Law 2866-III) or a house without an ОСББ (Law 417-VIII). */
export const REGIMES = ['osbb', 'no_osbb'] as const;
export type VotingRegime = (typeof REGIMES)[number];

/** Threshold kinds of a question; see server/modules/voting/tally.ts and docs/voting-rules.md §2. */
export const THRESHOLD_KINDS = ['majority', 'qualified', 'statute', 'two_thirds'] as const;
export type ThresholdKind = (typeof THRESHOLD_KINDS)[number];

export const ANSWERS = ['for', 'against'] as const;
export type VoteAnswer = (typeof ANSWERS)[number];

export const QUESTION_STATUSES = ['adopted', 'rejected', 'open', 'not_adopted'] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

/** scheduled: before the meeting day; voting: the meeting day and the written poll; finished: every question decided or the poll over. */
export const VOTING_STATES = ['scheduled', 'voting', 'finished'] as const;
export type VotingState = (typeof VOTING_STATES)[number];

export const BALLOT_STATUSES = ['not_voted', 'partial', 'voted'] as const;
export type BallotStatus = (typeof BALLOT_STATUSES)[number];

/** Bounds of an ОСББ statute's threshold (Law 2866, Art. 10). */
export const STATUTE_MIN = 50;
export const STATUTE_MAX = 75;
export const STATUTE_CAPPED_MAX = 67;

const isoDate = (label: string) =>
  z
    .string({ error: `Поле «${label}»: вкажіть дату.` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `Поле «${label}»: дата у форматі РРРР-ММ-ДД.`)
    .refine(
      (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      `Поле «${label}»: такої дати не існує.`,
    );

export const questionInput = z.object({
  /** an existing question's id on update, so that its votes stay with it */
  id: idSchema.optional(),
  title: text('Рішення', { min: 3, max: 1000 }),
  description: text('Пояснення', { max: 5000 }).default(''),
  threshold: z.enum(THRESHOLD_KINDS, { error: 'Поріг: більшість, 75 %, за статутом або 2/3 за старим статутом.' }),
  threshold_percent: z.coerce.number({ error: 'Поріг статуту має бути числом.' }).nullable().default(null),
  capped: z.boolean({ error: 'capped: true або false.' }).default(false),
});
export type QuestionInput = z.infer<typeof questionInput>;

/**
 * A general meeting. Thresholds are checked against the regime: a house without an ОСББ knows
 * only «більше 50 %» and «більше 75 %» (Law 417, Art. 10); a statute's threshold lies within
 * 50–75 % (at most 67 % for the capped questions), and the statute's rule text is required.
 * docs/voting-rules.md §2.2.
 */
export const votingInput = z
  .object({
    house_id: idSchema,
    title: text('Назва', { min: 3, max: 300 }),
    regime: z.enum(REGIMES, { error: 'Режим: ОСББ або без ОСББ.' }),
    initiator: text('Ініціатор', { min: 3, max: 500 }),
    meeting_date: isoDate('Дата зборів'),
    meeting_time: z.string({ error: 'Вкажіть час зборів.' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Час зборів у форматі ГГ:ХХ.'),
    place: text('Місце', { min: 3, max: 500 }),
    video_tools: text('Відеозасоби', { max: 1000 }).default(''),
    chair: text('Голова зборів', { max: 300 }).default(''),
    statute_text: text('Правило статуту', { max: 3000 }).default(''),
    signed_only: z.boolean({ error: 'signed_only: true або false.' }).default(false),
    notice_date: isoDate('Дата повідомлення').nullable().default(null),
    results_notice_date: isoDate('Дата повідомлення результатів').nullable().default(null),
    questions: z.array(questionInput, { error: 'Додайте питання порядку денного.' }).min(1, 'Додайте хоча б одне питання.').max(50, 'Не більше 50 питань.'),
  })
  .superRefine((v, ctx) => {
    v.questions.forEach((q, i) => {
      const path = ['questions', i, 'threshold'];
      if (v.regime === 'no_osbb' && (q.threshold === 'statute' || q.threshold === 'two_thirds')) {
        ctx.addIssue({
          code: 'custom',
          path,
          message: 'Без ОСББ рішення приймають більш як 50 % або більш як 75 % (ст. 10 Закону 417): порогу статуту немає.',
        });
      }
      if (q.threshold === 'statute') {
        const max = q.capped ? STATUTE_CAPPED_MAX : STATUTE_MAX;
        if (q.threshold_percent === null || !(q.threshold_percent >= STATUTE_MIN && q.threshold_percent <= max)) {
          ctx.addIssue({ code: 'custom', path: ['questions', i, 'threshold_percent'], message: `Поріг статуту — від ${STATUTE_MIN} до ${max} %.` });
        } else if (Math.round(q.threshold_percent * 100) !== q.threshold_percent * 100) {
          ctx.addIssue({ code: 'custom', path: ['questions', i, 'threshold_percent'], message: 'Поріг статуту — не більше двох знаків після коми.' });
        }
      }
      if (q.threshold === 'two_thirds' && q.capped) {
        ctx.addIssue({
          code: 'custom',
          path,
          message: 'Для цього питання статут може встановити не більше 67 %: «не менш як 2/3» (66,67 %) допустимо лише як поріг статуту.',
        });
      }
    });
    if (v.questions.some((q) => q.threshold === 'statute' || q.threshold === 'two_thirds') && v.statute_text.trim().length === 0) {
      ctx.addIssue({ code: 'custom', path: ['statute_text'], message: 'Наведіть дослівно правило статуту, за яким рахують поріг.' });
    }
  });
export type VotingInput = z.infer<typeof votingInput>;

const share = z.object({ count: z.number(), area: z.number(), percent: z.number() });

export const tallyRecord = z.object({
  status: z.enum(QUESTION_STATUSES),
  headcount: z.boolean(),
  threshold: z.object({ percent: z.number(), inclusive: z.boolean() }),
  for: share,
  against: share,
  outstanding: share,
  reachable: z.boolean(),
});
export type TallyRecord = z.infer<typeof tallyRecord>;

export const questionRecord = z.object({
  id: z.number(),
  position: z.number(),
  title: z.string(),
  description: z.string(),
  threshold: z.enum(THRESHOLD_KINDS),
  threshold_percent: z.number().nullable(),
  capped: z.boolean(),
  /** the threshold in words: «більше 50 % голосів усіх співвласників» */
  threshold_text: z.string(),
  tally: tallyRecord,
});
export type VotingQuestion = z.infer<typeof questionRecord>;

export const warningRecord = z.object({ code: z.string(), level: z.enum(['info', 'warning', 'error']), message: z.string() });
export type VotingWarning = z.infer<typeof warningRecord>;

export const votingSummary = z.object({
  id: z.number(),
  house_id: z.number(),
  address: z.string(),
  complex_id: z.number().nullable(),
  title: z.string(),
  regime: z.enum(REGIMES),
  meeting_date: z.string(),
  meeting_time: z.string(),
  state: z.enum(VOTING_STATES),
  questions_count: z.number(),
  participants_count: z.number(),
  voted_count: z.number(),
  created_at: z.string(),
  /** The version an update names in If-Match. */
  updated_at: z.string(),
});
export type VotingSummary = z.infer<typeof votingSummary>;

export const votingRecord = votingSummary.extend({
  initiator: z.string(),
  place: z.string(),
  video_tools: z.string(),
  chair: z.string(),
  statute_text: z.string(),
  signed_only: z.boolean(),
  notice_date: z.string().nullable(),
  results_notice_date: z.string().nullable(),
  /** whether votes are counted by heads (a dominant owner) */
  headcount: z.boolean(),
  total_area: z.number(),
  largest_share_percent: z.number(),
  deadlines: z.object({
    notice_by: z.string(),
    delivery_requests_by: z.string(),
    poll_ends: z.string(),
    /** the day voting ended (all decided or the poll over), null while it goes on */
    ended_on: z.string().nullable(),
    results_by: z.string().nullable(),
  }),
  questions: z.array(questionRecord),
  warnings: z.array(warningRecord),
  protocol: z.object({ uploaded: z.boolean(), name: z.string().nullable(), uploaded_at: z.string().nullable() }),
  last_notified_at: z.string().nullable(),
  /** ballots cast through the link are signed only when a provider is plugged in */
  signature_providers: z.array(z.object({ id: z.string(), title: z.string() })),
  /** the electorate can still be refreshed from the register (no ballot yet) */
  electorate_editable: z.boolean(),
});
export type Voting = z.infer<typeof votingRecord>;

/**
 * General meetings of co-owners («Загальні збори»), one house each. The CRUD part of the
 * declaration: the list, the meeting with its agenda, tallies, deadlines and warnings
 * (`GET /voting/{id}`, and what create and update answer), the export. Ballots, the protocol,
 * invitations and the co-owners' page are the server's own routes (server/modules/voting).
 */
export const votingEntity = defineEntity({
  name: 'voting',
  path: '/voting',
  area: 'votings',
  list: 'main_data',
  input: votingInput,
  record: votingSummary,
  fields: {
    title: { type: 'text', label: 'Назва зборів', required: true, max: 300, sortable: true },
    house_id: { type: 'reference', label: 'Будинок', required: true, reference: 'houses', optionText: 'address', display: 'address', export: false },
    address: { type: 'text', label: 'Будинок', input: false, list: false, export: true },
    regime: { type: 'enum', label: 'Режим', required: true, options: REGIMES, optionLabels: { osbb: 'ОСББ', no_osbb: 'Без ОСББ' } },
    initiator: { type: 'text', label: 'Ініціатор', required: true, max: 500, list: false, export: false },
    meeting_date: { type: 'date', label: 'Дата зборів', required: true, sortable: true },
    meeting_time: { type: 'text', label: 'Час', required: true, max: 5, pattern: 'ГГ:ХХ' },
    place: { type: 'text', label: 'Місце проведення', required: true, max: 500, list: false, export: false },
    state: {
      type: 'enum',
      label: 'Стан',
      options: VOTING_STATES,
      optionLabels: { scheduled: 'Заплановано', voting: 'Голосування', finished: 'Завершено' },
      input: false,
    },
    questions_count: { type: 'number', label: 'Питань', input: false },
    participants_count: { type: 'number', label: 'Співвласників', input: false },
    voted_count: { type: 'number', label: 'Проголосували', input: false },
    created_at: { type: 'datetime', label: 'Створено', input: false, list: false, export: true },
  },
  search: ['title'],
  filters: [{ source: 'state', type: 'enum' }],
  sort: { field: 'meeting_date', order: 'desc' },
  scope: 'house',
  form: 'page',
  deleteAnswer: 'data_id',
  messages: {
    notFound: 'Загальні збори не знайдено.',
    deleted: 'Збори видалено.',
    inUse: 'Збори з голосами не можна видалити: листки опитування й протокол — документи, які треба зберігати.',
  },
  exportName: 'Загальні збори',
  sample: ({ houseId, unique }) => ({
    house_id: houseId,
    title: `Збори ${unique}`,
    regime: 'osbb' as const,
    initiator: 'Правління ОСББ',
    meeting_date: '2099-06-01',
    meeting_time: '18:00',
    place: 'Двір будинку',
    questions: [{ title: 'Затвердити кошторис на рік', threshold: 'majority' as const }],
  }),
});

export const participantUnit = z.object({ number: z.string(), type: z.string(), area: z.number().nullable(), share: z.string(), owned_area: z.number() });

export const ballotRecord = z.object({
  id: z.number(),
  channel: z.enum(['paper', 'electronic']),
  ballot_date: z.string(),
  identification: z.enum(['sms_code', 'email_code']).nullable(),
  identified_target: z.string().nullable(),
  signed: z.boolean(),
  signature_provider: z.string().nullable(),
  signature_signer: z.string().nullable(),
  /** false when the meeting counts only signed or paper ballots and this one is neither */
  counted: z.boolean(),
  sheet: z.object({ id: z.number(), name: z.string(), mime: z.string(), url: z.string() }).nullable(),
  representative: z.string(),
  representative_document: z.string(),
  answers: z.record(z.string(), z.enum(ANSWERS)),
  created_at: z.string(),
});
export type VotingBallot = z.infer<typeof ballotRecord>;

export const participantRecord = z.object({
  /** the member's id (the path's residentId) */
  id: z.number(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  units: z.array(participantUnit),
  area: z.number(),
  weight_percent: z.number(),
  ownership_document: z.string(),
  status: z.enum(BALLOT_STATUSES),
  /** answers that count, by question id */
  answers: z.record(z.string(), z.enum(ANSWERS)),
  ballots: z.array(ballotRecord),
});
export type VotingParticipant = z.infer<typeof participantRecord>;

/** Multipart fields of the paper sheet upload; answers come as `answer_<questionId>` = for | against. */
export const sheetFields = z.object({
  type: z.string().max(50, 'Некоректний тип.').optional(),
  ballot_date: isoDate('Дата голосування').optional(),
  representative: text('Представник', { max: 300 }).default(''),
  representative_document: text('Документ представника', { max: 500 }).default(''),
  ownership_document: text('Документ про право власності', { max: 500 }).optional(),
});

export const votingFormRecord = z.object({
  houses: z.array(z.object({ id: z.number(), name: z.string(), complex_id: z.number().nullable(), complex_name: z.string().nullable() })),
  regimes: z.array(z.object({ id: z.enum(REGIMES), name: z.string(), law: z.string() })),
  thresholds: z.array(
    z.object({ id: z.enum(THRESHOLD_KINDS), name: z.string(), description: z.string(), regimes: z.array(z.enum(REGIMES)), needs_percent: z.boolean() }),
  ),
  statute: z.object({ min: z.number(), max: z.number(), capped_max: z.number() }),
  answers: z.array(z.object({ id: z.enum(ANSWERS), name: z.string() })),
});
export type VotingForm = z.infer<typeof votingFormRecord>;

// ── the co-owner's public page ──

export const codeRequest = z.object({ contact: text('Телефон або e-mail', { min: 3, max: 254 }) });
export const codeVerify = z.object({
  challenge: z.string({ error: 'Спершу надішліть код.' }).min(10, 'Спершу надішліть код.').max(200),
  code: z.string({ error: 'Вкажіть код.' }).regex(/^\d{6}$/, 'Код — 6 цифр.'),
});
export const ballotInput = z.object({
  answers: z.record(z.string().regex(/^\d+$/, 'Невідоме питання.'), z.enum(ANSWERS, { error: 'Відповідь: «за» або «проти».' }), {
    error: 'Оберіть відповіді.',
  }),
  /** a qualified signature of the ballot document, when a provider is plugged in */
  signature: z.object({ provider: z.string().min(1).max(50), data: z.string().min(1).max(200_000) }).optional(),
});

export const publicVotingRecord = z.object({
  title: z.string(),
  address: z.string(),
  regime: z.enum(REGIMES),
  initiator: z.string(),
  meeting_date: z.string(),
  meeting_time: z.string(),
  place: z.string(),
  video_tools: z.string(),
  poll_ends: z.string(),
  /** closed: before the meeting day or after the poll */
  open: z.boolean(),
  opens_on: z.string(),
  signed_only: z.boolean(),
  signature_providers: z.array(z.object({ id: z.string(), title: z.string() })),
  /** where a one-time code can go: e-mail always, a phone only while SMS can be sent */
  code_channels: z.array(z.enum(['email', 'sms'])),
  questions: z.array(
    z.object({
      id: z.number(),
      position: z.number(),
      title: z.string(),
      description: z.string(),
      threshold_text: z.string(),
      status: z.enum(QUESTION_STATUSES),
    }),
  ),
});
export type PublicVoting = z.infer<typeof publicVotingRecord>;

export const publicBallotRecord = z.object({
  voter: z.object({
    name: z.string(),
    units: z.array(z.string()),
    area: z.number(),
    identification: z.enum(['sms_code', 'email_code']),
    identified_target: z.string(),
  }),
  /** answers already recorded for this co-owner, by question id, with the channel */
  answered: z.record(z.string(), z.object({ answer: z.enum(ANSWERS), channel: z.enum(['paper', 'electronic']), date: z.string() })),
});
export type PublicBallot = z.infer<typeof publicBallotRecord>;
