import { z } from 'zod';
import { idSchema, text } from './common.ts';
import { defineEntity } from './entity.ts';
import { mediaRecord } from './media.ts';
import { option } from './staff.ts';

/** Stages of a request, in the order work moves through them (the icon names; docs/architecture.md, "Interface conventions"). */
export const REQUEST_STAGES = ['new', 'underReview', 'executor', 'done'] as const;
export type RequestStage = (typeof REQUEST_STAGES)[number];

/**
 * The allowed moves: forward one stage at a time, and back to review from the executor or from
 * done (reopen). Anything else is refused.
 */
export const STAGE_TRANSITIONS: Record<RequestStage, readonly RequestStage[]> = {
  new: ['underReview'],
  underReview: ['executor'],
  executor: ['done', 'underReview'],
  done: ['underReview'],
};
export const canMove = (from: RequestStage, to: RequestStage) => STAGE_TRANSITIONS[from].includes(to);

export const STAGE_NAMES: Record<RequestStage, string> = {
  new: 'Нова',
  underReview: 'На розгляді',
  executor: 'У виконавця',
  done: 'Виконана',
};

export const REQUEST_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type RequestPriority = (typeof REQUEST_PRIORITIES)[number];

export const CHAT_TYPES = ['staff_chat', 'member_chat'] as const;
export type ChatType = (typeof CHAT_TYPES)[number];

/** What a notification is about; `work_done`: a performer marked the work done through a chat link. */
export const NOTIFICATION_KINDS = ['request_created', 'stage_changed', 'resident_message', 'assigned', 'link_message', 'work_done'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Hours to the deadline when the request's type names none. */
export const DEFAULT_DEADLINE_HOURS = 72;

export const REQUEST_SORTS = ['created_at', 'deadline', 'stage', 'number', 'id'] as const;

/** A nullable id: empty and null clear the field, an option object sends its value. */
const nullableId = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v !== null && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v),
  idSchema.nullable(),
);

/** Years a date of the product can have: PostgreSQL has no year 0, and nothing is planned for centuries. */
export const plausibleYear = (v: string) => {
  const year = Number(v.slice(0, 4));
  return year >= 2000 && year <= 2100;
};

const deadlineSchema = z.preprocess(
  (v) => (v === '' ? null : v),
  z.iso
    .datetime({ offset: true, error: 'Термін — дата й час у форматі ISO 8601.' })
    .or(z.iso.date({ error: 'Термін — дата й час у форматі ISO 8601.' }))
    .refine(plausibleYear, 'Термін — між 2000 і 2100 роками.')
    .nullable(),
);

export const serviceRequestInput = z.object({
  type_id: idSchema,
  house_id: idSchema,
  realty_id: nullableId.default(null),
  member_id: nullableId.default(null),
  text: text('Текст заявки', { min: 3, max: 5000 }),
  /** Omitted: the type's deadline from now. */
  deadline: deadlineSchema.optional(),
  priority: z.enum(REQUEST_PRIORITIES, { error: 'Пріоритет: low, normal, high або urgent.' }).default('normal'),
  responsible_id: nullableId.default(null),
  performer_id: nullableId.default(null),
  media_ids: z.array(idSchema, { error: 'Файли — список ідентифікаторів.' }).max(20, 'Не більше 20 файлів.').default([]),
});
export type ServiceRequestInput = z.infer<typeof serviceRequestInput>;

/** An update sends any of the fields; `stage` moves the request (with an optional `comment`). */
export const serviceRequestUpdate = z.object({
  type_id: idSchema.optional(),
  house_id: idSchema.optional(),
  realty_id: nullableId.optional(),
  member_id: nullableId.optional(),
  text: text('Текст заявки', { min: 3, max: 5000 }).optional(),
  deadline: deadlineSchema.optional(),
  priority: z.enum(REQUEST_PRIORITIES, { error: 'Пріоритет: low, normal, high або urgent.' }).optional(),
  responsible_id: nullableId.optional(),
  performer_id: nullableId.optional(),
  media_ids: z.array(idSchema, { error: 'Файли — список ідентифікаторів.' }).max(20, 'Не більше 20 файлів.').optional(),
  stage: z.enum(REQUEST_STAGES, { error: 'Етап: new, underReview, executor або done.' }).optional(),
  comment: text('Коментар', { max: 1000 }).optional(),
});
export type ServiceRequestUpdate = z.infer<typeof serviceRequestUpdate>;

/**
 * The list's bulk change of the selected requests: a performer, a stage move (with a comment), or
 * both — each request as its own update would take them (the stage rules of STAGE_TRANSITIONS).
 */
