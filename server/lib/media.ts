import { and, eq, inArray, is } from 'drizzle-orm';
import { getTableConfig, PgTable, type PgColumn } from 'drizzle-orm/pg-core';
import type { Area } from '../../contract/permissions.ts';
import type { Db } from '../db/index.ts';
import * as schema from '../db/schema.ts';
import { media } from '../db/schema.ts';
import type { CurrentUser } from './auth.ts';
import { unprocessable } from './errors.ts';
import { removeStored, type FileKind, type StoredUpload } from './files.ts';
import type { FileStorage } from './storage.ts';

type Reader = Pick<Db, 'select'>;
export type MediaRow = typeof media.$inferSelect;

/**
 * Every column of the schema that holds a file: the foreign keys to `media.id`, read from the
 * schema itself, so a table added later that holds files is known here without a list to keep.
 * A file is "held" while any row names it (an article's cover, a request's photo, a document's
 * file, a meeting's protocol, ...); a file nobody holds is an upload waiting for its form.
 */
export const FILE_HOLDERS: { table: PgTable; column: PgColumn }[] = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .flatMap((table) =>
    getTableConfig(table)
      .foreignKeys.map((fk) => fk.reference())
      .filter((ref) => ref.foreignTable === media && ref.columns.length === 1)
      .map((ref) => ({ table, column: ref.columns[0] })),
  );

/** Which of `ids` some row holds. */
export async function heldFiles(db: Reader, ids: number[]): Promise<Set<number>> {
  const held = new Set<number>();
  if (ids.length === 0) return held;
  const found = await Promise.all(FILE_HOLDERS.map(({ table, column }) => db.select({ id: column }).from(table).where(inArray(column, ids))));
  for (const rows of found) for (const r of rows) held.add(r.id as number);
  return held;
}

/**
 * Files a form may attach by id (`image_id`, `media_ids`): those its record already holds
 * (`kept`), and the user's own uploads that nothing holds yet. Anything else — another user's
 * upload, a file of another record, complex or organization — answers as if it did not exist:
 * attaching a file by its id would otherwise serve it through a record the user may see.
 * Returns the ids refused.
 */
export async function refusedAttachments(
  db: Reader,
  user: CurrentUser,
  ids: number[],
  opts: { kept?: (number | null)[]; accept: (row: MediaRow) => boolean },
): Promise<number[]> {
  const kept = new Set(opts.kept ?? []);
  const wanted = [...new Set(ids)].filter((id) => !kept.has(id));
  if (wanted.length === 0) return [];
  const [rows, held] = await Promise.all([
    db
      .select()
      .from(media)
      .where(and(inArray(media.id, wanted), eq(media.organizationId, user.organizationId), eq(media.uploadedBy, user.id))),
    heldFiles(db, wanted),
  ]);
  const ok = new Set(rows.filter((r) => !held.has(r.id) && opts.accept(r)).map((r) => r.id));
  return wanted.filter((id) => !ok.has(id));
}

/** `refusedAttachments` as a 422 on `field`. */
export async function assertAttachable(
  db: Reader,
  user: CurrentUser,
  ids: (number | null)[],
  field: string,
  message: string,
  opts: Parameters<typeof refusedAttachments>[3],
) {
  const refused = await refusedAttachments(
    db,
    user,
    ids.filter((id): id is number => id !== null),
    opts,
  );
  if (refused.length) throw unprocessable({ [field]: [message] });
}

export const isImage = (row: Pick<MediaRow, 'kind'>) => row.kind === 'image';
export const IMAGE_GONE = 'Зображення не знайдено. Завантажте його ще раз.';

/** The keys of files by id, for the URLs of the records that hold them. */
export async function fileKeys(db: Reader, ids: (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: media.id, key: media.key }).from(media).where(inArray(media.id, wanted));
  return new Map(rows.map((r) => [r.id, r.key]));
}

/**
 * A kind of record whose files `GET /media/{key}` serves: it needs the `view` right on `area`,
 * and `holds` says whether a row the user may see holds the file.
 */
export interface FileReader {
  area: Area;
  holds: (db: Reader, user: CurrentUser, mediaId: number) => Promise<boolean>;
}

/** Stores an uploaded file's record; the file is removed again when that fails. */
export async function insertMedia(db: Pick<Db, 'insert'>, storage: FileStorage, user: CurrentUser, kind: FileKind, file: StoredUpload) {
  try {
    const [row] = await db
      .insert(media)
      .values({
        organizationId: user.organizationId,
        kind,
        storedName: file.storedName,
        originalName: file.originalName,
        mime: file.mime,
        size: file.size,
        uploadedBy: user.id,
      })
      .returning();
    return row;
  } catch (err) {
    await removeStored(storage, file.storedName);
    throw err;
  }
}
