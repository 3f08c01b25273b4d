import { and, eq, sql } from 'drizzle-orm';
import { eventEntity, type EventInput, type EventState } from '../../../contract/events.ts';
import { mediaUrl } from '../../../contract/media.ts';
import type { Db } from '../../db/index.ts';
import { eventComplexes, eventHouses, events } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { assertAttachable, fileKeys, IMAGE_GONE, isImage, type FileReader } from '../../lib/media.ts';
import { NOW } from '../../lib/sqlReads.ts';
import { audienceHooks, audienceScope, authorNames, loadAudiences, type AudienceTables } from '../community/audience.ts';

type Row = typeof events.$inferSelect;

const AUDIENCE: AudienceTables = {
  complexes: {
    table: eventComplexes,
    parentId: eventComplexes.eventId,
    complexId: eventComplexes.complexId,
    row: (eventId, complexId) => ({ eventId, complexId }),
  },
  houses: { table: eventHouses, parentId: eventHouses.eventId, houseId: eventHouses.houseId, row: (eventId, houseId) => ({ eventId, houseId }) },
};

/** An event without an end counts as lasting a day from its start. */
const endSql = sql`coalesce(${events.endsAt}, ${events.startsAt} + interval '1 day')`;
const stateSql = sql<EventState>`case when ${events.startsAt} > ${NOW} then 'upcoming' when ${endSql} < ${NOW} then 'past' else 'ongoing' end`;

export function eventState(row: Pick<Row, 'startsAt' | 'endsAt'>, now = new Date()): EventState {
  if (row.startsAt > now) return 'upcoming';
  const end = row.endsAt ?? new Date(row.startsAt.getTime() + 24 * 3600 * 1000);
  return end < now ? 'past' : 'ongoing';
}

/** Events a user may see: the organization's, and for staff those meant for one of their complexes. */
const eventScope = (db: Pick<Db, 'select'>, user: CurrentUser) =>
  and(eq(events.organizationId, user.organizationId), audienceScope(db, user, AUDIENCE, events.id));

/** Pictures are served to whoever may read the event they illustrate. */
export const eventFiles: FileReader = {
  area: 'events',
  holds: async (db, user, mediaId) =>
    (
      await db
        .select({ id: events.id })
        .from(events)
        .where(and(eq(events.imageId, mediaId), eventScope(db, user)))
        .limit(1)
    ).length > 0,
};

const audience = audienceHooks(AUDIENCE, events.id);

/** The events poster: the generic CRUD of its declaration (contract/events.ts), for the audience it names. */
export const eventRoutes = crudRoutes(eventEntity, {
  table: events,
  columns: { title: events.title, place: events.place, starts_at: events.startsAt, created_at: events.createdAt, state: stateSql },
  ...audience,
  /** The audience, then the picture: the event's own (kept) or the user's fresh upload. */
  async check(ctx, input: EventInput, id) {
    await audience.check(ctx, input, id);
    const [current] = id === undefined ? [] : await ctx.db.select({ imageId: events.imageId }).from(events).where(eq(events.id, id));
    await assertAttachable(ctx.db, ctx.user, [input.image_id], 'image_id', IMAGE_GONE, { kept: [current?.imageId ?? null], accept: isImage });
  },
  async toRecords({ db }, rows) {
    const [audiences, authors, keys] = await Promise.all([
      loadAudiences(
        db,
        AUDIENCE,
        rows.map((r) => r.id),
      ),
      authorNames(
        db,
        rows.map((r) => r.authorId),
      ),
      fileKeys(
        db,
        rows.map((r) => r.imageId),
      ),
    ]);
    const now = new Date();
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      description: r.description,
      place: r.place,
      starts_at: r.startsAt.toISOString(),
      ends_at: r.endsAt?.toISOString() ?? null,
      image_id: r.imageId,
      image_url: r.imageId !== null && keys.has(r.imageId) ? mediaUrl(keys.get(r.imageId)!) : null,
      state: eventState(r, now),
      author: r.authorId === null ? null : (authors.get(r.authorId) ?? null),
      ...audiences.get(r.id)!,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
  },
  values: (b: EventInput, { user }, created) => ({
    title: b.title,
    description: b.description,
    place: b.place,
    startsAt: b.starts_at,
    endsAt: b.ends_at,
    imageId: b.image_id,
    ...(created ? { authorId: user.id } : {}),
  }),
});
