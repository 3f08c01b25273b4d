import { and, eq, ne } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changeEmailInput,
  changePasswordInput,
  changePhoneInput,
  codeSentResponse,
  requestEmailCodeInput,
  requestPhoneCodeInput,
  twoFactorInput,
  userSettingsInput,
} from '../../../contract/settings.ts';
import { users } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { createCodeService } from '../../lib/codes.ts';
import { unprocessable, isUniqueViolation } from '../../lib/errors.ts';
import { accessChanged } from '../../lib/live.ts';
import { endSessions } from '../../lib/sessions.ts';
import { assertUncommonPassword } from '../../lib/passwords.ts';
import { hashPassword, verifyPassword } from '../../lib/secrets.ts';
import { createThrottle, MINUTE_MS, tooManyAttempts } from '../../lib/throttle.ts';
import { createAuthService } from '../auth/service.ts';
import { userData } from '../auth/routes.ts';

const tags = ['settings'];
const saved = z.object({ message: z.string(), data: userData });
const twoFactorAnswer = z.union([codeSentResponse, saved]);
const SMS_UNAVAILABLE = 'Надсилання SMS не налаштовано, тож код на телефон надіслати не можна. Зверніться до адміністратора.';

/**
 * Wrong current passwords per user, across every route that asks for it: someone holding a
 * stolen session must not guess the password through the settings (docs/decisions.md, "Throttling").
 */
export const CURRENT_PASSWORD_LIMIT = { windowMs: 60 * MINUTE_MS, free: 5, firstWaitMs: MINUTE_MS, maxWaitMs: 15 * MINUTE_MS };

