/**
 * Logical backup and restore of the whole product: every table of the database (rows as JSON,
 * loaded back in foreign-key order), the sequences, the migration level, and the uploaded files
 * (read and written through the file storage, so the uploads folder and object storage both
 * work). The same archive restores into PGlite or PostgreSQL, whichever made it.
 *
 * Archive (tar.gz):
 *   manifest.json          format, creation time, migrations, tables (columns, row counts), sequences, files
 *   db/<table>.ndjson      one row per line, as PostgreSQL's to_jsonb() wrote it (exact numbers and text)
 *   uploads/<key>          the stored files, by their storage key (media.stored_name)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import * as tar from 'tar';
import { queryRows, type Database, type Db } from '../db/index.ts';
import type { FileStorage } from './storage.ts';

export const BACKUP_FORMAT = 'zhk-admin-backup';
export const BACKUP_VERSION = 1;

/** A refusal meant for the person running the command (Ukrainian, one line). */
export class BackupError extends Error {}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  created_at: string;
  driver: Database['driver'];
  /** Hashes of the applied migrations, oldest first. */
  migrations: string[];
  tables: { name: string; columns: string[]; rows: number }[];
  sequences: { name: string; last_value: string; is_called: boolean }[];
  uploads: { files: number; bytes: number; missing: string[] };
}

export interface BackupSummary {
  tables: number;
  rows: number;
  files: number;
  missing: number;
}

type Executor = Pick<Db, 'execute'>;

const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);

/**
 * Tables that database triggers fill from other tables' rows (migrations 0021, 0022, 0025): neither
 * written to an archive nor restored, because restoring their sources rebuilds them.
 */
const DERIVED_TABLES = new Set(['member_units', 'list_changes']);

/** Tables of the public schema, parents before children (foreign keys), then by name; derived tables left out. */
async function tablesInOrder(db: Executor): Promise<string[]> {
  const tables = (
    await queryRows<{ name: string }>(
      db,
      sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`,
    )
  )
    .map((r) => r.name)
    .filter((name) => !DERIVED_TABLES.has(name));
  const edges = await queryRows<{ child: string; parent: string }>(
    db,
    sql`SELECT ch.relname AS child, pa.relname AS parent FROM pg_constraint con
        JOIN pg_class ch ON ch.oid = con.conrelid JOIN pg_class pa ON pa.oid = con.confrelid
        JOIN pg_namespace n ON n.oid = ch.relnamespace
        WHERE con.contype = 'f' AND n.nspname = 'public'`,
  );
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  for (const e of edges) if (e.child !== e.parent && parents.has(e.parent)) parents.get(e.child)?.add(e.parent);
  const ordered: string[] = [];
  const done = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !done.has(t) && [...parents.get(t)!].every((p) => done.has(p)));
    // A cycle of foreign keys (none today): take the rest as they come rather than loop forever.
    const next = ready.length > 0 ? ready : tables.filter((t) => !done.has(t));
    for (const t of next) {
      done.add(t);
      ordered.push(t);
    }
  }
  return ordered;
}

/** Columns that hold data (generated columns are recomputed by the database). */
async function storedColumns(db: Executor, table: string): Promise<string[]> {
  return (
    await queryRows<{ name: string }>(
      db,
      sql`SELECT a.attname AS name FROM pg_attribute a
        WHERE a.attrelid = ${`public."${table}"`}::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
        ORDER BY a.attnum`,
    )
  ).map((r) => r.name);
}

async function generatedColumns(db: Executor, table: string): Promise<string[]> {
  return (
    await queryRows<{ name: string }>(
      db,
      sql`SELECT a.attname AS name FROM pg_attribute a
        WHERE a.attrelid = ${`public."${table}"`}::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated <> ''`,
    )
  ).map((r) => r.name);
}

async function primaryKey(db: Executor, table: string): Promise<string[]> {
  return (
    await queryRows<{ name: string }>(
      db,
      sql`SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
        WHERE i.indrelid = ${`public."${table}"`}::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
    )
  ).map((r) => r.name);
}

