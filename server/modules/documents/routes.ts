import { and, count, desc, eq, exists, ilike, inArray, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { documentInput, documentRecord, type DocumentInput, type DocumentRecord } from '../../../contract/documents.ts';
import { complexes, documentApartments, documentComplexes, documentHouses, documents, houses, media, realty } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import { downloadName, removeStored, sendStored } from '../../lib/files.ts';
import { likePattern, ukrainianSortKey } from '../../lib/list.ts';
import { multipartRoutes, readForm } from '../../lib/multipart.ts';
import { listQuery, paginate, paginationSchema } from '../../lib/pagination.ts';
import { authorNames } from '../community/audience.ts';
import { formatAddress } from '../houses/address.ts';
import { ordered } from '../../lib/order.ts';
import { selectHouses } from '../houses/records.ts';
import { insertMedia } from '../../lib/media.ts';

type Row = typeof documents.$inferSelect;
type Scopes = { complexIds: number[]; houseIds: number[]; apartmentIds: number[] };

const SORTS = ['id', 'name', 'created_at'] as const;
const sortKeys = { id: documents.id, name: ukrainianSortKey(documents.name), created_at: documents.createdAt } as const;

const documentListQuery = listQuery.extend({
  sort: z.enum(SORTS, { error: 'Сортування можливе за: id, name, created_at.' }).default('created_at'),
  order: z.enum(['asc', 'desc'], { error: 'Порядок сортування: asc або desc.' }).default('desc'),
  complex_id: idSchema.optional(),
  house_id: idSchema.optional(),
  is_public: z.enum(['0', '1'], { error: 'is_public: 0 або 1.' }).optional(),
});

const params = z.object({ id: idSchema });
const tags = ['documents'];
const one = z.object({ data: documentRecord });
const NOT_FOUND = 'Документ не знайдено.';
const unique = (ids: number[]) => [...new Set(ids)];

/**
 * Documents: multipart create/update with the file, a main_data list and an authorised
 * download. A document concerns complexes, houses and apartments; staff see the documents that
 * touch one of their complexes and change only those wholly inside them. Out of reach: 404.
 */
export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  /** Documents that touch any of `complexIds` through any of their three scopes. */
  const touches = (complexIds: number[]): SQL =>
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

  const scope = (user: CurrentUser): SQL => {
    const org = eq(documents.organizationId, user.organizationId);
    if (user.complexIds === null) return org;
    if (user.complexIds.length === 0) return sql`false`;
    return and(org, touches(user.complexIds))!;
  };

  async function findOne(user: CurrentUser, id: number) {
    const [row] = await db
      .select()
      .from(documents)
      .where(and(scope(user), eq(documents.id, id)))
      .limit(1);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  /** Every scope must be the organization's and within the user's complexes (422 on that field). */
  async function resolveScopes(user: CurrentUser, body: DocumentInput): Promise<Scopes> {
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

  async function loadScopes(ids: number[]) {
    const [c, h, a] = await Promise.all([
      ids.length
        ? db
            .select({ documentId: documentComplexes.documentId, id: complexes.id, name: complexes.name })
            .from(documentComplexes)
            .innerJoin(complexes, eq(complexes.id, documentComplexes.complexId))
            .where(inArray(documentComplexes.documentId, ids))
            .orderBy(complexes.id)
        : [],
      ids.length
        ? db
            .select({ documentId: documentHouses.documentId, id: documentHouses.houseId })
            .from(documentHouses)
            .where(inArray(documentHouses.documentId, ids))
            .orderBy(documentHouses.houseId)
        : [],
      ids.length
        ? db
            .select({ documentId: documentApartments.documentId, id: realty.id, houseId: realty.houseId, number: realty.number })
            .from(documentApartments)
            .innerJoin(realty, eq(realty.id, documentApartments.realtyId))
            .where(inArray(documentApartments.documentId, ids))
            .orderBy(realty.id)
        : [],
    ]);
    const houseIds = unique([...h.map((x) => x.id), ...a.map((x) => x.houseId)]);
    const houseRows = houseIds.length ? await selectHouses(db).where(inArray(houses.id, houseIds)) : [];
    const address = new Map(houseRows.map((r) => [r.id, formatAddress(r)]));
    return { c, h, a, address };
  }

  async function toRecords(rows: (Row & { file: typeof media.$inferSelect })[]): Promise<DocumentRecord[]> {
    const ids = rows.map((r) => r.id);
    const [{ c, h, a, address }, authors] = await Promise.all([
      loadScopes(ids),
      authorNames(
        db,
        rows.map((r) => r.authorId),
      ),
    ]);
    return rows.map((r) => {
      const mine = <T extends { documentId: number }>(list: T[]) => list.filter((x) => x.documentId === r.id);
      return {
        id: r.id,
        name: r.name,
        file_name: downloadName(r.file.originalName, r.file.mime),
        mime: r.file.mime,
        size: r.file.size,
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
  }

  const withFile = () => db.select({ doc: documents, file: media }).from(documents).innerJoin(media, eq(media.id, documents.fileId));
  const recordOf = async (id: number) => {
    const rows = await withFile().where(eq(documents.id, id));
    return (await toRecords(rows.map((r) => ({ ...r.doc, file: r.file }))))[0];
  };

  /** Staff change a document only when every scope of it lies within their complexes. */
  async function assertWholeInScope(user: CurrentUser, id: number) {
    if (user.complexIds === null) return;
    const outside = user.complexIds.length ? and(eq(documents.id, id), touchesOutside(user.complexIds)) : eq(documents.id, id);
    const [row] = await db.select({ id: documents.id }).from(documents).where(outside).limit(1);
    if (row) throw forbidden('Документ стосується також комплексів, до яких у вас немає доступу, тому змінити його не можна.');
  }
  const touchesOutside = (complexIds: number[]): SQL =>
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

  async function writeScopes(tx: Pick<typeof db, 'insert' | 'delete'>, id: number, s: Scopes) {
    await tx.delete(documentComplexes).where(eq(documentComplexes.documentId, id));
    await tx.delete(documentHouses).where(eq(documentHouses.documentId, id));
    await tx.delete(documentApartments).where(eq(documentApartments.documentId, id));
    if (s.complexIds.length) await tx.insert(documentComplexes).values(s.complexIds.map((complexId) => ({ documentId: id, complexId })));
    if (s.houseIds.length) await tx.insert(documentHouses).values(s.houseIds.map((houseId) => ({ documentId: id, houseId })));
    if (s.apartmentIds.length) await tx.insert(documentApartments).values(s.apartmentIds.map((realtyId) => ({ documentId: id, realtyId })));
  }

  /** A document's file is its own: removed with the document or when replaced. */
  async function dropFile(fileId: number) {
    const [file] = await db.delete(media).where(eq(media.id, fileId)).returning();
    if (file) await removeStored(app.storage, file.storedName);
  }

  app.get(
    '/documents',
    {
      preHandler: requirePermission('documents', 'view'),
      schema: {
        tags,
        summary: 'Документи',
        description: 'search_query — у назві; фільтри complex_id, house_id (документи, що їх стосуються), is_public (0/1).',
        querystring: documentListQuery,
        response: { 200: z.object({ main_data: paginationSchema.extend({ data: z.array(documentRecord) }) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [scope(request.user)];
      if (q.complex_id !== undefined) conditions.push(touches([q.complex_id]));
      if (q.house_id !== undefined) {
        conditions.push(
          or(
            exists(
              db
                .select({ one: sql`1` })
                .from(documentHouses)
                .where(and(eq(documentHouses.documentId, documents.id), eq(documentHouses.houseId, q.house_id))),
            ),
            exists(
              db
                .select({ one: sql`1` })
                .from(documentApartments)
                .innerJoin(realty, eq(realty.id, documentApartments.realtyId))
                .where(and(eq(documentApartments.documentId, documents.id), eq(realty.houseId, q.house_id))),
            ),
          ),
        );
      }
      if (q.is_public !== undefined) conditions.push(eq(documents.isPublic, q.is_public === '1'));
      const search = q.search_query.trim();
      if (search) conditions.push(ilike(documents.name, likePattern(search)));
      const where = and(...conditions);
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(documents).where(where),
        withFile()
          .where(where)
          .orderBy(...ordered([sortKeys[q.sort]], q.order), q.order === 'desc' ? desc(documents.id) : documents.id)
          .limit(q.per_page)
          .offset((q.page - 1) * q.per_page),
      ]);
      return { main_data: { data: await toRecords(rows.map((r) => ({ ...r.doc, file: r.file }))), ...paginate(total, q.page, q.per_page) } };
    },
  );

  app.get(
    '/documents/:id',
    { preHandler: requirePermission('documents', 'view'), schema: { tags, summary: 'Документ', params, response: { 200: one } } },
    async (request) => {
      const row = await findOne(request.user, request.params.id);
      return { data: await recordOf(row.id) };
    },
  );

  app.get(
    '/documents/:id/file',
    {
      preHandler: requirePermission('documents', 'view'),
      schema: { tags, summary: 'Завантажити файл документа', description: 'Лише для документів у межах доступу користувача; інакше 404.', params },
    },
    async (request, reply) => {
      const row = await findOne(request.user, request.params.id);
      const [file] = await db.select().from(media).where(eq(media.id, row.fileId));
      if (!file) throw notFound('Файл не знайдено.');
      return sendStored(reply, app.storage, file, 'attachment');
    },
  );

  app.delete(
    '/documents/:id',
    {
      preHandler: requirePermission('documents', 'delete'),
      schema: { tags, summary: 'Видалити документ', params, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      const row = await findOne(request.user, request.params.id);
      await assertWholeInScope(request.user, row.id);
      await db.delete(documents).where(eq(documents.id, row.id));
      await dropFile(row.fileId);
      return { message: 'Документ видалено.' };
    },
  );

  await multipartRoutes(app, (mp) => {
    mp.post(
      '/documents',
      {
        preHandler: requirePermission('documents', 'create'),
        schema: {
          tags,
          summary: 'Додати документ',
          description:
            'multipart/form-data: name, file (PDF, DOC(X), XLS(X), ODT, ODS, JPEG, PNG; до 20 МБ), houseIds[], apartmentIds[], complexIds[], is_public (0/1).',
          consumes: ['multipart/form-data'],
          response: { 200: one },
        },
      },
      async (request) => {
        const user = request.user;
        const { body, file, discard } = await readForm(request, documentInput, { storage: app.storage, fileField: 'file', kind: 'document' });
        let scopes: Scopes;
        try {
          if (!file) throw unprocessable({ file: ['Оберіть файл документа.'] });
          scopes = await resolveScopes(user, body);
        } catch (err) {
          await discard();
          throw err;
        }
        const stored = await insertMedia(db, app.storage, user, 'document', file);
        const id = await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(documents)
            .values({ organizationId: user.organizationId, name: body.name, fileId: stored.id, isPublic: body.is_public, authorId: user.id })
            .returning({ id: documents.id });
          await writeScopes(tx, row.id, scopes);
          return row.id;
        });
        return { data: await recordOf(id) };
      },
    );

    mp.put(
      '/documents/:id',
      {
        preHandler: requirePermission('documents', 'edit'),
        schema: {
          tags,
          summary: 'Змінити документ',
          description: 'multipart/form-data, як для додавання; file — необов’язково (новий файл замінює старий).',
          params,
          consumes: ['multipart/form-data'],
          response: { 200: one },
        },
      },
      async (request) => {
        const user = request.user;
        const row = await findOne(user, request.params.id);
        await assertWholeInScope(user, row.id);
        const { body, file, discard } = await readForm(request, documentInput, { storage: app.storage, fileField: 'file', kind: 'document' });
        let scopes: Scopes;
        try {
          scopes = await resolveScopes(user, body);
        } catch (err) {
          await discard();
          throw err;
        }
        const stored = file ? await insertMedia(db, app.storage, user, 'document', file) : undefined;
        await db.transaction(async (tx) => {
          await tx
            .update(documents)
            .set({ name: body.name, isPublic: body.is_public, ...(stored ? { fileId: stored.id } : {}), updatedAt: new Date() })
            .where(eq(documents.id, row.id));
          await writeScopes(tx, row.id, scopes);
        });
        if (stored) await dropFile(row.fileId);
        return { data: await recordOf(row.id) };
      },
    );
  });
};
