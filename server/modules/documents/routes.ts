import { and, eq, exists, inArray, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { documentEntity, type DocumentInput } from '../../../contract/documents.ts';
import type { Db } from '../../db/index.ts';
import { complexes, documentApartments, documentComplexes, documentHouses, documents, houses, media, realty } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import { downloadName, sendStored } from '../../lib/files.ts';
import { authorNames } from '../community/audience.ts';
import { formatAddress } from '../houses/address.ts';
import { selectHouses } from '../houses/records.ts';

type Reader = Pick<Db, 'select'>;
type Scopes = { complexIds: number[]; houseIds: number[]; apartmentIds: number[] };

const unique = (ids: number[]) => [...new Set(ids)];

/** Documents that touch any of `complexIds` through any of their three scopes. */
const touches = (db: Reader, complexIds: number[]): SQL =>
  or(
    exists(
      db
        .select({ one: sql`1` })
        .from(documentComplexes)
        .where(and(eq(documentComplexes.documentId, documents.id), inArray(documentComplexes.complexId, complexIds))),
    ),
    exists(
      db
        .select({ one: sql`1` })
        .from(documentHouses)
        .innerJoin(houses, eq(houses.id, documentHouses.houseId))
        .where(and(eq(documentHouses.documentId, documents.id), inArray(houses.complexId, complexIds))),
    ),
    exists(
      db
        .select({ one: sql`1` })
        .from(documentApartments)
        .innerJoin(realty, eq(realty.id, documentApartments.realtyId))
        .innerJoin(houses, eq(houses.id, realty.houseId))
        .where(and(eq(documentApartments.documentId, documents.id), inArray(houses.complexId, complexIds))),
    ),
  )!;

/** Documents that also touch a complex outside `complexIds` (or a house of no complex). */
const touchesOutside = (db: Reader, complexIds: number[]): SQL =>
  or(
    exists(
      db
        .select({ one: sql`1` })
        .from(documentComplexes)
        .where(and(eq(documentComplexes.documentId, documents.id), notInArray(documentComplexes.complexId, complexIds))),
    ),
    exists(
      db
        .select({ one: sql`1` })
        .from(documentHouses)
        .innerJoin(houses, eq(houses.id, documentHouses.houseId))
        .where(and(eq(documentHouses.documentId, documents.id), or(isNull(houses.complexId), notInArray(houses.complexId, complexIds)))),
    ),
    exists(
      db
        .select({ one: sql`1` })
        .from(documentApartments)
        .innerJoin(realty, eq(realty.id, documentApartments.realtyId))
        .innerJoin(houses, eq(houses.id, realty.houseId))
        .where(and(eq(documentApartments.documentId, documents.id), or(isNull(houses.complexId), notInArray(houses.complexId, complexIds)))),
    ),
  )!;

/** Documents a user may see: the organization's (checked by the caller) and, for staff, those that touch one of their complexes. */
const documentScope = (db: Reader, user: CurrentUser): SQL =>
  user.complexIds === null ? sql`true` : user.complexIds.length === 0 ? sql`false` : touches(db, user.complexIds);

/** Every scope must be the organization's and within the user's complexes (422 on that field); at least one is needed. */
async function resolveScopes(db: Reader, user: CurrentUser, body: DocumentInput): Promise<Scopes> {
  const allowed = (complexId: number | null) => (user.complexIds === null ? true : complexId !== null && user.complexIds.includes(complexId));
  const complexIds = unique(body.complexIds);
  const houseIds = unique(body.houseIds);
  const apartmentIds = unique(body.apartmentIds);
  if (complexIds.length) {
    const found = await db
      .select({ id: complexes.id })
      .from(complexes)
      .where(and(eq(complexes.organizationId, user.organizationId), inArray(complexes.id, complexIds)));
    const ok = new Set(found.map((c) => c.id).filter((id) => allowed(id)));
    const missing = complexIds.filter((id) => !ok.has(id));
    if (missing.length) throw unprocessable({ complexIds: [`Комплекс не знайдено (№ ${missing.join(', ')}).`] });
  }
  if (houseIds.length) {
    const found = await db
      .select({ id: houses.id, complexId: houses.complexId })
      .from(houses)
      .where(and(eq(houses.organizationId, user.organizationId), inArray(houses.id, houseIds)));
    const ok = new Set(found.filter((h) => allowed(h.complexId)).map((h) => h.id));
    const missing = houseIds.filter((id) => !ok.has(id));
    if (missing.length) throw unprocessable({ houseIds: [`Будинок не знайдено (№ ${missing.join(', ')}).`] });
  }
  if (apartmentIds.length) {
    const found = await db
      .select({ id: realty.id, complexId: houses.complexId })
      .from(realty)
      .innerJoin(houses, eq(houses.id, realty.houseId))
      .where(and(eq(realty.organizationId, user.organizationId), eq(realty.type, 'apartment'), inArray(realty.id, apartmentIds)));
    const ok = new Set(found.filter((r) => allowed(r.complexId)).map((r) => r.id));
    const missing = apartmentIds.filter((id) => !ok.has(id));
    if (missing.length) throw unprocessable({ apartmentIds: [`Квартиру не знайдено (№ ${missing.join(', ')}).`] });
  }
  if (!complexIds.length && !houseIds.length && !apartmentIds.length) {
    throw unprocessable({ complexIds: ['Оберіть, кого стосується документ: комплекси, будинки або квартири.'] });
  }
  return { complexIds, houseIds, apartmentIds };
}

async function writeScopes(tx: Pick<Db, 'insert' | 'delete'>, id: number, s: Scopes) {
  await tx.delete(documentComplexes).where(eq(documentComplexes.documentId, id));
  await tx.delete(documentHouses).where(eq(documentHouses.documentId, id));
  await tx.delete(documentApartments).where(eq(documentApartments.documentId, id));
  if (s.complexIds.length) await tx.insert(documentComplexes).values(s.complexIds.map((complexId) => ({ documentId: id, complexId })));
  if (s.houseIds.length) await tx.insert(documentHouses).values(s.houseIds.map((houseId) => ({ documentId: id, houseId })));
  if (s.apartmentIds.length) await tx.insert(documentApartments).values(s.apartmentIds.map((realtyId) => ({ documentId: id, realtyId })));
}

/** The three scopes of a page of documents, with complex names and house addresses. */
async function loadScopes(db: Reader, ids: number[]) {
  const [c, h, a] = await Promise.all([
    db
      .select({ documentId: documentComplexes.documentId, id: complexes.id, name: complexes.name })
      .from(documentComplexes)
      .innerJoin(complexes, eq(complexes.id, documentComplexes.complexId))
      .where(inArray(documentComplexes.documentId, ids))
      .orderBy(complexes.id),
    db
      .select({ documentId: documentHouses.documentId, id: documentHouses.houseId })
      .from(documentHouses)
      .where(inArray(documentHouses.documentId, ids))
      .orderBy(documentHouses.houseId),
    db
      .select({ documentId: documentApartments.documentId, id: realty.id, houseId: realty.houseId, number: realty.number })
      .from(documentApartments)
      .innerJoin(realty, eq(realty.id, documentApartments.realtyId))
      .where(inArray(documentApartments.documentId, ids))
      .orderBy(realty.id),
  ]);
  const houseIds = unique([...h.map((x) => x.id), ...a.map((x) => x.houseId)]);
  const houseRows = houseIds.length ? await selectHouses(db).where(inArray(houses.id, houseIds)) : [];
  const address = new Map(houseRows.map((r) => [r.id, formatAddress(r)]));
  return { c, h, a, address };
}

/** Documents: the generic CRUD of their declaration (contract/documents.ts), with the file and the three scopes. */
const crud = crudRoutes(documentEntity, {
  table: documents,
  columns: { name: documents.name, is_public: documents.isPublic, created_at: documents.createdAt },
  scope: ({ db, user }) => documentScope(db, user),
  query: { complex_id: idSchema.optional(), house_id: idSchema.optional() },
  where({ db }, q) {
    const conditions: SQL[] = [];
    if (q.complex_id !== undefined) conditions.push(touches(db, [q.complex_id as number]));
    if (q.house_id !== undefined)
      conditions.push(
        or(
          exists(
            db
              .select({ one: sql`1` })
              .from(documentHouses)
              .where(and(eq(documentHouses.documentId, documents.id), eq(documentHouses.houseId, q.house_id as number))),
          ),
          exists(
            db
              .select({ one: sql`1` })
              .from(documentApartments)
              .innerJoin(realty, eq(realty.id, documentApartments.realtyId))
              .where(and(eq(documentApartments.documentId, documents.id), eq(realty.houseId, q.house_id as number))),
          ),
        )!,
      );
    return conditions.length ? and(...conditions) : undefined;
  },
  // The file is the document's own: removed with it or when a new one replaces it.
  file: { key: 'fileId', owned: true },
  async toRecords({ db }, rows) {
    const ids = rows.map((r) => r.id);
    if (ids.length === 0) return [];
    const fileIds = unique(rows.map((r) => r.fileId));
    const [{ c, h, a, address }, authors, files] = await Promise.all([
      loadScopes(db, ids),
      authorNames(
        db,
        rows.map((r) => r.authorId),
      ),
      db.select().from(media).where(inArray(media.id, fileIds)),
    ]);
    const fileOf = new Map(files.map((f) => [f.id, f]));
    return rows.map((r) => {
      const mine = <T extends { documentId: number }>(list: T[]) => list.filter((x) => x.documentId === r.id);
      const file = fileOf.get(r.fileId)!;
      return {
        id: r.id,
        name: r.name,
        file_name: downloadName(file.originalName, file.mime),
        mime: file.mime,
        size: file.size,
        file_url: `/api/admin/documents/${r.id}/file`,
        is_public: r.isPublic,
        complexIds: mine(c).map((x) => x.id),
        houseIds: mine(h).map((x) => x.id),
        apartmentIds: mine(a).map((x) => x.id),
        complexes: mine(c).map((x) => ({ id: x.id, name: x.name })),
        houses: mine(h).map((x) => ({ id: x.id, address: address.get(x.id) ?? '' })),
        apartments: mine(a).map((x) => ({ id: x.id, house_id: x.houseId, number: x.number, address: address.get(x.houseId) ?? '' })),
        author: r.authorId === null ? null : (authors.get(r.authorId) ?? null),
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      };
    });
  },
  check: async ({ db, user }, input: DocumentInput) => void (await resolveScopes(db, user, input)),
  values: (b: DocumentInput, { user, upload }, created) => ({
    name: b.name,
    isPublic: b.is_public,
    ...(upload ? { fileId: upload.id } : {}),
    ...(created ? { authorId: user.id } : {}),
  }),
  afterWrite: async ({ db, user }, id, input) => writeScopes(db, id, await resolveScopes(db, user, input)),
  /** Staff change a document only when every scope of it lies within their complexes. */
  async guard({ db, user }, id) {
    if (user.complexIds === null) return;
    const outside = user.complexIds.length ? and(eq(documents.id, id), touchesOutside(db, user.complexIds)) : eq(documents.id, id);
    const [row] = await db.select({ id: documents.id }).from(documents).where(outside).limit(1);
    if (row) throw forbidden('Документ стосується також комплексів, до яких у вас немає доступу, тому змінити його не можна.');
  },
});

/**
 * Documents: the generic CRUD (multipart create and update with the file, a main_data list, a
 * streamed export) and the authorised download of the file.
 */
export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  await app.register(crud);

  app.get(
    '/documents/:id/file',
    {
      preHandler: requirePermission('documents', 'view'),
      schema: {
        tags: ['documents'],
        summary: 'Завантажити файл документа',
        description: 'Лише для документів у межах доступу користувача; інакше 404.',
        params: z.object({ id: idSchema }),
      },
    },
    async (request, reply) => {
      const [row] = await db
        .select({ fileId: documents.fileId })
        .from(documents)
        .where(and(eq(documents.organizationId, request.user.organizationId), documentScope(db, request.user), eq(documents.id, request.params.id)))
        .limit(1);
      if (!row) throw notFound(documentEntity.messages.notFound);
      const [file] = await db.select().from(media).where(eq(media.id, row.fileId));
      if (!file) throw notFound('Файл не знайдено.');
      return sendStored(reply, app.storage, file, 'attachment');
    },
  );
};
