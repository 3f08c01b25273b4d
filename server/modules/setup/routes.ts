import { and, asc, count, eq, exists, isNull, lte, ne, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SETUP_STEPS, setupRecord } from '../../../contract/setup.ts';
import { staffInput } from '../../../contract/staff.ts';
import { articles, complexes, houses, residents, serviceRequestTypes, staffRoles, users } from '../../db/schema.ts';
import { requirePermission } from '../../lib/auth.ts';
import { complexScope } from '../../lib/scope.ts';

const tags = ['setup'];

/**
 * 'З чого почати?': the first steps of a new organization, each done when its data exists
 * (so doing it anywhere in the product ticks it), and the invitation of a colleague.
 */
export const setupRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get('/setup', { schema: { tags, summary: 'Перші кроки', response: { 200: z.object({ data: setupRecord }) } } }, async (request) => {
    const org = request.user.organizationId;
    const one = async (query: Promise<{ n: number }[]>) => (await query)[0].n;
    const [complexCount, houseCount, residentCount, roleCount, staffCount, typeCount, newsCount, me, housesComplex] = await Promise.all([
      one(db.select({ n: count() }).from(complexes).where(eq(complexes.organizationId, org))),
      one(db.select({ n: count() }).from(houses).where(eq(houses.organizationId, org))),
      one(db.select({ n: count() }).from(residents).where(eq(residents.organizationId, org))),
      one(db.select({ n: count() }).from(staffRoles).where(eq(staffRoles.organizationId, org))),
      one(
        db
          .select({ n: count() })
          .from(users)
          .where(and(eq(users.organizationId, org), ne(users.id, request.user.id))),
      ),
      one(db.select({ n: count() }).from(serviceRequestTypes).where(eq(serviceRequestTypes.organizationId, org))),
      one(
        db
          .select({ n: count() })
          .from(articles)
          .where(and(eq(articles.organizationId, org), eq(articles.status, 'published'), or(isNull(articles.publishAt), lte(articles.publishAt, new Date())))),
      ),
      db.select({ tutorialCompleted: users.tutorialCompleted }).from(users).where(eq(users.id, request.user.id)),
      // Where «До будинків» leads: the first of the user's complexes that has no house yet, else the first one.
      db
        .select({ id: complexes.id })
        .from(complexes)
        .where(complexScope(request.user, { organizationId: complexes.organizationId, complexId: complexes.id }))
        // false (no house) sorts first
        .orderBy(exists(db.select({ id: houses.id }).from(houses).where(eq(houses.complexId, complexes.id))), asc(complexes.id))
        .limit(1),
    ]);
    const counts: Record<(typeof SETUP_STEPS)[number], number> = {
      complex: complexCount,
      houses: houseCount,
      residents: residentCount,
      staff_roles: roleCount,
      staff: staffCount,
      request_types: typeCount,
      news: newsCount,
    };
    return {
      data: {
        steps: SETUP_STEPS.map((key) => ({
          key,
          done: counts[key] > 0,
          count: counts[key],
          ...(key === 'houses' ? { complex_id: housesComplex[0]?.id ?? null } : {}),
        })),
        tutorial_completed: me[0].tutorialCompleted,
      },
    };
  });

  app.post(
    '/setup/step/sendInvite',
    {
      preHandler: requirePermission('staff', 'create'),
      schema: {
        tags,
        summary: 'Запросити колегу',
        description: 'Те саме, що POST /staff: створює обліковий запис працівника й надсилає йому запрошення на e-mail.',
        body: staffInput,
      },
    },
    async (request, reply) => {
      // One way to invite: the staff call itself, with its validation, scoping and mail.
      const res = await app.inject({
        method: 'POST',
        url: request.url.replace(/\/setup\/step\/sendInvite(\?.*)?$/, '/staff'),
        headers: { authorization: request.headers.authorization ?? '', 'content-type': 'application/json' },
        payload: JSON.stringify(request.body),
      });
      reply.code(res.statusCode).header('content-type', 'application/json; charset=utf-8');
      return reply.send(res.body);
    },
  );
};
