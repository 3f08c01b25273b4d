import { z } from 'zod';
import { emailSchema, passwordSchema } from './common.ts';

export const loginInput = z.object({
  email: emailSchema,
  password: z.string({ error: 'Вкажіть пароль.' }).min(1, 'Вкажіть пароль.').max(200, 'Пароль задовгий.'),
});

export const forgotPasswordInput = z.object({ email: emailSchema });

export const resetPasswordInput = z
  .object({
    token: z
      .string({ error: 'Посилання для відновлення недійсне.' })
      .min(10, 'Посилання для відновлення недійсне.')
      .max(200, 'Посилання для відновлення недійсне.'),
    email: emailSchema,
    password: passwordSchema,
    password_confirmation: z.string({ error: 'Повторіть пароль.' }).max(200),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: 'Паролі не збігаються.',
    path: ['password_confirmation'],
  });

export const tokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number(),
});
