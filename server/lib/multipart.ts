import multipart from '@fastify/multipart';
import type { z } from 'zod';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { issuesToErrors, unprocessable } from './errors.ts';
import { readMultipartForm, removeStored, type UploadKind, type StoredUpload } from './files.ts';
import type { FileStorage } from './storage.ts';

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

/**
 * Reads a multipart form and validates its text fields with `schema` (422 with field errors, as
 * for JSON). The file, when there is one, is already stored; `discard` removes it again for
 * handlers that fail later.
 */
export async function readForm<S extends z.ZodType>(
  request: FastifyRequest,
  schema: S,
  opts: { storage: FileStorage; fileField?: string; kind?: UploadKind },
): Promise<{ body: z.infer<S>; file?: StoredUpload; discard: () => Promise<void> }> {
  const form = await readMultipartForm(request, opts);
  const discard = () => removeStored(opts.storage, form.file?.storedName);
  const parsed = schema.safeParse(form.fields);
  if (!parsed.success) {
    await discard();
    throw unprocessable(issuesToErrors(parsed.error.issues));
  }
  return { body: parsed.data, file: form.file, discard };
}