export const serviceRequestBulkInput = z
  .object({
    stage: z.enum(REQUEST_STAGES, { error: 'Етап: new, underReview, executor або done.' }).optional(),
    performer_id: nullableId.optional(),
    comment: text('Коментар', { max: 1000 }).optional(),
  })
  .refine((v) => v.stage !== undefined || v.performer_id !== undefined, { error: 'Оберіть етап або виконавця.', path: ['stage'] });
export type ServiceRequestBulkInput = z.infer<typeof serviceRequestBulkInput>;

const staffRef = option.nullable();

export const serviceRequestRecord = z.object({
  id: z.number(),
  number: z.number(),
  type_id: z.number().nullable(),
  type: z.string().nullable(),
  house_id: z.number(),
  complex_id: z.number().nullable(),
  complex_name: z.string().nullable(),
  address: z.string(),
  realty_id: z.number().nullable(),
  realty_number: z.string().nullable(),
  member_id: z.number().nullable(),
  member_name: z.string().nullable(),
  member_phone: z.string().nullable(),
  text: z.string(),
  stage: z.enum(REQUEST_STAGES),
  priority: z.enum(REQUEST_PRIORITIES),
  deadline: z.string().nullable(),
  overdue: z.boolean(),
  responsible_id: z.number().nullable(),
  responsible: staffRef,
  performer_id: z.number().nullable(),
  performer: staffRef,
  media_ids: z.array(z.number()),
  done_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ServiceRequest = z.infer<typeof serviceRequestRecord>;

export const chatMessage = z.object({
  id: z.number(),
  chat_type: z.enum(CHAT_TYPES),
  message: z.string(),
  author: z.object({ kind: z.enum(['staff', 'resident']), id: z.number().nullable(), name: z.string(), via_link: z.boolean() }),
  files: z.array(mediaRecord),
  edited_at: z.string().nullable(),
  created_at: z.string(),
  /** Whether the one who reads may edit and delete it (its author, or an admin). */
  can_edit: z.boolean(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

export const historyEntry = z.object({
  id: z.number(),
  kind: z.enum(['stage', 'responsible', 'performer']),
  user_id: z.number().nullable(),
  user_name: z.string(),
  from: z.enum(REQUEST_STAGES).nullable(),
  to: z.enum(REQUEST_STAGES).nullable(),
  comment: z.string(),
  created_at: z.string(),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

export const chatLinkRecord = z.object({
  id: z.number(),
  user_id: z.number(),
  user_name: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
  active: z.boolean(),
});
export type ChatLink = z.infer<typeof chatLinkRecord>;

export const serviceRequestDetail = serviceRequestRecord.extend({
  media: z.array(mediaRecord),
  staff_chat: z.array(chatMessage),
  member_chat: z.array(chatMessage),
  history: z.array(historyEntry),
  /** Stages the request may move to from where it is. */
  transitions: z.array(z.enum(REQUEST_STAGES)),
  chat_links: z.array(chatLinkRecord),
});
export type ServiceRequestDetail = z.infer<typeof serviceRequestDetail>;

export const staffOption = option.extend({ complex_ids: z.array(z.number()).nullable() });
export const serviceRequestForm = z.object({
  responsible: z.array(staffOption),
  performer: z.array(staffOption),
  types: z.array(option.extend({ deadline_hours: z.number().nullable(), staff_ids: z.array(z.number()) })),
  address: z.array(option.extend({ complex_id: z.number().nullable() })),
  /** Given `house_id`: its units and residents. */
  units: z.array(option.extend({ type: z.string() })),
  residents: z.array(option.extend({ realty_id: z.number(), phone: z.string().nullable() })),
});
export type ServiceRequestForm = z.infer<typeof serviceRequestForm>;

export const chatPostInput = z.object({
  chat_type: z.enum(CHAT_TYPES, { error: 'Тип чату: staff_chat або member_chat.' }),
  message: text('Повідомлення', { max: 4000 }).default(''),
  /** Staff record what the resident said (a call, a visit) as the resident's own message in member_chat. */
  from_resident: z
    .enum(['0', '1', 'true', 'false'], { error: 'from_resident: 1 або 0.' })
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

export const commentUpdate = z.object({ message: text('Повідомлення', { min: 1, max: 4000 }) });

export const chatLinkInput = z.object({
  /** The performer the link speaks for; the request's performer when omitted. */
  user_id: idSchema.optional(),
  /** How long the link lives, in hours (default a week). */
  hours: z.coerce
    .number({ error: 'Тривалість — кількість годин.' })
    .int()
    .min(1, 'Щонайменше 1 година.')
    .max(24 * 90, 'Не довше 90 днів.')
    .default(24 * 7),
});

/** The staff chat by link: the request summary, the chat and who handles the request. */
export const linkChat = z.object({
  staff_chat: z.object({
    request: z.object({
      id: z.number(),
      number: z.number(),
      type: z.string().nullable(),
      address: z.string(),
      realty_number: z.string().nullable(),
      text: z.string(),
      stage: z.enum(REQUEST_STAGES),
      deadline: z.string().nullable(),
    }),
    /** The staff chat only: the resident chat, its files and the request's gallery stay inside the app. */
    messages: z.array(chatMessage),
    responsible: z.array(option),
    performer: z.array(option),
    /** Whether the performer may mark the work done now (the request is with the executor). */
    can_finish: z.boolean(),
    expires_at: z.string(),
  }),
});
export type LinkChat = z.infer<typeof linkChat>['staff_chat'];

export const notificationRecord = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  request_id: z.number().nullable(),
  text: z.string(),
  read: z.boolean(),
  created_at: z.string(),
});
export type NotificationItem = z.infer<typeof notificationRecord>;

/** What the live stream sends: which request changed and how; clients read the rest. */
export interface LiveEvent {
  type: 'request' | 'chat' | 'notification';
  organizationId: number;
  requestId?: number;
  /** For request and chat events: the house's complex, so staff outside it are not told. */
  complexId?: number | null;
  /** For notifications: the one recipient. */
  userId?: number;
  chatType?: ChatType;
  action?: 'created' | 'updated' | 'deleted';
}

export const PRIORITY_NAMES: Record<RequestPriority, string> = { low: 'Низький', normal: 'Звичайний', high: 'Високий', urgent: 'Терміновий' };

/**
 * Service requests (contract/entity.ts): the list, a request, create, update and delete, and the
 * export of the list's filter. Their workflow — numbers, stages, chats, notifications, chat links
 * — is the module's own (server/modules/serviceRequests); an update may send any of the fields or
 * a stage move (`serviceRequestUpdate`), and a request's read and writes answer it with its chats
 * and history (`serviceRequestDetail`).
 */
export const serviceRequestEntity = defineEntity({
  name: 'service-requests',
  path: '/service_request',
  area: 'service_requests',
  list: 'main_data',
  input: serviceRequestInput,
  updateInput: serviceRequestUpdate,
  bulkInput: serviceRequestBulkInput,
  record: serviceRequestRecord,
  fields: {
    number: { type: 'number', label: '№', input: false, sortable: true },
    stage: { type: 'enum', label: 'Етап', input: false, sortable: true, options: REQUEST_STAGES, optionLabels: STAGE_NAMES },
    type_id: { type: 'reference', label: 'Тип заявки', required: true, reference: 'service-request-types', optionText: 'name', list: false, export: false },
    type: { type: 'text', label: 'Тип заявки', input: false },
    house_id: { type: 'reference', label: 'Адреса', required: true, reference: 'houses', optionText: 'address', list: false, export: false },
    address: { type: 'text', label: 'Адреса', input: false },
    realty_id: { type: 'reference', label: 'Приміщення', reference: 'realty', optionText: 'number', list: false, export: false },
    realty_number: { type: 'text', label: 'Приміщення', input: false },
    member_id: { type: 'reference', label: 'Мешканець', reference: 'members', optionText: 'name', list: false, export: false },
    member_name: { type: 'text', label: 'Мешканець', input: false },
    member_phone: { type: 'phone', label: 'Телефон мешканця', input: false, list: false, export: true },
    text: { type: 'text', label: 'Опис проблеми', required: true, max: 5000, wide: true },
    priority: { type: 'enum', label: 'Пріоритет', options: REQUEST_PRIORITIES, optionLabels: PRIORITY_NAMES },
    deadline: { type: 'datetime', label: 'Термін', sortable: true },
    overdue: { type: 'boolean', label: 'Прострочена', input: false },
    responsible: { type: 'text', label: 'Відповідальний', input: false },
    performer: { type: 'text', label: 'Виконавець', input: false },
    done_at: { type: 'datetime', label: 'Виконано', input: false, list: false, export: true },
    created_at: { type: 'datetime', label: 'Створено', input: false, sortable: true },
  },
  search: ['number', 'text', 'member_name', 'address'],
  filters: [{ source: 'type_id', type: 'reference', reference: 'service-request-types', optionText: 'name' }],
  sort: { field: 'created_at', order: 'desc' },
  /** `created`: the same as created_at (older clients). */
  sorts: ['created'],
  sortOrders: { deadline: 'asc', stage: 'asc' },
  scope: 'house',
  form: 'page',
  messages: { notFound: 'Заявку не знайдено.', deleted: 'Заявку видалено.', inUse: 'Заявку не можна видалити: на неї посилаються інші записи.' },
  exportName: 'Заявки',
  sample: ({ houseId, unique, refs }) => ({
    type_id: refs['service-request-types'],
    house_id: houseId,
    text: `Заявка ${unique}`,
    priority: 'normal' as const,
  }),
});
