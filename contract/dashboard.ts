import { z } from 'zod';
import { REQUEST_STAGES } from './serviceRequests.ts';

/** GET /dashboard: each tile is null when the user's role may not view its area. */
export const dashboardRecord = z.object({
  requests: z
    .object({
      by_stage: z.record(z.enum(REQUEST_STAGES), z.number()),
      open: z.number(),
      overdue: z.number(),
      per_day: z.array(z.object({ date: z.string(), count: z.number() })),
    })
    .nullable(),
  votings: z
    .array(z.object({ id: z.number(), title: z.string(), meeting_date: z.string(), voted: z.number(), total: z.number(), turnout_percent: z.number() }))
    .nullable(),
  surveys: z.array(z.object({ id: z.number(), title: z.string(), end_at: z.string(), answers: z.number() })).nullable(),
  messages: z
    .array(z.object({ id: z.number(), request_id: z.number(), number: z.number(), author: z.string(), message: z.string(), created_at: z.string() }))
    .nullable(),
  bills: z.object({ month: z.string(), charged: z.number(), collected: z.number() }).nullable(),
});
export type Dashboard = z.infer<typeof dashboardRecord>;