async function sequences(db: Executor): Promise<string[]> {
  return (
    await queryRows<{ name: string }>(
      db,
      sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY c.relname`,
    )
  ).map((r) => r.name);
}

async function appliedMigrations(db: Executor): Promise<string[]> {
  const [exists] = await queryRows<{ present: boolean }>(db, sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  if (!exists?.present) return [];
  return (await queryRows<{ hash: string }>(db, sql`SELECT hash FROM drizzle.__drizzle_migrations ORDER BY created_at, id`)).map((r) => r.hash);
}

/** Whether the database holds no rows at all (no tables, or only empty ones). */
export async function databaseIsEmpty(db: Executor): Promise<boolean> {
  for (const table of await tablesInOrder(db)) {
    const [r] = await queryRows<{ any: boolean }>(db, sql`SELECT EXISTS (SELECT 1 FROM ${ident(table)}) AS any`);
    if (r?.any) return false;
  }
  return true;
}

/** Every stored file the database refers to. */
async function storedFileKeys(db: Executor): Promise<string[]> {
  const [exists] = await queryRows<{ present: boolean }>(db, sql`SELECT to_regclass('public.media') IS NOT NULL AS present`);
  if (!exists?.present) return [];
  return (await queryRows<{ key: string }>(db, sql`SELECT DISTINCT stored_name AS key FROM media ORDER BY 1`)).map((r) => r.key);
}

const BATCH = 2000;

/** Writes the whole database and the stored files into one .tar.gz archive. */
export async function writeBackup(opts: { db: Db; driver: Database['driver']; storage: FileStorage; file: string }): Promise<BackupSummary> {
  const { db, storage } = opts;
  const staging = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'zhk-backup-'));
  try {
    await fs.promises.mkdir(path.join(staging, 'db'));
    await fs.promises.mkdir(path.join(staging, 'uploads'));
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      created_at: new Date().toISOString(),
      driver: opts.driver,
      migrations: [],
      tables: [],
      sequences: [],
      uploads: { files: 0, bytes: 0, missing: [] },
    };
    // One snapshot for every table, so rows of related tables agree with each other.
    await db.transaction(async (tx) => {
      if (opts.driver === 'postgres') await tx.execute(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`);
      manifest.migrations = await appliedMigrations(tx);
      for (const table of await tablesInOrder(tx)) {
        const columns = await storedColumns(tx, table);
        const key = await primaryKey(tx, table);
        // Rows in key order; a table without a key in the order of its rows' text (stable within the snapshot).
        const order = key.length ? sql.raw(key.map((c) => `t."${c.replace(/"/g, '""')}"`).join(', ')) : sql.raw('1');
        const generated = await generatedColumns(tx, table);
        const projection = sql.raw(`(to_jsonb(t)${generated.map((c) => ` - '${c.replace(/'/g, "''")}'`).join('')})::text`);
        const out = path.join(staging, 'db', `${table}.ndjson`);
        await fs.promises.writeFile(out, '');
        let count = 0;
        // A one-column key pages by key (fast on big tables); other tables by offset.
        const single = key.length === 1 ? ident(key[0]) : undefined;
        let after: string | undefined;
        for (let offset = 0; ; offset += BATCH) {
          const batch = single
            ? await queryRows<{ r: string; k: string }>(
                tx,
                sql`SELECT ${projection} AS r, t.${single}::text AS k FROM ${ident(table)} t
                    ${after === undefined ? sql`` : sql`WHERE t.${single} > ${after}`} ORDER BY t.${single} LIMIT ${BATCH}`,
              )
            : await queryRows<{ r: string; k: string }>(
                tx,
                sql`SELECT ${projection} AS r, '' AS k FROM ${ident(table)} t ORDER BY ${order} LIMIT ${BATCH} OFFSET ${offset}`,
              );
          if (batch.length === 0) break;
          await fs.promises.appendFile(out, batch.map((b) => `${b.r}\n`).join(''));
          count += batch.length;
          after = batch[batch.length - 1].k;
          if (batch.length < BATCH) break;
        }
        manifest.tables.push({ name: table, columns, rows: count });
      }
      for (const seq of await sequences(tx)) {
        const [s] = await queryRows<{ last_value: string | number; is_called: boolean }>(tx, sql`SELECT last_value, is_called FROM ${ident(seq)}`);
        manifest.sequences.push({ name: seq, last_value: String(s.last_value), is_called: s.is_called });
      }
      const keys = await storedFileKeys(tx);
      for (const key of keys) {
        const body = await storage.get(key);
        if (!body) {
          manifest.uploads.missing.push(key);
          continue;
        }
        const target = path.join(staging, 'uploads', key);
        await pipeline(body, fs.createWriteStream(target));
        manifest.uploads.files += 1;
        manifest.uploads.bytes += (await fs.promises.stat(target)).size;
      }
    });
    await fs.promises.writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const file = path.resolve(opts.file);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // Written next to the target and renamed: an interrupted backup never looks like a finished one.
    const partial = `${file}.part`;
    await tar.c({ gzip: true, file: partial, cwd: staging, portable: true }, ['manifest.json', 'db', 'uploads']);
    await fs.promises.rename(partial, file);
    return {
      tables: manifest.tables.length,
      rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
      files: manifest.uploads.files,
      missing: manifest.uploads.missing.length,
    };
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}

