import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { emailSchema, idSchema, text } from './common.ts';
import { defineEntity } from './entity.ts';

export const SECTION_TYPES = ['management', 'emergency', 'services', 'other'] as const;
export type SectionType = (typeof SECTION_TYPES)[number];

/** A phone in any usual Ukrainian or international writing, normalised to E.164 (+380…). */
export const phoneSchema = z
  .string({ error: 'Телефон має бути текстом.' })
  .trim()
  .max(30, 'Телефон задовгий.')
  .transform((v, ctx) => {
    const parsed = parsePhoneNumberFromString(v, 'UA');
    if (!parsed || !parsed.isValid()) {
      ctx.addIssue({ code: 'custom', message: 'Вкажіть коректний номер телефону, напр. +380 44 123 45 67.' });
      return z.NEVER;
    }
    return parsed.number as string;
  });

/** Only web links: http(s), with a host. */
export const linkSchema = z
  .string({ error: 'Посилання має бути текстом.' })
  .trim()
  .max(500, 'Посилання задовге.')
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.');
    } catch {
      return false;
    }
  }, 'Вкажіть посилання, що починається з https:// або http://.');

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

export const contactInput = z
  .object({
    name: text("Ім'я або назва", { min: 1, max: 200 }),
    phone: z.preprocess(emptyToNull, phoneSchema.nullable()).default(null),
    email: z.preprocess(emptyToNull, emailSchema.nullable()).default(null),
    link: z.preprocess(emptyToNull, linkSchema.nullable()).default(null),
    description: text('Опис', { max: 2000 }).default(''),
    section_id: idSchema,
    group_id: z.preprocess(emptyToNull, idSchema.nullable()).default(null),
  })
  .refine((v) => v.phone !== null || v.email !== null || v.link !== null, { message: 'Вкажіть телефон, e-mail або посилання.', path: ['phone'] });
export type ContactInput = z.infer<typeof contactInput>;

