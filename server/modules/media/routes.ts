import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fileKeySchema, mediaRecord, mediaUrl, type MediaFile } from '../../../contract/media.ts';
import { canAccess, type Area } from '../../../contract/permissions.ts';
import { media } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import { downloadName, readMultipartForm, removeStored, sendStored } from '../../lib/files.ts';
import { heldFiles, insertMedia, type FileReader, type MediaRow } from '../../lib/media.ts';
import { multipartRoutes } from '../../lib/multipart.ts';
import { advertisementFiles } from '../advertisements/routes.ts';
import { articleFiles } from '../articles/routes.ts';
import { eventFiles } from '../events/routes.ts';

/** Areas whose forms carry uploads: whoever may create or edit in one of them may upload. */
const UPLOADING_AREAS: Area[] = ['articles', 'announcements', 'events', 'advertisements', 'documents', 'contacts', 'interviews', 'votings', 'service_requests'];

/**
 * The records whose pictures `GET /media/{key}` serves: news covers, event pictures and
 * residents' advertisements. Files of documents, meetings and service requests are served only
 * by their own routes, which check their record (`/documents/{id}/file`, ...).
 */
const READERS: FileReader[] = [articleFiles, eventFiles, advertisementFiles];

export const toMediaRecord = (r: MediaRow): MediaFile => ({
  id: r.id,
  kind: r.kind,
  name: downloadName(r.originalName, r.mime),
  mime: r.mime,
  size: r.size,
  url: mediaUrl(r.key),
});

const NOT_FOUND = 'Файл не знайдено.';
const one = z.object({ data: mediaRecord });
const tags = ['media'];

/**
 * POST /media (an image) and POST /media/document (a document file): multipart with `file`
 * (and an optional `type`, which the SPA of one edition sends). GET /media/{key} serves a file
 * only through what holds it: a picture of a record the user may see (with that area's view
 * right), or the user's own upload that no form has taken yet. Everything else answers 404.
 */
export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  const mayUpload = async (request: { user: CurrentUser }) => {
    if (!UPLOADING_AREAS.some((a) => canAccess(request.user.rules, a, 'create') || canAccess(request.user.rules, a, 'edit'))) throw forbidden();
  };

  async function mayRead(user: CurrentUser, row: MediaRow): Promise<boolean> {
    if (!(await heldFiles(db, [row.id])).has(row.id)) return row.uploadedBy === user.id;
    for (const reader of READERS) {
      if (canAccess(user.rules, reader.area, 'view') && (await reader.holds(db, user, row.id))) return true;
    }
    return false;
  }

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
              (kind === 'image'
                ? 'multipart/form-data: file (JPEG, PNG, WEBP, GIF; до 5 МБ), type — необов’язково.'
                : 'multipart/form-data: file (PDF, DOC(X), XLS(X), ODT, ODS, JPEG, PNG; до 20 МБ), type.') +
              ' Файл бачить лише той, хто його завантажив, доки форма (новина, заявка, ...) не візьме його за id.',
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
    '/media/:key',
    {
      schema: {
        tags,
        summary: 'Файл: зображення новини, заходу чи оголошення, або власне ще не прикріплене завантаження',
        description: 'key — випадковий ключ файлу з поля url. Файли документів, зборів і заявок віддають їхні власні маршрути.',
        params: z.object({ key: fileKeySchema }),
      },
    },
    async (request, reply) => {
      const user = request.user;
      const [row] = await db
        .select()
        .from(media)
        .where(and(eq(media.key, request.params.key), eq(media.organizationId, user.organizationId)))
        .limit(1);
      if (!row || !(await mayRead(user, row))) throw notFound(NOT_FOUND);
      return sendStored(reply, app.storage, row);
    },
  );
};
