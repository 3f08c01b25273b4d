import { sql } from 'drizzle-orm';
import { announcementEntity, type AnnouncementInput, type AnnouncementState } from '../../../contract/announcements.ts';
import { announcementComplexes, announcementHouses, announcements } from '../../db/schema.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { audienceHooks, authorNames, loadAudiences, type AudienceTables } from '../community/audience.ts';
import { NOW } from '../../lib/sqlReads.ts';

type Row = typeof announcements.$inferSelect;

const AUDIENCE: AudienceTables = {
  complexes: {
    table: announcementComplexes,
    parentId: announcementComplexes.announcementId,
    complexId: announcementComplexes.complexId,
    row: (announcementId, complexId) => ({ announcementId, complexId }),
  },
  houses: {
    table: announcementHouses,
    parentId: announcementHouses.announcementId,
    houseId: announcementHouses.houseId,
    row: (announcementId, houseId) => ({ announcementId, houseId }),
  },
};

const stateSql = sql<AnnouncementState>`case when ${announcements.validFrom} > ${NOW} then 'upcoming'
  when ${announcements.validUntil} < ${NOW} then 'expired' else 'active' end`;

export function announcementState(row: Pick<Row, 'validFrom' | 'validUntil'>, now = new Date()): AnnouncementState {
  if (row.validFrom > now) return 'upcoming';
  if (row.validUntil && row.validUntil < now) return 'expired';
  return 'active';
}

/** Announcements: the generic CRUD of their declaration (contract/announcements.ts), for the audience of complexes and houses they name. */
export const announcementRoutes = crudRoutes(announcementEntity, {
  table: announcements,
  columns: {
    title: announcements.title,
    valid_from: announcements.validFrom,
    valid_until: announcements.validUntil,
    created_at: announcements.createdAt,
    state: stateSql,
  },
  ...audienceHooks(AUDIENCE, announcements.id),
  async toRecords({ db }, rows) {
    const [audiences, authors] = await Promise.all([
      loadAudiences(
        db,
        AUDIENCE,
        rows.map((r) => r.id),
      ),
      authorNames(
        db,
        rows.map((r) => r.authorId),
      ),
    ]);
    const now = new Date();
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      body: r.body,
      valid_from: r.validFrom.toISOString(),
      valid_until: r.validUntil?.toISOString() ?? null,
      state: announcementState(r, now),
      author: r.authorId === null ? null : (authors.get(r.authorId) ?? null),
      ...audiences.get(r.id)!,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
  },
  values: (b: AnnouncementInput, { user }, created) => ({
    title: b.title,
    body: b.body,
    validFrom: b.valid_from,
    validUntil: b.valid_until,
    ...(created ? { authorId: user.id } : {}),
  }),
});
