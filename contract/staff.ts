import { z } from 'zod';
import { emailSchema, idSchema, text } from './common.ts';
import { defineEntity } from './entity.ts';
import { ACTIONS, AREAS, type Action, type Area, type Rules } from './permissions.ts';

/** A department of the management company (the spec's "staff departure"). */
export const departureInput = z.object({ name: text('Назва відділу', { min: 2, max: 100 }) });
export const departureRecord = z.object({
  id: z.number(),
  name: z.string(),
  roles_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Departure = z.infer<typeof departureRecord>;

/**
 * Departments of the management company: the organization's whole list (no pages), every write
 * answering the new list (`data`) and the record's `id`; guarded by the `staff_roles` area.
 */
export const departureEntity = defineEntity({
  name: 'staff-departures',
  path: '/staff_departure',
  area: 'staff_roles',
  list: 'data_list',
  one: 'list_id',
  create: 'list_id',
  update: 'list_id',
  input: departureInput,
  record: departureRecord,
  fields: {
    name: { type: 'text', label: 'Назва відділу', required: true, max: 100, sortable: true },
    roles_count: { type: 'number', label: 'Ролей', input: false },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, sortable: true, export: true },
  },
  search: ['name'],
  sort: { field: 'name', order: 'asc' },
  scope: 'organization',
  messages: {
    notFound: 'Відділ не знайдено.',
    deleted: 'Відділ видалено.',
    inUse: 'У відділі є ролі, тому його не можна видалити. Спершу перенесіть ролі до іншого відділу.',
  },
  exportName: 'Відділи',
  // Names are unique: two samples of one `unique` differ by a random tail.
  sample: ({ unique }) => ({ name: `Відділ ${unique} ${Math.random().toString(36).slice(2, 8)}` }),
});

const actionList = z.array(z.enum(ACTIONS, { error: 'Дія — одна з: view, create, edit, delete.' }), {
  error: 'Права області — список дій.',
});

/**
 * Permissions per area: `{ complexes: ['view', 'edit'], ... }`. Unknown areas are refused, so
 * that a typo does not silently grant nothing; an action other than view implies view.
 */
export const rulesSchema = z
  .record(z.string(), actionList, { error: "Права — об'єкт «область → дії»." })
  .superRefine((value, ctx) => {
    for (const key of Object.keys(value)) {
      if (!(AREAS as readonly string[]).includes(key)) ctx.addIssue({ code: 'custom', message: `Невідома область прав: ${key}.`, path: [key] });
    }
  })
  .transform((value) => {
    const out: Rules = {};
    for (const area of AREAS) {
      const given = new Set(value[area] ?? []);
      if (given.size > 0) given.add('view');
      const actions = ACTIONS.filter((a) => given.has(a));
      if (actions.length > 0) out[area] = actions;
    }
    return out;
  });

export const roleInput = z.object({
  name: text('Назва ролі', { min: 2, max: 100 }),
  departure_id: idSchema.nullable().default(null),
  permissions: rulesSchema.default({}),
});
export type RoleInput = z.infer<typeof roleInput>;

export const roleRecord = z.object({
  id: z.number(),
  name: z.string(),
  departure_id: z.number().nullable(),
  departure: z.string().nullable(),
  permissions: z.record(z.string(), z.array(z.string())),
  staff_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Role = z.infer<typeof roleRecord>;

/**
 * Staff roles with their permission matrix: the organization's whole list (no pages), every write
 * answering the new list (`data`), the departments for the form (`form.departures`) and the
 * record's `id`. The matrix (`permissions`) is the screen's own input, not a declared field.
 */
export const staffRoleEntity = defineEntity({
  name: 'staff-roles',
  path: '/staff_role',
  area: 'staff_roles',
  list: 'data_list',
  one: 'list_id',
  create: 'list_id',
  update: 'list_id',
  input: roleInput,
  record: roleRecord,
  fields: {
    name: { type: 'text', label: 'Назва ролі', required: true, max: 100, sortable: true },
    departure_id: { type: 'reference', label: 'Відділ', reference: 'staff-departures', optionText: 'name', display: 'departure', export: false },
    departure: { type: 'text', label: 'Відділ', input: false, list: false, export: true },
    staff_count: { type: 'number', label: 'Працівників', input: false },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, sortable: true, export: true },
  },
  search: ['name'],
  filters: [{ source: 'departure_id', type: 'reference', reference: 'staff-departures', optionText: 'name' }],
  sort: { field: 'name', order: 'asc' },
  scope: 'organization',
  messages: {
    notFound: 'Роль не знайдено.',
    deleted: 'Роль видалено.',
    inUse: 'Роль призначено працівникам, тому її не можна видалити. Спершу призначте їм іншу роль.',
  },
  exportName: 'Ролі працівників',
  // Names are unique: two samples of one `unique` differ by a random tail.
  sample: ({ unique, refs }) => ({
    name: `Роль ${unique} ${Math.random().toString(36).slice(2, 8)}`,
    departure_id: refs['staff-departures'],
    // No rights: a staff member of this role (the staff sample) is weaker than anyone who manages staff.
    permissions: {},
  }),
});

export const option = z.object({ id: z.number(), name: z.string() });
export const roleOption = option.extend({ departure_id: z.number().nullable() });

/** Staff (users who sign in). Complexes only matter for non-admins: admins see every complex. */
export const staffInput = z.object({
  name: text("Ім'я", { min: 2, max: 150 }),
  email: emailSchema,
  phone: text('Телефон', { max: 30 })
    .refine((v) => v === '' || /^\+?[0-9 ()-]{7,20}$/.test(v), 'Вкажіть телефон у форматі +380XXXXXXXXX.')
    .nullable()
    .default(null)
    .transform((v) => (v ? v : null)),
  is_admin: z.boolean({ error: 'Поле «Адміністратор» — так або ні.' }).default(false),
  role_id: idSchema.nullable().default(null),
  complex_ids: z.array(idSchema, { error: 'Комплекси — список ідентифікаторів.' }).max(1000).default([]),
});
export type StaffInput = z.infer<typeof staffInput>;

export const staffRecord = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  is_admin: z.boolean(),
  role_id: z.number().nullable(),
  role: z.string().nullable(),
  departure_id: z.number().nullable(),
  departure: z.string().nullable(),
  complex_ids: z.array(z.number()),
  complexes: z.array(option),
  /** Whether the reader may change or delete this person: not when their role is stronger than the reader's. */
  can_manage: z.boolean(),
  /** The person has not chosen a password yet: the invitation may be sent again (only an admin sends a password link otherwise). */
  invitation_pending: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Staff = z.infer<typeof staffRecord>;

export const STAFF_SORTS = ['id', 'name', 'email', 'created_at'] as const;

/** A sample's e-mail: unique, and ASCII whatever the unique word is. */
const sampleEmail = (unique: string) =>
  `staff-${[...unique].map((c) => c.charCodeAt(0).toString(36)).join('')}-${Math.random().toString(36).slice(2, 8)}@test.ua`;

/**
 * Staff: the users who sign in to the panel, with the complexes they work in. The CRUD part of
 * the declaration: the list (`data.data` with the form's choices in `form`), the record, the
 * export. Invitations, the rules about rights and one's own account are the server's
 * (server/modules/staff/routes.ts); the role and the complexes are the screen's own inputs.
 */
export const staffEntity = defineEntity({
  name: 'staff',
  path: '/staff',
  area: 'staff',
  list: 'data.data',
  input: staffInput,
  record: staffRecord,
  fields: {
    name: { type: 'text', label: "Ім'я", required: true, max: 150, sortable: true },
    email: { type: 'email', label: 'E-mail', required: true, max: 254, sortable: true },
    phone: { type: 'phone', label: 'Телефон', max: 30 },
    is_admin: { type: 'boolean', label: 'Адміністратор', list: false, export: false },
    role: { type: 'text', label: 'Роль', input: false },
    departure: { type: 'text', label: 'Відділ', input: false },
    complexes: { type: 'text', label: 'Комплекси', optionText: 'name', input: false },
    created_at: { type: 'date', label: 'Додано', input: false, list: false, sortable: true, export: true },
  },
  search: ['name', 'email', 'phone'],
  filters: [
    { source: 'role_id', type: 'reference', reference: 'staff-roles', optionText: 'name' },
    { source: 'departure_id', type: 'reference', reference: 'staff-departures', optionText: 'name' },
  ],
  sort: { field: 'name', order: 'asc' },
  scope: 'complex',
  messages: {
    notFound: 'Працівника не знайдено.',
    deleted: 'Працівника видалено.',
    inUse: 'Працівник пов’язаний з іншими записами, тому його не можна видалити. Щоб закрити йому доступ, призначте роль без прав.',
  },
  exportName: 'Працівники',
  /** A role to give: the sample's role must be within the rights of whoever creates the sample. */
  sampleRefs: ['staff-roles'],
  sample: ({ complexId, unique, refs }) => ({
    name: `Працівник ${unique}`,
    email: sampleEmail(unique),
    phone: '+380671234567',
    is_admin: false,
    role_id: refs['staff-roles'],
    complex_ids: [complexId],
  }),
});

export const staffForm = z.object({ roles: z.array(roleOption), departures: z.array(option) });
export type StaffForm = z.infer<typeof staffForm>;

/** A kind of service request and who handles it: staff roles and default performers. */
export const requestTypeInput = z.object({
  name: text('Назва типу', { min: 2, max: 100 }),
  description: text('Опис', { max: 1000 }).default(''),
  /** Hours a new request of the type has until its deadline; empty: the product default. */
  deadline_hours: z
    .preprocess(
      (v) => (v === '' || v === undefined ? null : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
      z
        .number({ error: 'Термін виконання — кількість годин.' })
        .int('Термін виконання — ціла кількість годин.')
        .min(1, 'Термін виконання — щонайменше 1 година.')
        .max(24 * 365, 'Термін виконання — не більше року.')
        .nullable(),
    )
    .default(null),
  role_ids: z.array(idSchema, { error: 'Ролі — список ідентифікаторів.' }).max(100).default([]),
  staff_ids: z.array(idSchema, { error: 'Працівники — список ідентифікаторів.' }).max(100).default([]),
});
export type RequestTypeInput = z.infer<typeof requestTypeInput>;

export const requestTypeRecord = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  deadline_hours: z.number().nullable(),
  role_ids: z.array(z.number()),
  roles: z.array(option),
  staff_ids: z.array(z.number()),
  staff: z.array(option),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RequestType = z.infer<typeof requestTypeRecord>;

export const REQUEST_TYPE_SORTS = ['id', 'name', 'created_at'] as const;

/**
 * Service request types of the organization («Сантехніка», «Ліфт», …): shared by every complex,
 * with the staff roles that handle each and the staff a new request of the type goes to. Roles
 * and staff are chosen from `GET /service_request-types/form` (the screen's own inputs); the list
 * also takes `role_id`.
 */
export const requestTypeEntity = defineEntity({
  name: 'service-request-types',
  path: '/service-request-types',
  area: 'service_request_types',
  list: 'data_pagination',
  input: requestTypeInput,
  record: requestTypeRecord,
  fields: {
    name: { type: 'text', label: 'Назва', required: true, max: 100, sortable: true },
    description: { type: 'multiline', label: 'Опис', max: 1000, wide: true },
    deadline_hours: { type: 'number', label: 'Термін виконання, год', min: 1, max: 24 * 365, list: false, export: true, hint: true },
    roles: { type: 'tags', label: 'Ролі', input: false },
    staff: { type: 'tags', label: 'Виконавці за замовчуванням', input: false },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, sortable: true, export: true },
  },
  search: ['name'],
  sort: { field: 'name', order: 'asc' },
  scope: 'organization',
  messages: { notFound: 'Тип заявки не знайдено.', deleted: 'Тип заявки видалено.', inUse: 'Тип заявки не можна видалити: є заявки цього типу.' },
  exportName: 'Типи заявок',
  // Names are unique: two samples of one `unique` differ by a random tail.
  sample: ({ unique }) => ({
    name: `Покрівля ${unique} ${Math.random().toString(36).slice(2, 8)}`,
    description: 'Протікання даху',
    deadline_hours: 48,
    role_ids: [],
    staff_ids: [],
  }),
});

export const requestTypeForm = z.object({ staff: z.array(option.extend({ role_id: z.number().nullable() })), roles: z.array(option) });
export type RequestTypeForm = z.infer<typeof requestTypeForm>;

/**
 * What `rules` grants beyond `limit`: a user may only hand out (in a role, or by assigning a
 * role) the rights they hold themselves.
 */
export function excessRules(rules: Rules, limit: Rules): { area: Area; action: Action }[] {
  const out: { area: Area; action: Action }[] = [];
  for (const area of AREAS) for (const action of rules[area] ?? []) if (!limit[area]?.includes(action)) out.push({ area, action });
  return out;
}
