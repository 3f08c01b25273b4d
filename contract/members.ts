import { z } from 'zod';
import { REALTY_TYPES } from './realty.ts';
import { idSchema, text } from './common.ts';
import { defineEntity } from './entity.ts';

export const MEMBER_STATUSES = ['active', 'inactive'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export const RESIDENT_ROLE_CODES = ['owner', 'co_owner', 'tenant', 'family'] as const;
export type ResidentRoleCode = (typeof RESIDENT_ROLE_CODES)[number];

/** A select's option object ({ value, label }) or a plain id: the option's value is what counts. */
export const optionId = z.preprocess(
  (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && 'value' in v ? (v as { value: unknown }).value : v),
  idSchema,
);

/** Empty text → null, so that clearing a field removes the value. */
const optionalText = (label: string, max: number) =>
  z.preprocess((v) => (v === '' || v === undefined ? null : v), text(label, { max }).nullable()).default(null);

/** An ownership share as text («1/3», «0,5», «50%») or a number; empty means none. */
export const shareInput = z
  .preprocess(
    (v) => (v === '' || v === undefined ? null : typeof v === 'number' ? String(v) : v),
    z.string({ error: 'Частка — дріб (1/3), десяткове число (0,5) або відсоток (50%).' }).max(20, 'Частка задовга.').nullable(),
  )
  .default(null);

export const memberInput = z.object({
  name: text("Прізвище, ім'я, по батькові", { min: 2, max: 150 }),
  /** Normalised to E.164 by the server; 422 when it is not a valid number. */
  phone: optionalText('Телефон', 40),
  email: optionalText('E-mail', 254),
  status: z.enum(MEMBER_STATUSES, { error: 'Статус: active або inactive.' }).default('active'),
  note: text('Примітка', { max: 2000 }).default(''),
  /** When creating: the first unit the member lives in or owns (required for staff users). */
  realty_id: idSchema.nullable().optional(),
  role_id: optionId.nullable().optional(),
  ownership_share: shareInput.optional(),
});
export type MemberInput = z.infer<typeof memberInput>;

/** The members list's bulk change: the status of the selected members. */
export const memberBulkInput = z.object({ status: z.enum(MEMBER_STATUSES, { error: 'Статус: active або inactive.' }) });

export const memberUnit = z.object({
  resident_id: z.number(),
  realty_id: z.number(),
  house_id: z.number(),
  complex_id: z.number().nullable(),
  address: z.string(),
  type: z.enum(REALTY_TYPES),
  number: z.string(),
  role_id: z.number(),
  role: z.string(),
  /** «1/3», «1», or null for roles without ownership */
  ownership_share: z.string().nullable(),
});

export const memberRecord = z.object({
  id: z.number(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  status: z.enum(MEMBER_STATUSES),
  note: z.string(),
  units: z.array(memberUnit),
  vehicles_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Member = z.infer<typeof memberRecord>;
export type MemberUnit = z.infer<typeof memberUnit>;

export const MEMBER_SORTS = ['id', 'name', 'created_at'] as const;

/**
 * Members (residents): people linked to units of the organization's houses (contract/entity.ts).
 * A staff user sees those of a unit in their complexes; the links themselves are /residents.
 */
export const memberEntity = defineEntity({
  name: 'members',
  path: '/members',
  area: 'members',
  list: 'data_pagination',
  input: memberInput,
  bulkInput: memberBulkInput,
  record: memberRecord,
  fields: {
    name: { type: 'text', label: "Прізвище, ім'я, по батькові", required: true, max: 150, sortable: true },
    phone: { type: 'phone', label: 'Телефон', max: 40 },
    email: { type: 'email', label: 'E-mail', max: 254 },
    status: { type: 'enum', label: 'Статус', options: MEMBER_STATUSES, optionLabels: { active: 'Активний', inactive: 'Неактивний' } },
    units: { type: 'text', label: 'Приміщення', input: false, wide: true },
    vehicles_count: { type: 'number', label: 'Транспорт', input: false },
    note: { type: 'multiline', label: 'Примітка', max: 2000, list: false, export: true },
    created_at: { type: 'date', label: 'Додано', input: false, sortable: true },
    // The first unit, when creating (required for staff); later links are /residents.
    realty_id: { type: 'reference', label: 'Приміщення', reference: 'realty', optionText: 'number', list: false, export: false },
    role_id: { type: 'reference', label: 'Роль', reference: 'resident-roles', optionText: 'name', list: false, export: false },
    ownership_share: { type: 'text', label: 'Частка у власності', max: 20, list: false, export: false },
  },
  search: ['name', 'phone', 'email'],
  filters: [{ source: 'status', type: 'enum' }],
  sort: { field: 'name', order: 'asc' },
  scope: 'house',
  messages: {
    notFound: 'Мешканця не знайдено.',
    deleted: 'Мешканця видалено.',
    inUse: 'Мешканця не можна видалити: на нього посилаються інші записи.',
  },
  exportName: 'Мешканці',
  exportFile: 'members',
  // An owner of a small share of the side's unit: many samples fit in one unit.
  sample: ({ unique, refs }) => ({
    name: `Мешканець ${unique}`,
    phone: null,
    email: null,
    status: 'active' as const,
    note: 'Зразок',
    realty_id: refs.realty,
    ownership_share: '1/1000',
  }),
});

export const residentInput = z.object({
  member_id: idSchema,
  realty_id: idSchema,
  role_id: optionId,
  ownership_share: shareInput,
});
export type ResidentInput = z.infer<typeof residentInput>;

export const residentRecord = memberUnit.omit({ resident_id: true }).extend({
  id: z.number(),
  member_id: z.number(),
  member_name: z.string(),
  member_phone: z.string().nullable(),
  role_code: z.string(),
  /** The share as a number (for display and sums); the exact value is `ownership_share`. */
  ownership_share_value: z.number().nullable(),
  area: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Resident = z.infer<typeof residentRecord>;

export const vehicleInput = z.object({
  member_id: idSchema,
  /** A parking place (realty of type parking), optional. */
  realty_id: idSchema.nullable().default(null),
  plate: text('Номерний знак', { min: 2, max: 20 }),
  brand: text('Марка', { max: 60 }).default(''),
  model: text('Модель', { max: 60 }).default(''),
  color: text('Колір', { max: 40 }).default(''),
});
export type VehicleInput = z.infer<typeof vehicleInput>;

export const vehicleRecord = z.object({
  id: z.number(),
  member_id: z.number(),
  member_name: z.string(),
  realty_id: z.number().nullable(),
  parking: z.string().nullable(),
  plate: z.string(),
  brand: z.string(),
  model: z.string(),
  color: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Vehicle = z.infer<typeof vehicleRecord>;

export const BILL_STATUSES = ['unpaid', 'partial', 'paid'] as const;
export type BillStatus = (typeof BILL_STATUSES)[number];

/** The largest sum one bill holds, in kopiyky (20 million hryvnias; a PostgreSQL integer). */
export const MAX_KOPIYKY = 2_000_000_000;

/** Kopiyky: whole, never negative. */
export const kopiyky = (label: string) =>
  z.coerce
    .number({ error: `Поле «${label}» має бути числом.` })
    .int(`Поле «${label}» — ціле число копійок.`)
    .min(0, `Поле «${label}» не може бути від'ємним.`)
    .max(MAX_KOPIYKY, `Поле «${label}» завелике.`);

export const PERIOD_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * One change of PUT /bills: by `id`, or by unit + period + service (a new charge when there is
 * none). `amount` and `paid` set the values (corrections); `payment` adds to what was paid.
 */
export const billChange = z
  .object({
    id: idSchema.optional(),
    realty_id: idSchema.optional(),
    period: z.string().regex(PERIOD_PATTERN, 'Період — у форматі РРРР-ММ.').optional(),
    service: text('Послуга', { min: 1, max: 100 }).optional(),
    amount: kopiyky('Нараховано').optional(),
    paid: kopiyky('Сплачено').optional(),
    payment: kopiyky('Платіж')
      .refine((v) => v > 0, 'Платіж має бути більшим за нуль.')
      .optional(),
  })
  .refine((c) => c.id !== undefined || (c.realty_id !== undefined && c.period !== undefined && c.service !== undefined), {
    message: 'Вкажіть рахунок (id) або приміщення, період і послугу.',
    path: ['id'],
  })
  .refine((c) => c.amount !== undefined || c.paid !== undefined || c.payment !== undefined, {
    message: 'Вкажіть суму нарахування, сплачену суму або платіж.',
    path: ['amount'],
  })
  .refine((c) => !(c.paid !== undefined && c.payment !== undefined), {
    message: 'Вкажіть або сплачену суму, або платіж, не обидва.',
    path: ['payment'],
  });

export const billsUpdate = z.object({
  bills: z.array(billChange, { error: 'Передайте список змін.' }).min(1, 'Передайте хоча б одну зміну.').max(500, 'Не більше 500 змін за раз.'),
});
export type BillsUpdate = z.infer<typeof billsUpdate>;

export const billRecord = z.object({
  id: z.number(),
  realty_id: z.number(),
  address: z.string(),
  realty_type: z.enum(REALTY_TYPES),
  realty_number: z.string(),
  /** YYYY-MM */
  period: z.string(),
  service: z.string(),
  amount: z.number(),
  paid: z.number(),
  /** amount − paid; negative when paid ahead */
  debt: z.number(),
  status: z.enum(BILL_STATUSES),
  updated_at: z.string(),
});
export type Bill = z.infer<typeof billRecord>;

export const billTotals = z.object({ amount: z.number(), paid: z.number(), debt: z.number() });
export type BillTotals = z.infer<typeof billTotals>;

export const billStatus = (amount: number, paid: number): BillStatus => (paid >= amount ? 'paid' : paid > 0 ? 'partial' : 'unpaid');
