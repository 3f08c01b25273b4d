import { z } from 'zod';

/**
 * The first steps of 'З чого почати?', in the order a new management company takes them: staff
 * roles come before the invitation, which gives a colleague one of them.
 */
export const SETUP_STEPS = ['complex', 'houses', 'residents', 'staff_roles', 'staff', 'request_types', 'news'] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

export const setupRecord = z.object({
  steps: z.array(
    z.object({
      key: z.enum(SETUP_STEPS),
      done: z.boolean(),
      count: z.number(),
      /** The houses step: the complex whose houses to open (the first one without houses, else the first one); null without a complex. */
      complex_id: z.number().nullable().optional(),
    }),
  ),
  tutorial_completed: z.boolean(),
});
export type SetupRecord = z.infer<typeof setupRecord>;
