import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { z } from 'zod';
import { emailSchema, passwordSchema, text } from './common.ts';

/** A Ukrainian or international phone number, answered in E.164 (+380…). */
export const phoneSchema = z
  .string({ error: 'Вкажіть номер телефону.' })
  .trim()
  .min(1, 'Вкажіть номер телефону.')
  .max(30, 'Номер телефону задовгий.')
  .transform((v, ctx) => {
    const parsed = parsePhoneNumberFromString(v, 'UA');
    if (!parsed?.isValid()) {
      ctx.addIssue({ code: 'custom', message: 'Невірний номер телефону. Приклад: +380 67 123 45 67.' });
      return z.NEVER;
    }
    return parsed.number;
  });

export const codeSchema = z
  .string({ error: 'Введіть код.' })
  .trim()
  .regex(/^\d{6}$/, 'Код — 6 цифр.');

const currentPassword = z.string({ error: 'Вкажіть поточний пароль.' }).min(1, 'Вкажіть поточний пароль.').max(200, 'Пароль задовгий.');

export const requestPhoneCodeInput = z.object({ phone: phoneSchema, current_password: currentPassword });
export const changePhoneInput = z.object({ phone: phoneSchema, code: codeSchema });
export const requestEmailCodeInput = z.object({ email: emailSchema, current_password: currentPassword });
export const changeEmailInput = z.object({ email: emailSchema, code: codeSchema });

export const changePasswordInput = z
  .object({
    current_password: currentPassword,
    password: passwordSchema,
    password_confirmation: z.string({ error: 'Повторіть пароль.' }).max(200),
  })
  .refine((v) => v.password === v.password_confirmation, { message: 'Паролі не збігаються.', path: ['password_confirmation'] });

/**
 * Turning the second factor on or off takes two calls: with the current password a code goes
 * to that channel; with the code the change is made.
 */
export const twoFactorInput = z.union(
  [
    z.object({ enable: z.boolean({ error: 'Вкажіть, увімкнути чи вимкнути.' }), current_password: currentPassword }).strict(),
    z.object({ enable: z.boolean({ error: 'Вкажіть, увімкнути чи вимкнути.' }), code: codeSchema }).strict(),
  ],
  { error: 'Передайте поточний пароль, щоб отримати код, або код із повідомлення.' },
);

export const userSettingsInput = z.object({
  name: text("Ім'я", { min: 2, max: 100 }),
  tutorial_completed: z.boolean({ error: 'Очікується так або ні.' }).optional(),
});

export const codeSentResponse = z.object({
  message: z.string(),
  sent_to: z.string(),
  resend_after: z.number(),
  expires_in: z.number(),
});

/** The first step of a two-factor sign-in: what POST /login answers instead of a token. */
export const twoFactorChallenge = codeSentResponse.extend({
  two_factor: z.enum(['phone', 'email']),
  challenge: z.string(),
});

export const loginCodeInput = z.object({
  challenge: z.string({ error: 'Почніть вхід спочатку.' }).min(10, 'Почніть вхід спочатку.').max(200, 'Почніть вхід спочатку.'),
  code: codeSchema,
});
export const loginResendInput = loginCodeInput.pick({ challenge: true });
