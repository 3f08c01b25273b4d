import { and, count, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  contactEntity,
  contactGroupEntity,
  contactSectionEntity,
  type ContactGroupInput,
  type ContactInput,
  type ContactSectionInput,
} from '../../../contract/contacts.ts';
import { complexes, contactGroups, contacts, contactSections } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { conflict } from '../../lib/errors.ts';
import { likePattern } from '../../lib/list.ts';
import { complexScope } from '../../lib/scope.ts';
import { plural } from '../../lib/words.ts';

const phoneDisplay = (phone: string | null) => (phone ? (parsePhoneNumberFromString(phone)?.formatInternational() ?? phone) : null);
const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

/** A contact's complex: its section's. */
const contactComplex = sql`(select ${contactSections.complexId} from ${contactSections} where ${contactSections.id} = ${contacts.sectionId})`;
const contactScope = (user: CurrentUser) => complexScope(user, { organizationId: contacts.organizationId, complexId: contactComplex as never });

/** Sections: scoped like their complex; one with contacts cannot be deleted (409 saying how many). */
const sectionRoutes = crudRoutes(contactSectionEntity, {
  table: contactSections,
  columns: { name: contactSections.name, type: contactSections.type, complex_id: contactSections.complexId },
  complexColumn: contactSections.complexId,
  async toRecords({ db }, rows) {
    const ids = rows.map((r) => r.id);
    const complexIds = [...new Set(rows.map((r) => r.complexId))];
    const [counts, names] = await Promise.all([
      ids.length ? db.select({ id: contacts.sectionId, n: count() }).from(contacts).where(inArray(contacts.sectionId, ids)).groupBy(contacts.sectionId) : [],
      complexIds.length ? db.select({ id: complexes.id, name: complexes.name }).from(complexes).where(inArray(complexes.id, complexIds)) : [],
    ]);
    const n = new Map(counts.map((c) => [c.id, Number(c.n)]));
    const name = byId(names);
    return rows.map((r) => ({
      id: r.id,
      complex_id: r.complexId,
      complex: name.get(r.complexId)?.name ?? '',
      name: r.name,
      description: r.description,
      type: r.type,
      contacts_count: n.get(r.id) ?? 0,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
  },
  values: (b: ContactSectionInput) => ({ complexId: b.complex_id, name: b.name, description: b.description, type: b.type }),
  async beforeDelete({ db }, id) {
    const [{ n }] = await db.select({ n: count() }).from(contacts).where(eq(contacts.sectionId, id));
    if (n > 0)
      throw conflict(`У розділі ${n} ${plural(n, ['контакт', 'контакти', 'контактів'])}, тому його не можна видалити. Спершу перенесіть або видаліть їх.`);
  },
});

/** Groups: the organization's, names unique regardless of case; deleting one keeps its contacts, without a group. */
const groupRoutes = crudRoutes(contactGroupEntity, {
  table: contactGroups,
  columns: { name: contactGroups.name },
  async toRecords({ db, user }, rows) {
    const ids = rows.map((r) => r.id);
    const counts = ids.length
      ? await db
          .select({ id: contacts.groupId, n: count() })
          .from(contacts)
          .where(and(inArray(contacts.groupId, ids), contactScope(user)))
          .groupBy(contacts.groupId)
      : [];
    const n = new Map(counts.map((c) => [c.id, Number(c.n)]));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      contacts_count: n.get(r.id) ?? 0,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
  },
  values: (b: ContactGroupInput) => ({ name: b.name }),
  // Names are unique in the organization whatever the case: checked before the write and when the index refuses it.
  unique: { field: 'name', message: 'Група з такою назвою вже існує.' },
});

/** Contacts: phones stored in E.164 and shown as people read them; search by name, e-mail or phone digits. */
const contactOnlyRoutes = crudRoutes(contactEntity, {
  table: contacts,
  columns: {
    name: contacts.name,
    created_at: contacts.createdAt,
    section_id: contacts.sectionId,
    group_id: contacts.groupId,
    phone: contacts.phone,
    email: contacts.email,
  },
  complexColumn: contactComplex,
  async toRecords({ db }, rows) {
    const sectionIds = [...new Set(rows.map((r) => r.sectionId))];
    const groupIds = [...new Set(rows.flatMap((r) => (r.groupId === null ? [] : [r.groupId])))];
    const [sections, groups] = await Promise.all([
      sectionIds.length
        ? db
            .select({ id: contactSections.id, name: contactSections.name, complexId: contactSections.complexId, complex: complexes.name })
            .from(contactSections)
            .innerJoin(complexes, eq(complexes.id, contactSections.complexId))
            .where(inArray(contactSections.id, sectionIds))
        : [],
      groupIds.length ? db.select({ id: contactGroups.id, name: contactGroups.name }).from(contactGroups).where(inArray(contactGroups.id, groupIds)) : [],
    ]);
    const section = byId(sections);
    const group = byId(groups);
    return rows.map((c) => {
      const s = section.get(c.sectionId);
      return {
        id: c.id,
        name: c.name,
        phone: c.phone,
        phone_display: phoneDisplay(c.phone),
        email: c.email,
        link: c.link,
        description: c.description,
        section_id: c.sectionId,
        section: s?.name ?? '',
        complex_id: s?.complexId ?? 0,
        complex: s?.complex ?? '',
        group_id: c.groupId,
        group: c.groupId === null ? null : (group.get(c.groupId)?.name ?? null),
        created_at: c.createdAt.toISOString(),
        updated_at: c.updatedAt.toISOString(),
      };
    });
  },
  values: (b: ContactInput) => ({
    name: b.name,
    phone: b.phone,
    email: b.email,
    link: b.link,
    description: b.description,
    sectionId: b.section_id,
    groupId: b.group_id,
  }),
  search(_ctx, text) {
    const digits = text.replace(/\D/g, '');
    const phoneLike = /^[\d\s()+-]+$/.test(text) && digits.length >= 3;
    return or(
      ilike(contacts.name, likePattern(text)),
      ilike(contacts.email, likePattern(text)),
      phoneLike ? ilike(contacts.phone, likePattern(digits)) : undefined,
    );
  },
});

/**
 * Contacts, their groups and sections (SPEC.md: /contacts, /contacts_groups, /contacts_section):
 * the generic CRUD of their declarations (contract/contacts.ts). A section belongs to a complex,
 * so staff see the sections and contacts of their complexes only; groups are the organization's.
 */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(sectionRoutes);
  await app.register(groupRoutes);
  await app.register(contactOnlyRoutes);
};
