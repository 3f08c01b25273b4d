import multipart from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export type ZodApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

/**
 * Routes that take multipart forms, in a scope of their own: the parser is registered only
 * there, so JSON routes elsewhere keep refusing multipart bodies with 415.
 */
export async function multipartRoutes(app: ZodApp, routes: (scope: ZodApp) => void) {
  await app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true });
    routes(scope.withTypeProvider<ZodTypeProvider>());
  });
}
