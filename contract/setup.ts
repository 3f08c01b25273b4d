import { z } from 'zod';

/** The first steps of 'З чого почати?', in the order a new management company takes them. */
export const SETUP_STEPS = ['complex', 'houses', 'residents', 'staff', 'request_types', 'news'] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

export const setupRecord = z.object({
  steps: z.array(z.object({ key: z.enum(SETUP_STEPS), done: z.boolean(), count: z.number() })),
  tutorial_completed: z.boolean(),
});
export type SetupRecord = z.infer<typeof setupRecord>;
