import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  advertisementEntity,
  advertisementPublish,
  advertisementRecord,
  type Advertisement,
  type AdvertisementInput,
} from '../../../contract/advertisements.ts';
import { idSchema } from '../../../contract/common.ts';
import { mediaUrl } from '../../../contract/media.ts';
import type { Db } from '../../db/index.ts';
import { advertisements, houses } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { expectedVersion, nextVersion, staleRecord, versionMatches } from '../../lib/concurrency.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { notFound, unprocessable } from '../../lib/errors.ts';
import { fileKeys, type FileReader } from '../../lib/media.ts';
import { multipartRoutes, readForm } from '../../lib/multipart.ts';
import { formatAddress } from '../houses/address.ts';
import { houseScope, selectHouses } from '../houses/records.ts';

type Row = typeof advertisements.$inferSelect;

const params = z.object({ id: idSchema });
const tags = ['advertisements'];

/** Advertisements a user may see: the organization's, and for staff those of houses in their complexes. */
function advertisementScope(db: Pick<Db, 'select'>, user: CurrentUser): SQL {
  const org = eq(advertisements.organizationId, user.organizationId);
  if (user.complexIds === null) return org;
  return and(org, inArray(advertisements.houseId, db.select({ id: houses.id }).from(houses).where(houseScope(user))))!;
}

/** Pictures are served to whoever may read the advertisement. */
export const advertisementFiles: FileReader = {
  area: 'advertisements',
  holds: async (db, user, mediaId) =>
    (
      await db
        .select({ id: advertisements.id })
        .from(advertisements)
        .where(and(eq(advertisements.imageId, mediaId), advertisementScope(db, user)))
        .limit(1)
    ).length > 0,
};

/** Rows → records: the house's address and complex, the picture's authorised route. */
async function toRecords(db: Pick<Db, 'select'>, rows: Row[]): Promise<Advertisement[]> {
  const houseIds = [...new Set(rows.map((r) => r.houseId))];
  const [houseRows, keys] = await Promise.all([
    houseIds.length ? selectHouses(db).where(inArray(houses.id, houseIds)) : [],
    fileKeys(
      db,
      rows.map((r) => r.imageId),
    ),
  ]);
  const byId = new Map(houseRows.map((h) => [h.id, h]));
  return rows.map((r) => {
    const house = byId.get(r.houseId);
    return {
      id: r.id,
      name: r.name,
      desc: r.description,
      house_id: r.houseId,
      address: house ? formatAddress(house) : '',
      complex_id: house?.complexId ?? null,
      image_id: r.imageId,
      image: r.imageId !== null && keys.has(r.imageId) ? mediaUrl(keys.get(r.imageId)!) : null,
      published: r.published ? 1 : 0,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    };
  });
}

/** Residents' advertisements: the generic CRUD of their declaration (contract/advertisements.ts), for the houses of the caller's complexes. */
const crud = crudRoutes(advertisementEntity, {
  table: advertisements,
  columns: {
    name: advertisements.name,
    desc: advertisements.description,
    house_id: advertisements.houseId,
    published: advertisements.published,
    created_at: advertisements.createdAt,
  },
  houseColumn: advertisements.houseId,
  // The picture may be shown elsewhere meanwhile (a copied link): it stays when replaced, as before.
  file: { key: 'imageId', owned: false },
  toRecords: ({ db }, rows) => toRecords(db, rows),
  async check(_ctx, input: AdvertisementInput, id) {
    if (id === undefined && input.house_id === undefined) throw unprocessable({ house_id: ['Оберіть будинок.'] });
  },
  values: (b: AdvertisementInput, { user, upload }, created) => ({
    name: b.name,
    description: b.desc,
    ...(b.house_id !== undefined ? { houseId: b.house_id } : {}),
    ...(upload ? { imageId: upload.id } : b.remove_image ? { imageId: null } : {}),
    ...(b.published !== undefined ? { published: b.published } : created ? { published: false } : {}),
    ...(created ? { authorId: user.id } : {}),
  }),
  /** The published switch of the selected advertisements, as POST /advertisement/{id} sets it. */
  async bulk(_app, { db }, row, data) {
    await db
      .update(advertisements)
      .set({ published: Boolean(data.published), updatedAt: nextVersion(advertisements.updatedAt) })
      .where(eq(advertisements.id, row.id));
  },
});

/**
 * Residents' advertisements (/advertisement; docs/decisions.md, "Community content"): the generic
 * CRUD with multipart forms and the list in main_data (docs/architecture.md, "The contract"), and
 * the published switch, POST /advertisement/{id}. Staff see and change the advertisements of houses
 * in their complexes only.
 */
export const advertisementRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  await app.register(crud);

  await multipartRoutes(app, (mp) => {
    mp.post(
      '/advertisement/:id',
      {
        preHandler: requirePermission('advertisements', 'edit'),
        schema: {
          tags,
          summary: 'Опублікувати або приховати оголошення',
          description: 'multipart/form-data: published (0 або 1). If-Match: updated_at прочитаного запису — 409, якщо запис тим часом змінили.',
          params,
          consumes: ['multipart/form-data'],
          response: { 200: z.object({ data: advertisementRecord }) },
        },
      },
      async (request) => {
        const { id } = request.params;
        const expected = expectedVersion(request);
        const where = and(advertisementScope(db, request.user), eq(advertisements.id, id));
        const [row] = await db.select({ id: advertisements.id }).from(advertisements).where(where).limit(1);
        if (!row) throw notFound(advertisementEntity.messages.notFound);
        const { body } = await readForm(request, advertisementPublish, { storage: app.storage });
        const [changed] = await db
          .update(advertisements)
          .set({ published: body.published, updatedAt: nextVersion(advertisements.updatedAt) })
          .where(and(eq(advertisements.id, id), versionMatches(advertisements.updatedAt, expected)))
          .returning();
        if (!changed) throw staleRecord();
        return { data: (await toRecords(db, [changed]))[0] };
      },
    );
  });
};
