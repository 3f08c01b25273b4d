import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gt, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { normaliseRules, type Rules } from '../../../contract/permissions.ts';
import { STAFF_SORTS, staffForm, staffInput, staffRecord, type Staff, type StaffInput } from '../../../contract/staff.ts';
import { complexes, passwordResets, staffDepartures, staffRoles, userComplexes, users } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { accessChanged } from '../../lib/live.ts';
import { endSessions } from '../../lib/sessions.ts';
import { expectedVersion, nextVersion, staleRecord, versionMatches } from '../../lib/concurrency.ts';
import { conflict, forbidden, HttpError, notFound, unprocessable, isForeignKeyViolation, isUniqueViolation } from '../../lib/errors.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { EXPORT_FORMATS, sendExport, type ExportColumn } from '../../lib/export.ts';
import { hashPassword } from '../../lib/secrets.ts';
import { createAuthService } from '../auth/service.ts';
import { complexesInScope, departureOptions, describeRights, rightsBeyond } from './lookups.ts';

const staffFilters = z.object({
  search_query: listQuery.shape.search_query,
  role_id: idSchema.optional(),
  departure_id: idSchema.optional(),
  complex_id: idSchema.optional(),
});
const staffListQuery = listQuery.extend({
  ...staffFilters.shape,
  sort: z.enum(STAFF_SORTS, { error: 'Сортування можливе за: id, name, email, created_at.' }).default('name'),
});
const staffExportQuery = staffFilters.extend({ format: z.enum(EXPORT_FORMATS, { error: 'Формат: csv або xlsx.' }).default('csv') });

const EXPORT_COLUMNS: ExportColumn<Staff>[] = [
  { header: 'ID', value: (s) => s.id, width: 8 },
  { header: "Ім'я", value: (s) => s.name, width: 32 },
  { header: 'E-mail', value: (s) => s.email, width: 30 },
  { header: 'Телефон', value: (s) => s.phone, width: 16 },
  { header: 'Роль', value: (s) => (s.is_admin ? 'Адміністратор' : s.role), width: 22 },
  { header: 'Відділ', value: (s) => s.departure, width: 22 },
  { header: 'Комплекси', value: (s) => (s.is_admin ? 'Усі' : s.complexes.map((c) => c.name).join('; ')), width: 40 },
  { header: 'Додано', value: (s) => s.created_at.slice(0, 10).split('-').reverse().join('.'), width: 12 },
];

const params = z.object({ id: idSchema });
const tags = ['staff'];
const NOT_FOUND = 'Працівника не знайдено.';
const EMAIL_TAKEN = { email: ['Користувач з таким e-mail уже існує.'] };
const OWN_CONTACTS = 'Власні e-mail і телефон змінюються в особистих налаштуваннях, де зміну підтверджує код.';

/** Admins manage everyone; a staff user only non-admins whose role grants nothing beyond their own rights. */
function manageable(viewer: CurrentUser, targetIsAdmin: boolean, permissions: Rules | null): boolean {
  if (viewer.isAdmin) return true;
  return !targetIsAdmin && rightsBeyond(viewer, normaliseRules(permissions ?? {})).length === 0;
}

const sortKeys = { id: users.id, name: ukrainianSortKey(users.name), email: users.email, created_at: users.createdAt } as const;

/**
 * Staff: the users who sign in to the panel. An admin sees and manages everyone of the
 * organization. A staff user (with the `staff` rights) sees only non-admin colleagues who work in
 * at least one of their complexes, and themselves; they can hand out neither admin rights, nor a
 * role stronger than their own, nor complexes outside their own. A new staff member gets an
 * e-mail invitation with a link to set their password.
 */
