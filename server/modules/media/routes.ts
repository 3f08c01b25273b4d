import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { mediaRecord, mediaUrl, type MediaFile } from '../../../contract/media.ts';
import { canAccess, type Area } from '../../../contract/permissions.ts';
import type { Db } from '../../db/index.ts';
import { media } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import { readMultipartForm, removeStored, sendStored, type FileKind } from '../../lib/files.ts';
import { multipartRoutes } from '../../lib/multipart.ts';
import type { FileStorage } from '../../lib/storage.ts';

type Row = typeof media.$inferSelect;

/** Areas whose forms carry uploads: whoever may create or edit in one of them may upload. */
const UPLOADING_AREAS: Area[] = ['articles', 'announcements', 'events', 'advertisements', 'documents', 'contacts', 'interviews', 'votings', 'service_requests'];

export const toMediaRecord = (r: Row): MediaFile => ({ id: r.id, kind: r.kind, name: r.originalName, mime: r.mime, size: r.size, url: mediaUrl(r.id) });

/**
 * An image of the organization for a content field (cover, picture): 422 on `field` when the id
 * is not an image this organization uploaded.
 */
export async function assertImage(db: Db, user: CurrentUser, id: number | null, field: string) {
  if (id === null) return;
  const [row] = await db
    .select({ id: media.id })
    .from(media)
    .where(and(eq(media.id, id), eq(media.organizationId, user.organizationId), eq(media.kind, 'image')))
    .limit(1);
  if (!row) throw unprocessable({ [field]: ['Зображення не знайдено. Завантажте його ще раз.'] });
}

/** Stores an uploaded file's record; the file is removed again when that fails. */
export async function insertMedia(db: Db, storage: FileStorage, user: CurrentUser, kind: FileKind, file: NonNullable<Awaited<ReturnType<typeof readMultipartForm>>['file']>) {
  try {
    const [row] = await db
      .insert(media)
      .values({ organizationId: user.organizationId, kind, storedName: file.storedName, originalName: file.originalName, mime: file.mime, size: file.size, uploadedBy: user.id })
      .returning();
    return row;
  } catch (err) {
    await removeStored(storage, file.storedName);
    throw err;
  }
}

const one = z.object({ data: mediaRecord });
const tags = ['media'];

/**
 * POST /media (an image) and POST /media/document (a document file): multipart with `file`
 * (and an optional `type`, which the SPA of one edition sends). GET /media/{id} serves an image
 * to its organization, and a document file only to whoever uploaded it — documents are read
 * through their own route, which checks the document's audience.
 */
export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  const mayUpload = async (request: { user: CurrentUser }) => {
    if (!UPLOADING_AREAS.some((a) => canAccess(request.user.rules, a, 'create') || canAccess(request.user.rules, a, 'edit'))) throw forbidden();
  };

  await multipartRoutes(app, (mp) => {
    for (const [url, kind] of [
      ['/media', 'image'],
      ['/media/document', 'document'],
    ] as const) {
      mp.post(
        url,
        {
          preHandler: mayUpload,
          schema: {
            tags,
            summary: kind === 'image' ? 'Завантажити зображення' : 'Завантажити файл документа',
            description:
              kind === 'image' ? 'multipart/form-data: file (JPEG, PNG, WEBP, GIF; до 5 МБ), type — необов’язково.' : 'multipart/form-data: file (PDF, DOC(X), XLS(X), ODT, ODS, JPEG, PNG; до 20 МБ), type.',
            consumes: ['multipart/form-data'],
            response: { 200: one },
          },
        },
        async (request) => {
          const form = await readMultipartForm(request, { storage: app.storage, fileField: 'file', kind });
          if (!form.file) throw unprocessable({ file: ['Оберіть файл.'] });
          const type = form.fields.type;
          if (type !== undefined && (typeof type !== 'string' || type.length > 50)) {
            await removeStored(app.storage, form.file.storedName);
            throw unprocessable({ type: ['Некоректний тип.'] });
          }
          return { data: toMediaRecord(await insertMedia(db, app.storage, request.user, kind, form.file)) };
        },
      );
    }
  });

  app.get(
    '/media/:id',
    { schema: { tags, summary: 'Файл (зображення або власний завантажений документ)', params: z.object({ id: idSchema }) } },
    async (request, reply) => {
      const user = request.user;
      const [row] = await db
        .select()
        .from(media)
        .where(and(eq(media.id, request.params.id), eq(media.organizationId, user.organizationId)))
        .limit(1);
      if (!row || (row.kind === 'document' && row.uploadedBy !== user.id)) throw notFound('Файл не знайдено.');
      return sendStored(reply, app.storage, row, row.kind === 'image' ? 'inline' : 'attachment');
    },
  );
};
