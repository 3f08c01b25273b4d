import { and, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import {
  contactGroupInput,
  contactGroupRecord,
  contactInput,
  contactRecord,
  contactSectionInput,
  contactSectionRecord,
  SECTION_TYPES,
  type Contact,
  type ContactInput,
  type ContactSection,
} from '../../../contract/contacts.ts';
import { complexes, contactGroups, contacts, contactSections } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { conflict, notFound, unprocessable, isUniqueViolation } from '../../lib/errors.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { multipartRoutes, readForm } from '../../lib/multipart.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { complexScope } from '../../lib/scope.ts';
import { ordered } from '../../lib/order.ts';
import { plural } from '../../lib/words.ts';

const params = z.object({ id: idSchema });
const message = z.object({ message: z.string() });
const tags = ['contacts'];

const contactListQuery = listQuery.extend({
  sort: z.enum(['id', 'name', 'created_at'], { error: 'Сортування можливе за: id, name, created_at.' }).default('name'),
  section_id: idSchema.optional(),
  group_id: idSchema.optional(),
  complex_id: idSchema.optional(),
});
const groupListQuery = listQuery.extend({ sort: z.enum(['id', 'name'], { error: 'Сортування можливе за: id, name.' }).default('name'), per_page: listQuery.shape.per_page.default(100) });
const sectionListQuery = listQuery.extend({
  sort: z.enum(['id', 'name', 'type'], { error: 'Сортування можливе за: id, name, type.' }).default('name'),
  per_page: listQuery.shape.per_page.default(100),
  complex_id: idSchema.optional(),
  type: z.enum(SECTION_TYPES, { error: 'Тип: management, emergency, services або other.' }).optional(),
});

const phoneDisplay = (phone: string | null) => (phone ? (parsePhoneNumberFromString(phone)?.formatInternational() ?? phone) : null);
const GROUP_TAKEN = { name: ['Група з такою назвою вже існує.'] };

/**
 * Contacts, their groups and sections (/contacts, /contacts_groups, /contacts_section; docs/decisions.md,
 * "Community content").
 * A section belongs to a complex, so staff see the sections and contacts of their complexes
 * only; groups are the organization's. Phones are stored in E.164, links must be http(s).
 */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const sectionScope = (user: CurrentUser) => complexScope(user, { organizationId: contactSections.organizationId, complexId: contactSections.complexId });
  const visibleSections = (user: CurrentUser) => db.select({ id: contactSections.id }).from(contactSections).where(sectionScope(user));
  const contactScope = (user: CurrentUser): SQL => and(eq(contacts.organizationId, user.organizationId), user.complexIds === null ? undefined : inArray(contacts.sectionId, visibleSections(user)))!;

  // ── contacts ──
  const selectContacts = () =>
    db
      .select({ c: contacts, section: contactSections.name, complexId: contactSections.complexId, complex: complexes.name, group: contactGroups.name })
      .from(contacts)
      .innerJoin(contactSections, eq(contactSections.id, contacts.sectionId))
      .innerJoin(complexes, eq(complexes.id, contactSections.complexId))
      .leftJoin(contactGroups, eq(contactGroups.id, contacts.groupId));
  type ContactRow = Awaited<ReturnType<ReturnType<typeof selectContacts>['execute']>>[number];
  const toContact = ({ c, section, complexId, complex, group }: ContactRow): Contact => ({
    id: c.id,
    name: c.name,
    phone: c.phone,
    phone_display: phoneDisplay(c.phone),
    email: c.email,
    link: c.link,
    description: c.description,
    section_id: c.sectionId,
    section,
    complex_id: complexId,
    complex,
    group_id: c.groupId,
    group,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  });
  async function findContact(user: CurrentUser, id: number) {
    const [row] = await selectContacts()
      .where(and(contactScope(user), eq(contacts.id, id)))
      .limit(1);
    if (!row) throw notFound('Контакт не знайдено.');
    return row;
  }
  async function checkRefs(user: CurrentUser, body: ContactInput) {
    const [section] = await db.select({ id: contactSections.id }).from(contactSections).where(and(sectionScope(user), eq(contactSections.id, body.section_id))).limit(1);
    if (!section) throw unprocessable({ section_id: ['Розділ контактів не знайдено.'] });
    if (body.group_id !== null) {
      const [group] = await db.select({ id: contactGroups.id }).from(contactGroups).where(and(eq(contactGroups.organizationId, user.organizationId), eq(contactGroups.id, body.group_id))).limit(1);
      if (!group) throw unprocessable({ group_id: ['Групу не знайдено.'] });
    }
  }
  const contactValues = (b: ContactInput) => ({ name: b.name, phone: b.phone, email: b.email, link: b.link, description: b.description, sectionId: b.section_id, groupId: b.group_id });
  const oneContact = async (id: number) => toContact((await selectContacts().where(eq(contacts.id, id)))[0]);

  app.get(
    '/contacts',
    {
      preHandler: requirePermission('contacts', 'view'),
      schema: {
        tags,
        summary: 'Контакти',
        description: 'search_query — у імені, телефоні або e-mail; фільтри section_id, group_id, complex_id.',
        querystring: contactListQuery,
        response: { 200: z.object({ data: z.array(contactRecord), pagination: paginationSchema }) },
      },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [contactScope(request.user)];
      if (q.section_id !== undefined) conditions.push(eq(contacts.sectionId, q.section_id));
      if (q.group_id !== undefined) conditions.push(eq(contacts.groupId, q.group_id));
      if (q.complex_id !== undefined) conditions.push(eq(contactSections.complexId, q.complex_id));
      const search = q.search_query.trim();
      if (search) {
        const digits = search.replace(/\D/g, '');
        conditions.push(
          or(ilike(contacts.name, likePattern(search)), ilike(contacts.email, likePattern(search)), digits.length >= 3 ? ilike(contacts.phone, likePattern(digits)) : undefined),
        );
      }
      const where = and(...conditions);
      const keys = { id: contacts.id, name: ukrainianSortKey(contacts.name), created_at: contacts.createdAt }[q.sort];
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(contacts).innerJoin(contactSections, eq(contactSections.id, contacts.sectionId)).where(where),
        selectContacts()
          .where(where)
          .orderBy(...ordered([keys], q.order), q.order === 'desc' ? desc(contacts.id) : contacts.id)
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { data: rows.map(toContact), pagination: paginate(total, q.page, q.per_page) };
    },
  );
  app.get('/contacts/:id', { preHandler: requirePermission('contacts', 'view'), schema: { tags, summary: 'Контакт', params, response: { 200: z.object({ data: contactRecord }) } } }, async (request) => ({
    data: toContact(await findContact(request.user, request.params.id)),
  }));
  app.post('/contacts', { preHandler: requirePermission('contacts', 'create'), schema: { tags, summary: 'Додати контакт', body: contactInput, response: { 200: z.object({ data: contactRecord }) } } }, async (request) => {
    await checkRefs(request.user, request.body);
    const [row] = await db
      .insert(contacts)
      .values({ ...contactValues(request.body), organizationId: request.user.organizationId })
      .returning({ id: contacts.id });
    return { data: await oneContact(row.id) };
  });
  app.put('/contacts/:id', { preHandler: requirePermission('contacts', 'edit'), schema: { tags, summary: 'Змінити контакт', params, body: contactInput, response: { 200: z.object({ data: contactRecord }) } } }, async (request) => {
    await findContact(request.user, request.params.id);
    await checkRefs(request.user, request.body);
    await db
      .update(contacts)
      .set({ ...contactValues(request.body), updatedAt: new Date() })
      .where(eq(contacts.id, request.params.id));
    return { data: await oneContact(request.params.id) };
  });
  app.delete('/contacts/:id', { preHandler: requirePermission('contacts', 'delete'), schema: { tags, summary: 'Видалити контакт', params, response: { 200: message } } }, async (request) => {
    await findContact(request.user, request.params.id);
    await db.delete(contacts).where(eq(contacts.id, request.params.id));
    return { message: 'Контакт видалено.' };
  });

  // ── groups ──
  async function groupRecords(rows: (typeof contactGroups.$inferSelect)[], user: CurrentUser) {
    const ids = rows.map((r) => r.id);
    const counts = ids.length
      ? await db.select({ id: contacts.groupId, n: count() }).from(contacts).where(and(inArray(contacts.groupId, ids), contactScope(user))).groupBy(contacts.groupId)
      : [];
    const n = new Map(counts.map((c) => [c.id, Number(c.n)]));
    return rows.map((r) => ({ id: r.id, name: r.name, contacts_count: n.get(r.id) ?? 0, created_at: r.createdAt.toISOString(), updated_at: r.updatedAt.toISOString() }));
  }
  async function findGroup(user: CurrentUser, id: number) {
    const [row] = await db.select().from(contactGroups).where(and(eq(contactGroups.organizationId, user.organizationId), eq(contactGroups.id, id))).limit(1);
    if (!row) throw notFound('Групу не знайдено.');
    return row;
  }
  async function assertGroupNameFree(user: CurrentUser, name: string, exceptId?: number) {
    const [taken] = await db
      .select({ id: contactGroups.id })
      .from(contactGroups)
      .where(and(eq(contactGroups.organizationId, user.organizationId), sql`lower(${contactGroups.name}) = lower(${name})`, exceptId === undefined ? undefined : ne(contactGroups.id, exceptId)))
      .limit(1);
    if (taken) throw unprocessable(GROUP_TAKEN);
  }
  const groupOne = z.object({ data: contactGroupRecord });

  app.get(
    '/contacts_groups',
    { preHandler: requirePermission('contacts', 'view'), schema: { tags, summary: 'Групи контактів', querystring: groupListQuery, response: { 200: z.object({ data: z.array(contactGroupRecord), pagination: paginationSchema }) } } },
    async (request) => {
      const q = request.query;
      const where = and(eq(contactGroups.organizationId, request.user.organizationId), q.search_query.trim() ? ilike(contactGroups.name, likePattern(q.search_query.trim())) : undefined);
      const key = q.sort === 'id' ? contactGroups.id : ukrainianSortKey(contactGroups.name);
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(contactGroups).where(where),
        db.select().from(contactGroups).where(where).orderBy(...ordered([key], q.order), contactGroups.id).limit(q.per_page).offset((q.page - 1) * q.per_page),
      ]);
      return { data: await groupRecords(rows, request.user), pagination: paginate(total, q.page, q.per_page) };
    },
  );
  app.get('/contacts_groups/:id', { preHandler: requirePermission('contacts', 'view'), schema: { tags, summary: 'Група контактів', params, response: { 200: groupOne } } }, async (request) => ({
    data: (await groupRecords([await findGroup(request.user, request.params.id)], request.user))[0],
  }));
  app.delete(
    '/contacts_groups/:id',
    { preHandler: requirePermission('contacts', 'delete'), schema: { tags, summary: 'Видалити групу контактів', description: 'Контакти групи залишаються, без групи.', params, response: { 200: message } } },
    async (request) => {
      await findGroup(request.user, request.params.id);
      await db.delete(contactGroups).where(eq(contactGroups.id, request.params.id));
      return { message: 'Групу видалено.' };
    },
  );

  // ── sections ──
  async function sectionRecords(rows: (typeof contactSections.$inferSelect)[]): Promise<ContactSection[]> {
    const ids = rows.map((r) => r.id);
    const complexIds = [...new Set(rows.map((r) => r.complexId))];
    const [counts, names] = await Promise.all([
      ids.length ? db.select({ id: contacts.sectionId, n: count() }).from(contacts).where(inArray(contacts.sectionId, ids)).groupBy(contacts.sectionId) : [],
      complexIds.length ? db.select({ id: complexes.id, name: complexes.name }).from(complexes).where(inArray(complexes.id, complexIds)) : [],
    ]);
    const n = new Map(counts.map((c) => [c.id, Number(c.n)]));
    const name = new Map(names.map((c) => [c.id, c.name]));
    return rows.map((r) => ({
      id: r.id,
      complex_id: r.complexId,
      complex: name.get(r.complexId) ?? '',
      name: r.name,
      description: r.description,
      type: r.type,
      contacts_count: n.get(r.id) ?? 0,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
  }
  async function findSection(user: CurrentUser, id: number) {
    const [row] = await db.select().from(contactSections).where(and(sectionScope(user), eq(contactSections.id, id))).limit(1);
    if (!row) throw notFound('Розділ контактів не знайдено.');
    return row;
  }
  async function assertComplex(user: CurrentUser, complexId: number) {
    const [row] = await db
      .select({ id: complexes.id })
      .from(complexes)
      .where(and(complexScope(user, { organizationId: complexes.organizationId, complexId: complexes.id }), eq(complexes.id, complexId)))
      .limit(1);
    if (!row) throw unprocessable({ complex_id: ['Комплекс не знайдено.'] });
  }
  const sectionOne = z.object({ data: contactSectionRecord });

  app.get(
    '/contacts_section',
    {
      preHandler: requirePermission('contacts', 'view'),
      schema: { tags, summary: 'Розділи контактів', description: 'Фільтри complex_id, type.', querystring: sectionListQuery, response: { 200: z.object({ data: z.array(contactSectionRecord), pagination: paginationSchema }) } },
    },
    async (request) => {
      const q = request.query;
      const where = and(
        sectionScope(request.user),
        q.complex_id !== undefined ? eq(contactSections.complexId, q.complex_id) : undefined,
        q.type ? eq(contactSections.type, q.type) : undefined,
        q.search_query.trim() ? ilike(contactSections.name, likePattern(q.search_query.trim())) : undefined,
      );
      const key = { id: contactSections.id, name: ukrainianSortKey(contactSections.name), type: contactSections.type }[q.sort];
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(contactSections).where(where),
        db.select().from(contactSections).where(where).orderBy(...ordered([key], q.order), contactSections.id).limit(q.per_page).offset((q.page - 1) * q.per_page),
      ]);
      return { data: await sectionRecords(rows), pagination: paginate(total, q.page, q.per_page) };
    },
  );
  app.get('/contacts_section/:id', { preHandler: requirePermission('contacts', 'view'), schema: { tags, summary: 'Розділ контактів', params, response: { 200: sectionOne } } }, async (request) => ({
    data: (await sectionRecords([await findSection(request.user, request.params.id)]))[0],
  }));
  app.delete(
    '/contacts_section/:id',
    { preHandler: requirePermission('contacts', 'delete'), schema: { tags, summary: 'Видалити розділ контактів', description: 'Розділ з контактами видалити не можна (409).', params, response: { 200: message } } },
    async (request) => {
      const row = await findSection(request.user, request.params.id);
      const [{ n }] = await db.select({ n: count() }).from(contacts).where(eq(contacts.sectionId, row.id));
      if (n > 0) throw conflict(`У розділі ${n} ${plural(n, ['контакт', 'контакти', 'контактів'])}, тому його не можна видалити. Спершу перенесіть або видаліть їх.`);
      await db.delete(contactSections).where(eq(contactSections.id, row.id));
      return { message: 'Розділ видалено.' };
    },
  );

  await multipartRoutes(app, (mp) => {
    const groupForm = (request: Parameters<typeof readForm>[0]) => readForm(request, contactGroupInput, { storage: app.storage });
    mp.post('/contacts_groups', { preHandler: requirePermission('contacts', 'create'), schema: { tags, summary: 'Додати групу контактів', description: 'multipart/form-data: name.', consumes: ['multipart/form-data'], response: { 200: groupOne } } }, async (request) => {
      const { body } = await groupForm(request);
      await assertGroupNameFree(request.user, body.name);
      try {
        const [row] = await db.insert(contactGroups).values({ organizationId: request.user.organizationId, name: body.name }).returning();
        return { data: (await groupRecords([row], request.user))[0] };
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(GROUP_TAKEN);
        throw err;
      }
    });
    mp.post(
      '/contacts_groups/:id',
      { preHandler: requirePermission('contacts', 'edit'), schema: { tags, summary: 'Перейменувати групу контактів', description: 'multipart/form-data: name.', params, consumes: ['multipart/form-data'], response: { 200: groupOne } } },
      async (request) => {
        await findGroup(request.user, request.params.id);
        const { body } = await groupForm(request);
        await assertGroupNameFree(request.user, body.name, request.params.id);
        try {
          const [row] = await db.update(contactGroups).set({ name: body.name, updatedAt: new Date() }).where(eq(contactGroups.id, request.params.id)).returning();
          return { data: (await groupRecords([row], request.user))[0] };
        } catch (err) {
          if (isUniqueViolation(err)) throw unprocessable(GROUP_TAKEN);
          throw err;
        }
      },
    );
    const sectionForm = (request: Parameters<typeof readForm>[0]) => readForm(request, contactSectionInput, { storage: app.storage });
    mp.post(
      '/contacts_section',
      { preHandler: requirePermission('contacts', 'create'), schema: { tags, summary: 'Додати розділ контактів', description: 'multipart/form-data: complex_id, name, description, type.', consumes: ['multipart/form-data'], response: { 200: sectionOne } } },
      async (request) => {
        const { body } = await sectionForm(request);
        await assertComplex(request.user, body.complex_id);
        const [row] = await db
          .insert(contactSections)
          .values({ organizationId: request.user.organizationId, complexId: body.complex_id, name: body.name, description: body.description, type: body.type })
          .returning();
        return { data: (await sectionRecords([row]))[0] };
      },
    );
    mp.put(
      '/contacts_section/:id',
      { preHandler: requirePermission('contacts', 'edit'), schema: { tags, summary: 'Змінити розділ контактів', description: 'multipart/form-data, як для додавання.', params, consumes: ['multipart/form-data'], response: { 200: sectionOne } } },
      async (request) => {
        await findSection(request.user, request.params.id);
        const { body } = await sectionForm(request);
        await assertComplex(request.user, body.complex_id);
        const [row] = await db
          .update(contactSections)
          .set({ complexId: body.complex_id, name: body.name, description: body.description, type: body.type, updatedAt: new Date() })
          .where(eq(contactSections.id, request.params.id))
          .returning();
        return { data: (await sectionRecords([row]))[0] };
      },
    );
  });
};