/**
 * Personal settings of the signed-in user (/User): name, phone and e-mail confirmed by a code
 * sent to the new address, password, and the second sign-in factor. Changing the phone, the
 * e-mail or the second factor asks for the current password first.
 */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const codes = createCodeService(db, app.delivery);
  const auth = createAuthService(db, app.config, app.delivery, app.live);
  const throttle = createThrottle(db);

  async function account(userId: number) {
    const [row] = await db
      .select({ id: users.id, email: users.email, phone: users.phone, passwordHash: users.passwordHash, twoFactor: users.twoFactor })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  }

  /** Every current-password check goes through here: throttled per user, 429 with Retry-After. */
  async function assertPassword(user: CurrentUser, password: string) {
    const key = `settings:${user.id}`;
    const attempt = await throttle.begin([{ key, limit: CURRENT_PASSWORD_LIMIT }], (seconds) =>
      tooManyAttempts(seconds, 'Забагато невдалих спроб ввести поточний пароль.'),
    );
    const row = await account(user.id);
    if (!(await verifyPassword(row.passwordHash, password))) throw unprocessable({ current_password: ['Невірний поточний пароль.'] });
    // Only the owner knows it: the typos before are forgiven.
    await attempt.passed([key]);
    return row;
  }

  const done = async (user: CurrentUser, message: string) => ({ message, data: await auth.profile(user.id) });

  /** After a change of the password, e-mail or phone the other sessions ended: their live streams end too. */
  const signedOutElsewhere = (user: CurrentUser) => accessChanged(app.live, user.organizationId, [user.id]);

  app.post('/user', { schema: { tags, summary: "Ім'я та інші особисті налаштування", body: userSettingsInput, response: { 200: saved } } }, async (request) => {
    const { name, tutorial_completed } = request.body;
    await db
      .update(users)
      .set({ name, ...(tutorial_completed === undefined ? {} : { tutorialCompleted: tutorial_completed }), updatedAt: new Date() })
      .where(eq(users.id, request.user.id));
    return done(request.user, 'Налаштування збережено.');
  });

  app.post(
    '/setting/request-code/phone',
    { schema: { tags, summary: 'Код на новий номер телефону', body: requestPhoneCodeInput, response: { 200: codeSentResponse } } },
    async (request) => {
      const { phone, current_password } = request.body;
      if (!app.delivery.canSend('sms')) throw unprocessable({ phone: [SMS_UNAVAILABLE] });
      const me = await assertPassword(request.user, current_password);
      if (me.phone === phone) throw unprocessable({ phone: ['Це ваш поточний номер.'] });
      const sent = await codes.send({ userId: me.id, organizationId: request.user.organizationId, purpose: 'phone', channel: 'sms', target: phone });
      return { message: `Код надіслано на ${sent.sent_to}.`, ...sent };
    },
  );

  app.post(
    '/setting/change/phone',
    { schema: { tags, summary: 'Змінити номер телефону кодом', body: changePhoneInput, response: { 200: saved } } },
    async (request) => {
      const { phone, code } = request.body;
      await codes.check({ userId: request.user.id, purpose: 'phone', code, target: phone });
      await db.transaction(async (tx) => {
        await tx.update(users).set({ phone, updatedAt: new Date() }).where(eq(users.id, request.user.id));
        await endSessions(tx, request.user.id, request.user.tokenId);
      });
      await signedOutElsewhere(request.user);
      return done(request.user, 'Номер телефону змінено. Інші сеанси завершено.');
    },
  );

  async function assertEmailFree(email: string, userId: number) {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), ne(users.id, userId)))
      .limit(1);
    if (taken) throw unprocessable({ email: ['Цей e-mail уже використовує інший обліковий запис.'] });
  }

  app.post(
    '/setting/request-code/email',
    { schema: { tags, summary: 'Код на нову адресу e-mail', body: requestEmailCodeInput, response: { 200: codeSentResponse } } },
    async (request) => {
      const { email, current_password } = request.body;
      const me = await assertPassword(request.user, current_password);
      if (me.email === email) throw unprocessable({ email: ['Це ваша поточна адреса.'] });
      await assertEmailFree(email, me.id);
      const sent = await codes.send({ userId: me.id, organizationId: request.user.organizationId, purpose: 'email', channel: 'email', target: email });
      return { message: `Код надіслано на ${sent.sent_to}.`, ...sent };
    },
  );

  app.post(
    '/setting/change/email',
    { schema: { tags, summary: 'Змінити e-mail кодом', body: changeEmailInput, response: { 200: saved } } },
    async (request) => {
      const { email, code } = request.body;
      await assertEmailFree(email, request.user.id);
      await codes.check({ userId: request.user.id, purpose: 'email', code, target: email });
      try {
        await db.transaction(async (tx) => {
          await tx.update(users).set({ email, updatedAt: new Date() }).where(eq(users.id, request.user.id));
          await endSessions(tx, request.user.id, request.user.tokenId);
        });
      } catch (err) {
        // Another account took the address between the check and the update (unique index).
        if (isUniqueViolation(err)) throw unprocessable({ email: ['Цей e-mail уже використовує інший обліковий запис.'] });
        throw err;
      }
      await signedOutElsewhere(request.user);
      return done(request.user, 'E-mail змінено. Інші сеанси завершено.');
    },
  );

  app.post(
    '/setting/change/password',
    { schema: { tags, summary: 'Змінити пароль', body: changePasswordInput, response: { 200: saved } } },
    async (request) => {
      const { current_password, password } = request.body;
      await assertPassword(request.user, current_password);
      if (password === current_password) throw unprocessable({ password: ['Новий пароль має відрізнятися від поточного.'] });
      assertUncommonPassword(password);
      const passwordHash = await hashPassword(password, app.config.passwordHashCost);
      await db.transaction(async (tx) => {
        // Password links sent before are bound to the old password, so they stop working too.
        await tx
          .update(users)
          .set({ passwordHash, mustChangePassword: false, passwordSetAt: new Date(), updatedAt: new Date() })
          .where(eq(users.id, request.user.id));
        // Every other session ends; this one stays signed in.
        await endSessions(tx, request.user.id, request.user.tokenId);
      });
      await signedOutElsewhere(request.user);
      return done(request.user, 'Пароль змінено. Інші сеанси завершено.');
    },
  );

  for (const channel of ['phone', 'email'] as const) {
    const purpose = channel === 'phone' ? 'two_factor_phone' : 'two_factor_email';
    app.post(
      `/setting/enable-two-factor/${channel}`,
      {
        schema: {
          tags,
          summary: channel === 'phone' ? 'Двоетапний вхід через SMS' : 'Двоетапний вхід через e-mail',
          description:
            'З поточним паролем надсилає код на цей канал; з кодом — вмикає (enable: true) або вимикає (enable: false) двоетапний вхід. ' +
            'Поки SMS не надсилаються, вхід через SMS не вмикається (422), а код для вимкнення приходить на e-mail.',
          body: twoFactorInput,
          response: { 200: twoFactorAnswer },
        },
      },
      async (request) => {
        const body = request.body;
        const me = await account(request.user.id);
        if (channel === 'phone' && !me.phone) throw unprocessable({ phone: ['Спершу додайте й підтвердьте номер телефону.'] });
        if (body.enable && me.twoFactor === channel) throw unprocessable({ enable: ['Двоетапний вхід через цей канал уже увімкнено.'] });
        if (!body.enable && me.twoFactor !== channel) throw unprocessable({ enable: ['Двоетапний вхід через цей канал не ввімкнено.'] });
        // Without SMS, sign-in by SMS cannot be turned on; turning it off takes a code by e-mail.
        const bySms = channel === 'phone' && app.delivery.canSend('sms');
        if (channel === 'phone' && body.enable && !bySms) throw unprocessable({ enable: [SMS_UNAVAILABLE] });
        const target = bySms ? me.phone! : me.email;
        if ('current_password' in body) {
          await assertPassword(request.user, body.current_password);
          const sent = await codes.send({ userId: me.id, organizationId: request.user.organizationId, purpose, channel: bySms ? 'sms' : 'email', target });
          return { message: `Код надіслано на ${sent.sent_to}.`, ...sent };
        }
        await codes.check({ userId: me.id, purpose, code: body.code, target });
        await db
          .update(users)
          .set({ twoFactor: body.enable ? channel : null, updatedAt: new Date() })
          .where(eq(users.id, me.id));
        return done(request.user, body.enable ? 'Двоетапний вхід увімкнено.' : 'Двоетапний вхід вимкнено.');
      },
    );
  }
};