/** Unpacks an archive into a temporary folder and reads its manifest (the caller removes the folder). */
export async function openBackup(file: string): Promise<{ dir: string; manifest: BackupManifest }> {
  if (!fs.existsSync(file)) throw new BackupError(`Файл резервної копії не знайдено: ${file}`);
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'zhk-restore-'));
  try {
    await tar.x({ file, cwd: dir, strict: true });
    const manifest = JSON.parse(await fs.promises.readFile(path.join(dir, 'manifest.json'), 'utf8')) as BackupManifest;
    if (manifest.format !== BACKUP_FORMAT) throw new Error('format');
    if (manifest.version > BACKUP_VERSION) throw new BackupError('Резервну копію зроблено новішою версією програми: оновіть програму й повторіть.');
    return { dir, manifest };
  } catch (err) {
    await fs.promises.rm(dir, { recursive: true, force: true });
    if (err instanceof BackupError) throw err;
    throw new BackupError(`Файл не є резервною копією адмін-панелі або пошкоджений: ${file}`);
  }
}

/**
 * Loads an unpacked backup into a database that has just been migrated and holds no rows:
 * checks the migration level, fills every table in foreign-key order in one transaction,
 * sets the sequences, then writes the stored files.
 */
export async function restoreBackup(opts: { db: Db; storage: FileStorage; dir: string; manifest: BackupManifest }): Promise<BackupSummary> {
  const { db, storage, dir, manifest } = opts;
  const current = await appliedMigrations(db);
  const unknown = manifest.migrations.filter((h) => !current.includes(h));
  if (unknown.length > 0) {
    throw new BackupError('Резервну копію зроблено новішою версією програми (у ній є невідомі міграції бази даних): оновіть програму й повторіть.');
  }
  if (!(await databaseIsEmpty(db))) throw new BackupError('Відновлення можливе лише в порожню базу даних, а в цій уже є дані.');

  let restoredRows = 0;
  await db.transaction(async (tx) => {
    const order = await tablesInOrder(tx);
    const byName = new Map(manifest.tables.map((t) => [t.name, t]));
    for (const table of order) {
      const saved = byName.get(table);
      if (!saved || saved.rows === 0) continue;
      const present = new Set(await storedColumns(tx, table));
      // Columns added by later migrations take their defaults; columns since removed are dropped.
      const columns = saved.columns.filter((c) => present.has(c));
      const list = sql.raw(columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(', '));
      const insert = async (lines: string[]) => {
        await tx.execute(
          sql`INSERT INTO ${ident(table)} (${list}) OVERRIDING SYSTEM VALUE
              SELECT ${list} FROM jsonb_populate_recordset(NULL::${ident(table)}, ${`[${lines.join(',')}]`}::jsonb)`,
        );
        restoredRows += lines.length;
      };
      const input = readline.createInterface({ input: fs.createReadStream(path.join(dir, 'db', `${table}.ndjson`), 'utf8'), crlfDelay: Infinity });
      let lines: string[] = [];
      for await (const line of input) {
        if (!line) continue;
        lines.push(line);
        if (lines.length >= 1000) {
          await insert(lines);
          lines = [];
        }
      }
      if (lines.length) await insert(lines);
    }
    const known = new Set(await sequences(tx));
    for (const s of manifest.sequences) {
      if (known.has(s.name)) await tx.execute(sql`SELECT setval(${`public."${s.name}"`}::regclass, ${s.last_value}::bigint, ${s.is_called})`);
    }
  });

  let files = 0;
  const uploads = path.join(dir, 'uploads');
  const names = fs.existsSync(uploads) ? await fs.promises.readdir(uploads) : [];
  for (const name of names) {
    await storage.put(name, fs.createReadStream(path.join(uploads, name)), { size: (await fs.promises.stat(path.join(uploads, name))).size });
    files += 1;
  }
  return { tables: manifest.tables.length, rows: restoredRows, files, missing: manifest.uploads.missing.length };
}