export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const auth = createAuthService(db, app.config, app.delivery, app.live);

  /** Who the user may see: their organization, and for staff only colleagues of their complexes. */
  function scope(user: CurrentUser): SQL {
    const org = eq(users.organizationId, user.organizationId);
    if (user.complexIds === null) return org;
    const colleagues =
      user.complexIds.length === 0
        ? sql`false`
        : inArray(users.id, db.select({ id: userComplexes.userId }).from(userComplexes).where(inArray(userComplexes.complexId, user.complexIds)));
    return and(org, eq(users.isAdmin, false), or(eq(users.id, user.id), colleagues))!;
  }

  /** The list's filters: search over name, e-mail and phone; role, department and complex. */
  function staffWhere(user: CurrentUser, q: Pick<z.infer<typeof staffFilters>, 'search_query' | 'role_id' | 'departure_id' | 'complex_id'>): SQL {
    const conditions: (SQL | undefined)[] = [scope(user)];
    const search = q.search_query.trim();
    if (search) {
      const p = likePattern(search);
      conditions.push(or(ilike(users.name, p), ilike(users.email, p), ilike(users.phone, p)));
    }
    if (q.role_id) conditions.push(eq(users.roleId, q.role_id));
    if (q.departure_id) conditions.push(eq(staffRoles.departureId, q.departure_id));
    if (q.complex_id) {
      conditions.push(inArray(users.id, db.select({ id: userComplexes.userId }).from(userComplexes).where(eq(userComplexes.complexId, q.complex_id))));
    }
    return and(...conditions)!;
  }

  const selectStaff = () =>
    db
      .select({
        user: users,
        role: staffRoles.name,
        permissions: staffRoles.permissions,
        departureId: staffRoles.departureId,
        departure: staffDepartures.name,
      })
      .from(users)
      .leftJoin(staffRoles, eq(staffRoles.id, users.roleId))
      .leftJoin(staffDepartures, eq(staffDepartures.id, staffRoles.departureId));

  type StaffRow = Awaited<ReturnType<ReturnType<typeof selectStaff>['where']>>[number];

  /** Records with their complexes; a staff viewer sees only the complexes inside their own scope. */
  async function records(viewer: CurrentUser, rows: StaffRow[]): Promise<Staff[]> {
    const ids = rows.map((r) => r.user.id);
    const links =
      ids.length === 0
        ? []
        : await db
            .select({ userId: userComplexes.userId, id: complexes.id, name: complexes.name })
            .from(userComplexes)
            .innerJoin(complexes, eq(complexes.id, userComplexes.complexId))
            .where(
              and(
                inArray(userComplexes.userId, ids),
                viewer.complexIds === null ? undefined : viewer.complexIds.length ? inArray(complexes.id, viewer.complexIds) : sql`false`,
              ),
            )
            .orderBy(ukrainianSortKey(complexes.name), complexes.id);
    return rows.map(({ user, role, permissions, departureId, departure }) => {
      const mine = links.filter((l) => l.userId === user.id).map((l) => ({ id: l.id, name: l.name }));
      return {
        id: user.id,
        name: user.name,
        email: user.email,
        phone: user.phone,
        is_admin: user.isAdmin,
        role_id: user.roleId,
        role,
        departure_id: departureId,
        departure,
        complex_ids: mine.map((c) => c.id),
        complexes: mine,
        can_manage: manageable(viewer, user.isAdmin, permissions),
        invitation_pending: user.passwordSetAt === null,
        created_at: user.createdAt.toISOString(),
        updated_at: user.updatedAt.toISOString(),
      };
    });
  }

  async function findOne(viewer: CurrentUser, id: number) {
    const [row] = await selectStaff()
      .where(and(scope(viewer), eq(users.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  /** A staff user may change only colleagues whose rights are within their own. */
  async function findManageable(viewer: CurrentUser, id: number) {
    const row = await findOne(viewer, id);
    if (!manageable(viewer, row.user.isAdmin, row.permissions)) {
      throw forbidden('Цей працівник має права, яких немає у вас, тому змінити чи видалити його може лише адміністратор.');
    }
    return row;
  }

  const one = async (viewer: CurrentUser, id: number) => (await records(viewer, [await findOne(viewer, id)]))[0];

  /** Roles the user may hand out (all for admins; for staff, those within their own rights) and departments. */
  async function form(viewer: CurrentUser) {
    const roles = await db
      .select({ id: staffRoles.id, name: staffRoles.name, departure_id: staffRoles.departureId, permissions: staffRoles.permissions })
      .from(staffRoles)
      .where(eq(staffRoles.organizationId, viewer.organizationId))
      .orderBy(ukrainianSortKey(staffRoles.name), staffRoles.id);
    return {
      roles: roles
        .filter((r) => rightsBeyond(viewer, normaliseRules(r.permissions)).length === 0)
        .map((r) => ({ id: r.id, name: r.name, departure_id: r.departure_id })),
      departures: await departureOptions(db, viewer.organizationId),
    };
  }

  /**
   * Every check of a create or an update, collected into one 422 so that the form shows all
   * at once. `target` is the record being changed (absent when creating).
   */
  async function validate(viewer: CurrentUser, input: StaffInput, target?: typeof users.$inferSelect) {
    const errors: Record<string, string[]> = {};
    const self = target?.id === viewer.id;
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, input.email), target ? ne(users.id, target.id) : undefined))
      .limit(1);
    if (taken) errors.email = EMAIL_TAKEN.email;

    // One's own sign-in e-mail and phone change in the personal settings, where the current
    // password and a code sent to the new address confirm it.
    if (self && input.email !== target.email) errors.email = [OWN_CONTACTS];
    if (self && input.phone !== target.phone) errors.phone = [OWN_CONTACTS];

    if (self && input.is_admin !== target.isAdmin) errors.is_admin = ['Ви не можете змінити власні права адміністратора.'];
    else if (input.is_admin && !viewer.isAdmin) errors.is_admin = ['Призначати адміністраторів може лише адміністратор.'];

    if (self && input.role_id !== target.roleId) errors.role_id = ['Ви не можете змінити власну роль.'];
    else if (input.role_id !== null) {
      const [role] = await db
        .select({ permissions: staffRoles.permissions })
        .from(staffRoles)
        .where(and(eq(staffRoles.organizationId, viewer.organizationId), eq(staffRoles.id, input.role_id)))
        .limit(1);
      if (!role) errors.role_id = ['Роль не знайдено.'];
      else {
        const beyond = rightsBeyond(viewer, normaliseRules(role.permissions));
        if (beyond.length > 0) errors.role_id = [`Ця роль має права, яких немає у вас: ${describeRights(beyond)}.`];
      }
    } else if (!input.is_admin) errors.role_id = ['Оберіть роль працівника.'];

    if (!input.is_admin) {
      const wanted = [...new Set(input.complex_ids)];
      const found = await complexesInScope(db, viewer, wanted);
      const missing = wanted.filter((id) => !found.has(id));
      if (missing.length > 0) errors.complex_ids = [`Комплекс не знайдено: ${missing.join(', ')}.`];
      // Otherwise a staff user would lose sight of the colleague they have just created.
      else if (!viewer.isAdmin && !target && wanted.length === 0) errors.complex_ids = ['Оберіть хоча б один зі своїх комплексів.'];
    }
    if (Object.keys(errors).length > 0) throw unprocessable(errors);
  }

  /**
   * The complexes the record ends up with: what the form sent, plus (for a staff editor) the
   * complexes outside the editor's scope that the colleague already had — those the editor
   * cannot see, so cannot take away either. Admins need none.
   */
  async function complexLinks(viewer: CurrentUser, input: StaffInput, targetId?: number): Promise<number[]> {
    if (input.is_admin) return [];
    const chosen = new Set(input.complex_ids);
    if (targetId !== undefined && viewer.complexIds !== null) {
      const current = await db.select({ id: userComplexes.complexId }).from(userComplexes).where(eq(userComplexes.userId, targetId));
      for (const c of current) if (!viewer.complexIds.includes(c.id)) chosen.add(c.id);
    }
    return [...chosen];
  }

  const listAnswer = z.object({ data: paginationSchema.extend({ data: z.array(staffRecord) }), form: staffForm });

  app.get(
    '/staff',
    {
      preValidation: requirePermission('staff', 'view'),
      schema: {
        tags,
        summary: 'Працівники',
        description: 'Сторінка працівників (data.data, пагінація в data) і довідники форми (form.roles, form.departures).',
        querystring: staffListQuery,
        response: { 200: listAnswer },
      },
    },
    async (request) => {
      const q = request.query;
      const user = request.user;
      const where = staffWhere(user, q);
      const key = sortKeys[q.sort];
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(users).leftJoin(staffRoles, eq(staffRoles.id, users.roleId)).where(where),
        selectStaff()
          .where(where)
          .orderBy(q.order === 'desc' ? desc(key) : asc(key), asc(users.id))
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { data: { data: await records(user, rows), ...paginate(total, q.page, q.per_page) }, form: await form(user) };
    },
  );

  app.get(
    '/staff/export',
    {
      preValidation: requirePermission('staff', 'view'),
      schema: {
        tags,
        summary: 'Експорт працівників (CSV або XLSX)',
        description: 'Ті самі фільтри, що й у списку; усі рядки без обмеження, потоком.',
        querystring: staffExportQuery,
      },
    },
    async (request, reply) => {
      const user = request.user;
      const where = staffWhere(user, request.query);
      async function* batches() {
        let after = 0;
        for (;;) {
          const rows = await selectStaff()
            .where(and(where, gt(users.id, after)))
            .orderBy(asc(users.id))
            .limit(500);
          if (rows.length === 0) return;
          yield await records(user, rows);
          after = rows[rows.length - 1].user.id;
          if (rows.length < 500) return;
        }
      }
      return sendExport(reply, {
        format: request.query.format,
        filename: `staff-${new Date().toISOString().slice(0, 10)}`,
        sheet: 'Працівники',
        columns: EXPORT_COLUMNS,
        batches: batches(),
        onError: (err) => request.log.error({ err }, 'staff export failed'),
      });
    },
  );

  app.get(
    '/staff/:id',
    {
      preValidation: requirePermission('staff', 'view'),
      schema: { tags, summary: 'Працівник', params, response: { 200: z.object({ data: staffRecord, form: staffForm }) } },
    },
    async (request) => ({ data: await one(request.user, request.params.id), form: await form(request.user) }),
  );

  app.post(
    '/staff',
    {
      preValidation: requirePermission('staff', 'create'),
      schema: {
        tags,
        summary: 'Додати працівника',
        description: 'Новому працівникові надсилається лист-запрошення з посиланням, за яким він задає пароль (діє 7 днів).',
        body: staffInput,
        response: { 200: z.object({ data: staffRecord }) },
      },
    },
    async (request) => {
      const viewer = request.user;
      const input = request.body;
      await validate(viewer, input);
      const links = await complexLinks(viewer, input);
      // Nobody knows this password: the invitation link is the way in.
      const passwordHash = await hashPassword(randomBytes(24).toString('base64url'), app.config.passwordHashCost);
      let created: typeof users.$inferSelect;
      try {
        created = await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(users)
            .values({
              organizationId: viewer.organizationId,
              name: input.name,
              email: input.email,
              phone: input.phone,
              passwordHash,
              passwordSetAt: null,
              isAdmin: input.is_admin,
              roleId: input.role_id,
              tutorialCompleted: !input.is_admin,
            })
            .returning();
          if (links.length > 0) await tx.insert(userComplexes).values(links.map((complexId) => ({ userId: row.id, complexId })));
          return row;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(EMAIL_TAKEN);
        throw err;
      }
      const [inviter] = await db.select({ name: users.name }).from(users).where(eq(users.id, viewer.id));
      await auth.invite(created, inviter?.name ?? 'Адміністратор');
      return { data: await one(viewer, created.id) };
    },
  );

  app.put(
    '/staff/:id',
    {
      preValidation: requirePermission('staff', 'edit'),
      schema: { tags, summary: 'Змінити працівника', params, body: staffInput, response: { 200: z.object({ data: staffRecord }) } },
    },
    async (request) => {
      const viewer = request.user;
      const input = request.body;
      const { user: target } = await findManageable(viewer, request.params.id);
      // Whoever controls an account's e-mail or phone can take it over (a password link, a
      // sign-in code), so only an admin changes a colleague's, and the owner is told.
      const credentials = signInChanges(target, input);
      if (credentials.length > 0 && target.id !== viewer.id && !viewer.isAdmin) {
        throw forbidden('Змінити e-mail чи телефон колеги може лише адміністратор.');
      }
      await validate(viewer, input, target);
      if (target.isAdmin && !input.is_admin) await assertAnotherAdmin(target);
      const links = await complexLinks(viewer, input, target.id);
      const version = expectedVersion(request);
      try {
        await db.transaction(async (tx) => {
          const changed = await tx
            .update(users)
            .set({
              name: input.name,
              email: input.email,
              phone: input.phone,
              isAdmin: input.is_admin,
              roleId: input.role_id,
              updatedAt: nextVersion(users.updatedAt),
            })
            .where(and(eq(users.id, target.id), versionMatches(users.updatedAt, version)))
            .returning({ id: users.id });
          if (changed.length === 0) throw version ? staleRecord() : notFound('Працівника не знайдено.');
          await tx.delete(userComplexes).where(eq(userComplexes.userId, target.id));
          if (links.length > 0) await tx.insert(userComplexes).values(links.map((complexId) => ({ userId: target.id, complexId })));
          // A new e-mail or phone ends every session of the account; its password links die with
          // the old e-mail (they are bound to it).
          if (credentials.length > 0) await endSessions(tx, target.id);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(EMAIL_TAKEN);
        throw err;
      }
      // Rights, complexes or sessions may have changed: open live streams of the user check again.
      await accessChanged(app.live, viewer.organizationId, [target.id]);
      if (credentials.length > 0) await noticeOfChange(viewer, target, credentials);
      return { data: await one(viewer, target.id) };
    },
  );

  /** What a staff form changes of the sign-in e-mail and phone, in words for the notice. */
  function signInChanges(target: typeof users.$inferSelect, input: StaffInput): string[] {
    const out: string[] = [];
    if (input.email !== target.email) out.push(`e-mail змінено на ${input.email}`);
    if (input.phone !== target.phone) out.push(input.phone ? `телефон змінено на ${input.phone}` : 'телефон видалено');
    return out;
  }

  /** A notice to the OLD address: if the change was not expected, its owner can raise the alarm. */
  async function noticeOfChange(viewer: CurrentUser, target: typeof users.$inferSelect, changes: string[]) {
    const [admin] = await db.select({ name: users.name }).from(users).where(eq(users.id, viewer.id));
    await app.delivery.send({
      channel: 'email',
      kind: 'credentials_changed',
      to: target.email,
      organizationId: target.organizationId,
      subject: 'Змінено дані для входу',
      body:
        `Вітаємо, ${target.name}!\n\nАдміністратор ${admin?.name ?? ''} змінив дані для входу вашого облікового запису в ` +
        `адмін-панелі: ${changes.join('; ')}. Усі ваші сеанси завершено, а надіслані раніше посилання для встановлення пароля більше не ` +
        `діють.\n\nЯкщо ви цього не очікували, негайно зверніться до адміністратора.`,
    });
  }

  app.post(
    '/staff/:id/invite',
    {
      preValidation: requirePermission('staff', 'edit'),
      schema: {
        tags,
        summary: 'Надіслати запрошення ще раз',
        description: 'Новий лист із посиланням для встановлення пароля (діє 7 днів); не більше трьох листів на годину.',
        params,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const viewer = request.user;
      const { user: target } = await findManageable(viewer, request.params.id);
      if (target.id === viewer.id) throw conflict('Ви вже увійшли: запрошення собі не потрібне.');
      // An account with a password is someone's way in: only an admin sends it a password link.
      if (target.passwordSetAt !== null && !viewer.isAdmin) {
        throw forbidden('Цей працівник уже задав пароль. Надіслати йому посилання для зміни пароля може лише адміністратор.');
      }
      const [{ n }] = await db
        .select({ n: count() })
        .from(passwordResets)
        .where(and(eq(passwordResets.userId, target.id), gt(passwordResets.createdAt, new Date(Date.now() - 60 * 60_000))));
      if (Number(n) >= 3)
        throw new HttpError(429, 'Лист цьому працівникові вже надсилали тричі за останню годину. Спробуйте пізніше.', undefined, { 'Retry-After': '3600' });
      const [inviter] = await db.select({ name: users.name }).from(users).where(eq(users.id, viewer.id));
      await auth.invite(target, inviter?.name ?? 'Адміністратор');
      return {
        message: target.passwordSetAt === null ? `Запрошення надіслано на ${target.email}.` : `Посилання для зміни пароля надіслано на ${target.email}.`,
      };
    },
  );

  /** The organization must keep at least one admin, or nobody could manage it any more. */
  async function assertAnotherAdmin(target: typeof users.$inferSelect) {
    const [{ n }] = await db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.organizationId, target.organizationId), eq(users.isAdmin, true), ne(users.id, target.id)));
    if (Number(n) === 0) throw conflict('Це останній адміністратор організації: його не можна видалити чи позбавити прав адміністратора.');
  }

  app.delete(
    '/staff/:id',
    {
      preValidation: requirePermission('staff', 'delete'),
      schema: {
        tags,
        summary: 'Видалити працівника',
        description: 'Власний обліковий запис і останнього адміністратора видалити не можна (409).',
        params,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const viewer = request.user;
      const { user: target } = await findManageable(viewer, request.params.id);
      if (target.id === viewer.id) throw conflict('Ви не можете видалити власний обліковий запис.');
      if (target.isAdmin) await assertAnotherAdmin(target);
      try {
        await db.delete(users).where(eq(users.id, target.id));
      } catch (err) {
        // Records of other areas that must keep their author refuse the delete.
        if (isForeignKeyViolation(err))
          throw conflict('Працівник пов’язаний з іншими записами, тому його не можна видалити. Щоб закрити йому доступ, призначте роль без прав.');
        throw err;
      }
      // Their sessions went with them; their open live streams end now.
      await accessChanged(app.live, viewer.organizationId, [target.id]);
      return { message: 'Працівника видалено.' };
    },
  );
};
