import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { emailSchema, idSchema, text } from './common.ts';

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
export const contactGroupRecord = z.object({ id: z.number(), name: z.string(), contacts_count: z.number(), created_at: z.string(), updated_at: z.string() });
export type ContactGroup = z.infer<typeof contactGroupRecord>;

/** Multipart fields of POST /contacts_section (and PUT /contacts_section/{id}). */
export const contactSectionInput = z.object({
  complex_id: idSchema,
  name: text('Назва розділу', { min: 1, max: 150 }),
  description: text('Опис', { max: 2000 }).default(''),
  type: z.enum(SECTION_TYPES, { error: 'Тип: management, emergency, services або other.' }),
});
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
