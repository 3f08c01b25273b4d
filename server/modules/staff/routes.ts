import { randomBytes } from 'node:crypto';
import { and, count, eq, gt, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { FULL_RULES, normaliseRules, type Rules } from '../../../contract/permissions.ts';
import { staffEntity, staffForm, type Staff, type StaffInput } from '../../../contract/staff.ts';
import { complexes, passwordResets, staffDepartures, staffRoles, userComplexes, users } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { requirePermission } from '../../lib/auth.ts';
import { crudRoutes } from '../../crud/routes.ts';
import type { CrudContext } from '../../crud/types.ts';
import { isoSql, LIST_PAGE, pageArray, sqlArray } from '../../lib/jsonSql.ts';
import { accessChanged } from '../../lib/live.ts';
import { endSessions } from '../../lib/sessions.ts';
import { conflict, forbidden, HttpError, notFound, unprocessable } from '../../lib/errors.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { hashPassword } from '../../lib/secrets.ts';
import { createAuthService } from '../auth/service.ts';
import { complexesInScope, describeRights, rightsBeyond } from './lookups.ts';
import { staffComplexes } from '../../lib/scope.ts';

type UserRow = typeof users.$inferSelect;

const params = z.object({ id: idSchema });
const tags = ['staff'];
const EMAIL_TAKEN = { email: ['Користувач з таким e-mail уже існує.'] };
const OWN_CONTACTS = 'Власні e-mail і телефон змінюються в особистих налаштуваннях, де зміну підтверджує код.';

/** Admins manage everyone; a staff user only non-admins whose role grants nothing beyond their own rights. */
function manageable(viewer: CurrentUser, targetIsAdmin: boolean, permissions: Rules | null): boolean {
  if (viewer.isAdmin) return true;
  return !targetIsAdmin && rightsBeyond(viewer, normaliseRules(permissions ?? {})).length === 0;
}

/**
 * Staff: the users who sign in to the panel. An admin sees and manages everyone of the
 * organization. A staff user (with the `staff` rights) sees only non-admin colleagues who work in
 * at least one of their complexes, and themselves; they can hand out neither admin rights, nor a
 * role stronger than their own, nor complexes outside their own. A new staff member gets an
 * e-mail invitation with a link to set their password. List, record, create, update, delete and
 * export are the generic routes of the declaration (contract/staff.ts), with these rules as hooks.
 */
export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const auth = createAuthService(db, app.config, app.delivery, app.live);

  /** Who the user may see: for staff only non-admin colleagues of their complexes, and themselves. */
  function scope(user: CurrentUser): SQL {
    if (user.complexIds === null) return sql`true`;
    const colleagues =
      user.complexIds.length === 0
        ? sql`false`
        : inArray(
            users.id,
            db
              .select({ id: userComplexes.userId })
              .from(userComplexes)
              .where(inArray(userComplexes.complexId, staffComplexes(user.complexIds))),
          );
    return and(eq(users.isAdmin, false), or(eq(users.id, user.id), colleagues))!;
  }

  /** The users' roles and departments, by role id. */
  async function rolesOf(roleIds: (number | null)[]) {
    const ids = [...new Set(roleIds.filter((id): id is number => id !== null))];
    const rows = ids.length
      ? await db
          .select({
            id: staffRoles.id,
            name: staffRoles.name,
            permissions: staffRoles.permissions,
            departureId: staffRoles.departureId,
            departure: staffDepartures.name,
          })
          .from(staffRoles)
          .leftJoin(staffDepartures, eq(staffDepartures.id, staffRoles.departureId))
          .where(inArray(staffRoles.id, ids))
      : [];
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Records with their complexes; a staff viewer sees only the complexes inside their own scope. */
  async function records(viewer: CurrentUser, rows: UserRow[]): Promise<Staff[]> {
    const ids = rows.map((r) => r.id);
    const [links, roles] = await Promise.all([
      ids.length === 0
        ? []
        : db
            .select({ userId: userComplexes.userId, id: complexes.id, name: complexes.name })
            .from(userComplexes)
            .innerJoin(complexes, eq(complexes.id, userComplexes.complexId))
            .where(
              and(
                inArray(userComplexes.userId, ids),
                viewer.complexIds === null ? undefined : viewer.complexIds.length ? inArray(complexes.id, viewer.complexIds) : sql`false`,
              ),
            )
            .orderBy(ukrainianSortKey(complexes.name), complexes.id),
      rolesOf(rows.map((r) => r.roleId)),
    ]);
    return rows.map((user) => {
      const mine = links.filter((l) => l.userId === user.id).map((l) => ({ id: l.id, name: l.name }));
      const role = user.roleId === null ? undefined : roles.get(user.roleId);
      return {
        id: user.id,
        name: user.name,
        email: user.email,
        phone: user.phone,
        is_admin: user.isAdmin,
        role_id: user.roleId,
        role: role?.name ?? null,
        departure_id: role?.departureId ?? null,
        departure: role?.departure ?? null,
        complex_ids: mine.map((c) => c.id),
        complexes: mine,
        can_manage: manageable(viewer, user.isAdmin, role?.permissions ?? null),
        invitation_pending: user.passwordSetAt === null,
        created_at: user.createdAt.toISOString(),
        updated_at: user.updatedAt.toISOString(),
      };
    });
  }

  /** Whether a role's rights (`permissions`, a role's column; none when null) are all the viewer's too: `rightsBeyond` in SQL. */
  function withinRights(viewer: CurrentUser, permissions: SQL | typeof staffRoles.permissions): SQL {
    if (viewer.isAdmin) return sql`true`;
    const pairs = (rules: Rules) => Object.entries(normaliseRules(rules)).flatMap(([area, actions]) => actions.map((a) => `${area}:${a}`));
    return sql`not exists (
      select 1 from jsonb_each(${permissions}) as p(area, actions)
        cross join jsonb_array_elements_text(case when jsonb_typeof(p.actions) = 'array' then p.actions else '[]' end) as a(action)
      where p.area || ':' || a.action = any(${sqlArray(pairs(FULL_RULES), 'text')})
        and not p.area || ':' || a.action = any(${sqlArray(pairs(viewer.rules), 'text')}))`;
  }

  /** The form's choices (`form`): the roles the viewer may hand out (all for admins; for staff, those within their own rights) and the departments. */
  function formJson({ user: viewer }: CrudContext): SQL {
    return sql`json_build_object('form', json_build_object(
      'roles', (select coalesce(json_agg(json_build_object('id', ${staffRoles.id}, 'name', ${staffRoles.name}, 'departure_id', ${staffRoles.departureId})
          order by ${ukrainianSortKey(staffRoles.name)}, ${staffRoles.id}), '[]')
        from ${staffRoles} where ${staffRoles.organizationId} = ${viewer.organizationId} and ${withinRights(viewer, staffRoles.permissions)}),
      'departures', (select coalesce(json_agg(json_build_object('id', ${staffDepartures.id}, 'name', ${staffDepartures.name})
          order by ${ukrainianSortKey(staffDepartures.name)}, ${staffDepartures.id}), '[]')
        from ${staffDepartures} where ${staffDepartures.organizationId} = ${viewer.organizationId})))`;
  }

  /**
   * The same records as `records`, built in SQL for a list's page (`recordsJson`): `can_manage`
   * compares the role's rights with the viewer's (kept per the viewer's rights,
   * server/crud/rendered.ts), as `manageable` does.
   */
  function recordsJson({ user: viewer }: CrudContext): SQL {
    const canManage = viewer.isAdmin ? sql`true` : sql`not ${users.isAdmin} and ${withinRights(viewer, staffRoles.permissions)}`;
    const inScope = viewer.complexIds === null ? sql`` : sql`and ${complexes.id} = any(${sqlArray(viewer.complexIds, 'int')})`;
    return pageArray(
      sql`json_build_object('id', ${users.id}, 'name', ${users.name}, 'email', ${users.email}, 'phone', ${users.phone}, 'is_admin', ${users.isAdmin},
        'role_id', ${users.roleId}, 'role', ${staffRoles.name}, 'departure_id', ${staffRoles.departureId}, 'departure', ${staffDepartures.name},
        'complex_ids', coalesce(staff_complexes.ids, '[]'), 'complexes', coalesce(staff_complexes.list, '[]'), 'can_manage', ${canManage},
        'invitation_pending', ${users.passwordSetAt} is null, 'created_at', ${isoSql(users.createdAt)}, 'updated_at', ${isoSql(users.updatedAt)})`,
      sql`join ${users} on ${users.id} = ${LIST_PAGE}.id
        left join ${staffRoles} on ${staffRoles.id} = ${users.roleId}
        left join ${staffDepartures} on ${staffDepartures.id} = ${staffRoles.departureId}
        left join lateral (
          select json_agg(${complexes.id} order by ${ukrainianSortKey(complexes.name)}, ${complexes.id}) as ids,
            json_agg(json_build_object('id', ${complexes.id}, 'name', ${complexes.name}) order by ${ukrainianSortKey(complexes.name)}, ${complexes.id}) as list
          from ${userComplexes} join ${complexes} on ${complexes.id} = ${userComplexes.complexId}
          where ${userComplexes.userId} = ${users.id} ${inScope}) staff_complexes on true`,
    );
  }

  /** A staff user may change only colleagues whose rights are within their own (404 outside their scope, 403 beyond their rights). */
  async function findManageable(viewer: CurrentUser, id: number): Promise<UserRow> {
    const [user] = await db
      .select()
      .from(users)
      .where(and(eq(users.organizationId, viewer.organizationId), scope(viewer), eq(users.id, id)));
    if (!user) throw notFound(staffEntity.messages.notFound);
    const roles = await rolesOf([user.roleId]);
    if (!manageable(viewer, user.isAdmin, user.roleId === null ? null : (roles.get(user.roleId)?.permissions ?? null))) {
      throw forbidden('Цей працівник має права, яких немає у вас, тому змінити чи видалити його може лише адміністратор.');
    }
    return user;
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
  async function complexLinks({ db, user: viewer }: CrudContext, input: StaffInput, targetId?: number): Promise<number[]> {
    if (input.is_admin) return [];
    const chosen = new Set(input.complex_ids);
    if (targetId !== undefined && viewer.complexIds !== null) {
      const current = await db.select({ id: userComplexes.complexId }).from(userComplexes).where(eq(userComplexes.userId, targetId));
      for (const c of current) if (!viewer.complexIds.includes(c.id)) chosen.add(c.id);
    }
    return [...chosen];
  }

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

  /** The organization must keep at least one admin, or nobody could manage it any more. */
  async function assertAnotherAdmin(target: typeof users.$inferSelect) {
    const [{ n }] = await db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.organizationId, target.organizationId), eq(users.isAdmin, true), ne(users.id, target.id)));
    if (Number(n) === 0) throw conflict('Це останній адміністратор організації: його не можна видалити чи позбавити прав адміністратора.');
  }

  /** What an update changes of the record's sign-in e-mail and phone, found by `check` for the write and the notice after it. */
  const changes = new WeakMap<StaffInput, { target: UserRow; credentials: string[] }>();

  await app.register(
    crudRoutes(staffEntity, {
      table: users,
      columns: {
        name: users.name,
        email: users.email,
        phone: users.phone,
        created_at: users.createdAt,
        role_id: users.roleId,
        departure_id: sql`(select ${staffRoles.departureId} from ${staffRoles} where ${staffRoles.id} = ${users.roleId})`,
      },
      scope: ({ user }) => scope(user),
      complexFilter: (_ctx, complexId) =>
        inArray(users.id, db.select({ id: userComplexes.userId }).from(userComplexes).where(eq(userComplexes.complexId, complexId))),
      search: (_ctx, text) => {
        const p = likePattern(text);
        return or(sql`${users.name} ilike ${p}`, sql`${users.email} ilike ${p}`, sql`${users.phone} ilike ${p}`);
      },
      sortKeys: { email: (order) => [sql`${users.email} ${sql.raw(order)}`] },
      guard: async ({ user }, id) => void (await findManageable(user, id)),
      async check({ user: viewer }, input: StaffInput, id) {
        const target = id === undefined ? undefined : (await db.select().from(users).where(eq(users.id, id)))[0];
        if (target) {
          // Whoever controls an account's e-mail or phone can take it over (a password link, a
          // sign-in code), so only an admin changes a colleague's, and the owner is told.
          const credentials = signInChanges(target, input);
          if (credentials.length > 0 && target.id !== viewer.id && !viewer.isAdmin) {
            throw forbidden('Змінити e-mail чи телефон колеги може лише адміністратор.');
          }
          changes.set(input, { target, credentials });
        }
        await validate(viewer, input, target);
        if (target?.isAdmin && !input.is_admin) await assertAnotherAdmin(target);
      },
      async values(input: StaffInput, _ctx, created) {
        const fields = { name: input.name, email: input.email, phone: input.phone, isAdmin: input.is_admin, roleId: input.role_id };
        if (!created) return fields;
        // Nobody knows this password: the invitation link is the way in.
        const passwordHash = await hashPassword(randomBytes(24).toString('base64url'), app.config.passwordHashCost);
        return { ...fields, passwordHash, passwordSetAt: null, tutorialCompleted: !input.is_admin };
      },
      /** The complexes, and for a new e-mail or phone the end of every session (its password links die with the old e-mail). */
      async afterWrite(ctx: CrudContext, id, input: StaffInput, created) {
        const links = await complexLinks(ctx, input, created ? undefined : id);
        await ctx.db.delete(userComplexes).where(eq(userComplexes.userId, id));
        if (links.length > 0) await ctx.db.insert(userComplexes).values(links.map((complexId) => ({ userId: id, complexId })));
        if ((changes.get(input)?.credentials.length ?? 0) > 0) await endSessions(ctx.db, id);
      },
      uniqueViolation: EMAIL_TAKEN,
      /** A new colleague gets the invitation; a changed one's open live streams check again, and the old address hears of a new e-mail or phone. */
      async afterCommit(_app, { user: viewer }, id, created, input: StaffInput) {
        const [inviter] = await db.select({ name: users.name }).from(users).where(eq(users.id, viewer.id));
        if (created) {
          const [row] = await db.select().from(users).where(eq(users.id, id));
          await auth.invite(row, inviter?.name ?? 'Адміністратор');
          return;
        }
        await accessChanged(app.live, viewer.organizationId, [id]);
        const change = changes.get(input);
        if (change && change.credentials.length > 0) await noticeOfChange(viewer, change.target, change.credentials);
      },
      async beforeDelete({ user: viewer }, id) {
        if (id === viewer.id) throw conflict('Ви не можете видалити власний обліковий запис.');
        const [target] = await db.select().from(users).where(eq(users.id, id));
        if (target.isAdmin) await assertAnotherAdmin(target);
      },
      /** Their sessions went with them; their open live streams end now. */
      afterDelete: async (_app, { user: viewer }, row) => accessChanged(app.live, viewer.organizationId, [row.id]),
      toRecords: ({ user }, rows) => records(user, rows),
      recordsJson,
      siblings: { schema: { form: staffForm }, json: formJson },
      exportCells: {
        role: (s) => (s.is_admin ? 'Адміністратор' : s.role),
        complexes: (s) => (s.is_admin ? 'Усі' : s.complexes.map((c) => c.name).join('; ') || null),
      },
    }),
  );

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
      const target = await findManageable(viewer, request.params.id);
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
};
