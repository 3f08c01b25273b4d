import { and, eq, ne, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { media } from '../db/schema.ts';
import type { CurrentUser } from '../lib/auth.ts';
import { isUniqueViolation, issuesToErrors, unprocessable } from '../lib/errors.ts';
import { readMultipartForm, removeStored, type StoredUpload } from '../lib/files.ts';
import { insertMedia } from '../lib/media.ts';
import type { EntityCrud } from './base.ts';
import type { CrudTable, Row } from './types.ts';

/**
 * The body of a create or an update and what is checked before it is written: JSON checked by
 * the route's schema, or (encoding 'multipart') a form whose text fields the same schema checks
 * and whose file (the declared `file` field) is stored at once, with a 422 of the same shape.
 */

export interface Body<Input> {
  input: Input;
  file?: StoredUpload;
  /** Removes the form's stored file again, when the request fails later. */
  discard: () => Promise<void>;
}

/** The declared `file` field of a multipart entity and the kind of upload it takes. */
export function fileFieldOf<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>) {
  const { e } = crud;
  const field = Object.keys(e.fields).find((k) => e.fields[k].type === 'file');
  return { field, kind: (field && e.fields[field].accept) || 'document' };
}

/** The route's schema of a create's (or, `updating`, an update's) body. */
export function bodySchema<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>, updating: boolean) {
  const { e } = crud;
  if (e.encoding === 'multipart')
    return {
      consumes: ['multipart/form-data'],
      description: `multipart/form-data: ${Object.keys(e.fields)
        .filter((k) => e.fields[k].input !== false)
        .join(', ')}.`,
    };
  return { body: updating && e.updateInput ? e.updateInput : e.input };
}

/**
 * A form's text fields are checked by the input schema and its file by its upload rules; every
 * field's error comes in one 422.
 */
export async function bodyOf<T extends CrudTable, Input, Rec>(
  crud: EntityCrud<T, Input, Rec>,
  request: FastifyRequest,
  created: boolean,
): Promise<Body<Input>> {
  const { e, app } = crud;
  if (e.encoding !== 'multipart') return { input: request.body as Input, discard: async () => undefined };
  const { field, kind } = fileFieldOf(crud);
  const form = await readMultipartForm(request, { storage: app.storage, fileField: field, kind });
  const discard = () => removeStored(app.storage, form.file?.storedName);
  const parsed = e.input.safeParse(form.fields);
  const errors = parsed.success ? {} : issuesToErrors(parsed.error.issues);
  if (field && created && e.fields[field].required && !form.file) errors[field] ??= [`Поле «${e.fields[field].label}»: оберіть файл.`];
  if (Object.keys(errors).length > 0) {
    await discard();
    throw unprocessable(errors);
  }
  return { input: parsed.data as Input, file: form.file, discard };
}

/** Runs the write; a failure removes the form's stored file. */
export async function keepingFile<R>(body: Body<unknown>, run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (err) {
    await body.discard();
    throw err;
  }
}

/** The form's file as a media row of the caller's organization, in the write's transaction. */
export async function uploaded<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>, tx: Db, user: CurrentUser, file: StoredUpload | undefined) {
  return file ? await insertMedia(tx, crud.app.storage, user, fileFieldOf(crud).kind, file) : undefined;
}

/** A file the record owned (replaced or deleted with it): its media row and the stored file go. */
export async function dropFile<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>, row: Row<T>) {
  const { impl, db, app } = crud;
  const mediaId = impl.file?.owned ? (row as Record<string, unknown>)[impl.file.key] : undefined;
  if (typeof mediaId !== 'number') return;
  const [file] = await db.delete(media).where(eq(media.id, mediaId)).returning();
  if (file) await removeStored(app.storage, file.storedName);
}

/** Inserts and updates: a unique index that refuses the row answers the declared field errors. */
export async function writeUnique<T extends CrudTable, Input, Rec, R>(crud: EntityCrud<T, Input, Rec>, run: () => Promise<R>): Promise<R> {
  const { impl } = crud;
  try {
    return await run();
  } catch (err) {
    if (impl.unique && isUniqueViolation(err)) throw unprocessable({ [impl.unique.field]: [impl.unique.message] });
    if (impl.uniqueViolation && isUniqueViolation(err))
      throw unprocessable(typeof impl.uniqueViolation === 'function' ? impl.uniqueViolation(err) : impl.uniqueViolation);
    throw err;
  }
}

/**
 * Every reference of the body must name a record the caller may see (the entity's own check, or
 * the app's registry: server/crud/registry.ts); a unique name must be free; then the entity's
 * `check`.
 */
export async function checkBody<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>, user: CurrentUser, input: Input, id?: number) {
  const { e, impl, app, db, table } = crud;
  const ctx = crud.ctxOf(user);
  const errors: Record<string, string[]> = {};
  for (const [key, field] of Object.entries(e.fields)) {
    const value = (input as Record<string, unknown>)[key];
    if (field.type !== 'reference' || field.input === false || value === null || value === undefined) continue;
    const exists = impl.references?.[field.reference!] ?? app.crud.referenceCheck(field.reference!);
    if (!exists) throw new Error(`${e.name}.${key}: no reference check for ${field.reference}`);
    if (!(await exists(ctx, Number(value)))) errors[key] = [`Поле «${field.label}»: запис не знайдено.`];
  }
  if (impl.unique) {
    const { field, message } = impl.unique;
    const value = (input as Record<string, unknown>)[field];
    const [taken] = await db
      .select({ id: table.id })
      .from(table as PgTable)
      .where(
        and(
          eq(table.organizationId, user.organizationId),
          sql`lower(${impl.columns[field]}) = lower(${value})`,
          id === undefined ? undefined : ne(table.id, id),
        ),
      )
      .limit(1);
    if (taken) errors[field] = [message];
  }
  if (Object.keys(errors).length > 0) throw unprocessable(errors);
  await impl.check?.(ctx, input, id);
}
