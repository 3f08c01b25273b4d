import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forgotPasswordInput, loginInput, resetPasswordInput, tokenResponse } from '../../../contract/auth.ts';
import { loginCodeInput, loginResendInput, twoFactorChallenge } from '../../../contract/settings.ts';
import { readCookie } from '../../lib/throttle.ts';
import { createAuthService, DEVICE_COOKIE, KNOWN_CLIENT_TTL_MS, type SignInClient } from './service.ts';

/** The least time POST /forgot_password takes, whether or not the e-mail has an account. */
const FORGOT_PASSWORD_MIN_MS = 150;

const message = z.object({ message: z.string() });

const clientOf = (request: FastifyRequest): SignInClient => ({ ip: request.ip, device: readCookie(request.headers.cookie, DEVICE_COOKIE) });

/** Sign-in, password recovery: reachable without a token. */
export const publicAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = createAuthService(app.db, app.config, app.delivery, app.live);
  // The device cookie names this browser to sign-in throttling only: it is no credential, it
  // travels only to the sign-in routes, and scripts cannot read it.
  const devicePath = `${app.prefix}/login`;
  const withDeviceCookie = <T>(reply: FastifyReply, { answer, device }: { answer: T; device?: string }) => {
    if (device) {
      reply.header('set-cookie', `${DEVICE_COOKIE}=${device}; Max-Age=${KNOWN_CLIENT_TTL_MS / 1000}; Path=${devicePath}; HttpOnly; Secure; SameSite=Strict`);
    }
    return answer;
  };

  app.post(
    '/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Вхід',
        description:
          'Відповідає токеном, або — коли в користувача ввімкнено двоетапний вхід — повідомленням, що код надіслано, і challenge для POST /login/code.',
        body: loginInput,
        response: { 200: z.union([tokenResponse, twoFactorChallenge]) },
      },
    },
    async (request, reply) => withDeviceCookie(reply, await auth.login(request.body.email, request.body.password, clientOf(request))),
  );

  app.post(
    '/login/code',
    { schema: { tags: ['auth'], summary: 'Вхід: код другого етапу', body: loginCodeInput, response: { 200: tokenResponse } } },
    async (request, reply) => withDeviceCookie(reply, await auth.loginWithCode(request.body.challenge, request.body.code, clientOf(request))),
  );

  app.post(
    '/login/code/resend',
    { schema: { tags: ['auth'], summary: 'Вхід: надіслати код ще раз', body: loginResendInput, response: { 200: twoFactorChallenge } } },
    async (request) => auth.resendLoginCode(request.body.challenge),
  );

  app.post(
    '/forgot_password',
    { schema: { tags: ['auth'], summary: 'Запит на відновлення пароля', body: forgotPasswordInput, response: { 200: message } } },
    async (request) => {
      // A known e-mail costs a reset link and a mail, an unknown one nothing: both answer after the
      // same minimum time, so the timing does not tell which e-mails have accounts.
      const started = Date.now();
      await auth.forgotPassword(request.body.email);
      const rest = FORGOT_PASSWORD_MIN_MS - (Date.now() - started);
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
      return { message: 'Якщо цей e-mail зареєстровано, ми надіслали на нього посилання для відновлення пароля.' };
    },
  );

  app.post(
    '/reset_password',
    { schema: { tags: ['auth'], summary: 'Новий пароль за посиланням', body: resetPasswordInput, response: { 200: message } } },
    async (request, reply) => {
      const { device } = await auth.resetPassword(request.body, clientOf(request));
      return withDeviceCookie(reply, { answer: { message: 'Пароль змінено. Увійдіть з новим паролем.' }, device });
    },
  );
};

export const userData = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  reset_token: z.string().nullable(),
  tutorial_completed: z.boolean(),
  rules: z.record(z.string(), z.array(z.string())),
  complexes: z.array(z.object({ id: z.number(), name: z.string() })),
  two_factor: z.enum(['phone', 'email']).nullable(),
  is_admin: z.boolean(),
  /** whether SMS codes can be sent (an SMS gateway, or the development outbox): phone confirmation and SMS sign-in are offered only then */
  sms_available: z.boolean(),
});

/** The signed-in user's own session. */
export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = createAuthService(app.db, app.config, app.delivery, app.live);

  app.post('/logout', { schema: { tags: ['auth'], summary: 'Вихід', response: { 200: message } } }, async (request) => {
    await auth.logout(request.user);
    return { message: 'Ви вийшли із системи.' };
  });

  app.get('/user', { schema: { tags: ['auth'], summary: 'Поточний користувач', response: { 200: z.object({ data: userData }) } } }, async (request) => ({
    data: await auth.profile(request.user.id),
  }));
};
