import { z } from 'zod';
import { text } from './common.ts';
import { defineEntity } from './entity.ts';

export const residentRoleInput = z.object({
  name: text('Назва ролі', { min: 2, max: 100 }),
  holds_share: z.boolean({ error: 'Поле «Частка у власності» — так або ні.' }).default(false),
});
export type ResidentRoleInput = z.infer<typeof residentRoleInput>;

export const residentRoleRecord = z.object({
  id: z.number(),
  /** owner, co_owner, tenant, family for the four roles every organization has; a code of its own for the others. */
  code: z.string(),
  name: z.string(),
  holds_share: z.boolean(),
  /** links with this role that the reader can see */
  residents_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ResidentRole = z.infer<typeof residentRoleRecord>;

/**
 * Roles a member can have in a unit: the four every organization has (owner, co-owner, tenant,
 * family member; they cannot be deleted, and whether they hold a share stays as it is) and the
 * organization's own. A role held by residents cannot be deleted.
 */
export const residentRoleEntity = defineEntity({
  name: 'resident-roles',
  path: '/resident-roles',
  area: 'members',
  list: 'data_pagination',
  input: residentRoleInput,
  record: residentRoleRecord,
  fields: {
    name: { type: 'text', label: 'Назва ролі', required: true, max: 100, sortable: true },
    holds_share: { type: 'boolean', label: 'Частка у власності', hint: true },
    residents_count: { type: 'number', label: 'Мешканців', input: false },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, export: true },
  },
  search: ['name'],
  filters: [{ source: 'holds_share', type: 'boolean' }],
  // The four roles first, in their order; the organization's own after them.
  sorts: ['position'],
  sort: { field: 'position', order: 'asc' },
  perPage: 100,
  scope: 'organization',
  messages: {
    notFound: 'Роль мешканця не знайдено.',
    deleted: 'Роль мешканця видалено.',
    inUse: 'Роль мають мешканці, тому її не можна видалити. Спершу призначте їм іншу роль.',
  },
  exportName: 'Ролі мешканців',
  // Names are unique: two samples of one `unique` differ by a random tail.
  sample: ({ unique }) => ({ name: `Роль ${unique} ${Math.random().toString(36).slice(2, 8)}`, holds_share: false }),
});