export const contactRecord = z.object({
  id: z.number(),
  name: z.string(),
  phone: z.string().nullable(),
  /** The phone as people read it: +380 44 123 4567. */
  phone_display: z.string().nullable(),
  email: z.string().nullable(),
  link: z.string().nullable(),
  description: z.string(),
  section_id: z.number(),
  section: z.string(),
  complex_id: z.number(),
  complex: z.string(),
  group_id: z.number().nullable(),
  group: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Contact = z.infer<typeof contactRecord>;

/** Multipart `name` of POST /contacts_groups and POST /contacts_groups/{id}. */
export const contactGroupInput = z.object({ name: text('Назва групи', { min: 1, max: 100 }) });
export type ContactGroupInput = z.infer<typeof contactGroupInput>;
export const contactGroupRecord = z.object({ id: z.number(), name: z.string(), contacts_count: z.number(), created_at: z.string(), updated_at: z.string() });
export type ContactGroup = z.infer<typeof contactGroupRecord>;

/** Multipart fields of POST /contacts_section (and PUT /contacts_section/{id}). */
export const contactSectionInput = z.object({
  complex_id: idSchema,
  name: text('Назва розділу', { min: 1, max: 150 }),
  description: text('Опис', { max: 2000 }).default(''),
  type: z.enum(SECTION_TYPES, { error: 'Тип: management, emergency, services або other.' }),
});
export type ContactSectionInput = z.infer<typeof contactSectionInput>;
export const contactSectionRecord = z.object({
  id: z.number(),
  complex_id: z.number(),
  complex: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.enum(SECTION_TYPES),
  contacts_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ContactSection = z.infer<typeof contactSectionRecord>;

/** Section types in Ukrainian (exports; the SPA's labels are `resources.contacts_section.options.type.*`). */
const SECTION_TYPE_LABELS: Record<SectionType, string> = { management: 'Керуюча компанія', emergency: 'Аварійні служби', services: 'Сервіси', other: 'Інше' };

/** Sections: blocks of contacts on a complex's page, each of a type; scoped like their complex. */
export const contactSectionEntity = defineEntity({
  name: 'contacts_section',
  path: '/contacts_section',
  area: 'contacts',
  list: 'data_pagination',
  encoding: 'multipart',
  input: contactSectionInput,
  record: contactSectionRecord,
  fields: {
    name: { type: 'text', label: 'Назва', required: true, max: 150, sortable: true },
    complex_id: { type: 'reference', label: 'Комплекс', required: true, reference: 'complexes', optionText: 'name', list: false, export: false },
    complex: { type: 'text', label: 'Комплекс', input: false },
    type: { type: 'enum', label: 'Тип', required: true, options: SECTION_TYPES, optionLabels: SECTION_TYPE_LABELS, sortable: true },
    description: { type: 'multiline', label: 'Опис', max: 2000, wide: true },
    contacts_count: { type: 'number', label: 'Контактів', input: false },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, export: true },
  },
  search: ['name'],
  filters: [
    { source: 'complex_id', type: 'reference', reference: 'complexes', optionText: 'name' },
    { source: 'type', type: 'enum' },
  ],
  sort: { field: 'name', order: 'asc' },
  scope: 'complex',
  perPage: 100,
  messages: { notFound: 'Розділ контактів не знайдено.', deleted: 'Розділ видалено.', inUse: 'Розділ не можна видалити: у ньому є контакти.' },
  exportName: 'Розділи контактів',
  sample: ({ complexId, unique }) => ({ complex_id: complexId, name: `Служби ${unique}`, description: 'Офіс у холі', type: 'management' as const }),
});

/** Groups of the organization's contacts (Сантехніки, Електрики, ...): renamed with POST, as the API always did. */
export const contactGroupEntity = defineEntity({
  name: 'contacts_groups',
  path: '/contacts_groups',
  area: 'contacts',
  list: 'data_pagination',
  updateMethod: 'POST',
  encoding: 'multipart',
  input: contactGroupInput,
  record: contactGroupRecord,
  fields: {
    name: { type: 'text', label: 'Назва', required: true, max: 100, sortable: true },
    contacts_count: { type: 'number', label: 'Контактів', input: false },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, export: true },
  },
  search: ['name'],
  sort: { field: 'name', order: 'asc' },
  scope: 'organization',
  perPage: 100,
  messages: { notFound: 'Групу не знайдено.', deleted: 'Групу видалено.', inUse: 'Групу не можна видалити: на неї посилаються інші записи.' },
  exportName: 'Групи контактів',
  sample: ({ unique }) => ({ name: `Група ${unique}` }),
});

/** Contacts: in a section (so scoped like the section's complex), maybe in a group. */
export const contactEntity = defineEntity({
  name: 'contacts',
  path: '/contacts',
  area: 'contacts',
  list: 'data_pagination',
  input: contactInput,
  record: contactRecord,
  fields: {
    name: { type: 'text', label: "Ім'я або назва", required: true, max: 200, sortable: true },
    phone: { type: 'phone', label: 'Телефон', max: 30, display: 'phone_display', hint: true },
    email: { type: 'email', label: 'E-mail', max: 254 },
    link: { type: 'url', label: 'Посилання', max: 500, list: false, export: true, hint: true },
    section_id: { type: 'reference', label: 'Розділ', required: true, reference: 'contacts_section', optionText: 'name', display: 'section', export: false },
    section: { type: 'text', label: 'Розділ', input: false, list: false, export: true },
    complex: { type: 'text', label: 'Комплекс', input: false },
    group_id: { type: 'reference', label: 'Група', reference: 'contacts_groups', optionText: 'name', display: 'group', export: false },
    group: { type: 'text', label: 'Група', input: false, list: false, export: true },
    description: { type: 'multiline', label: 'Опис', max: 2000, list: false, export: true, wide: true },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, sortable: true, export: true },
  },
  search: ['name', 'phone', 'email'],
  filters: [
    { source: 'section_id', type: 'reference', reference: 'contacts_section', optionText: 'name' },
    { source: 'group_id', type: 'reference', reference: 'contacts_groups', optionText: 'name' },
  ],
  sort: { field: 'name', order: 'asc' },
  scope: 'complex',
  form: 'page',
  messages: { notFound: 'Контакт не знайдено.', deleted: 'Контакт видалено.', inUse: 'Контакт не можна видалити: на нього посилаються інші записи.' },
  exportName: 'Контакти',
  sample: ({ unique, refs }) => ({
    name: `Диспетчер ${unique}`,
    phone: '067 123 45 67',
    email: null,
    link: null,
    description: 'Цілодобово',
    section_id: refs.contacts_section,
    group_id: refs.contacts_groups,
  }),
});
