/**
 * npm run restore -- <file.tar.gz>
 *
 * Loads a backup into an EMPTY target: a new DATA_DIR (PGlite) or an empty PostgreSQL database
 * (DATABASE_URL). Runs the migrations, loads the rows, sets the sequences and writes the files.
 * A target that already holds data is refused and left untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDatabase, type DatabaseSource } from '../server/db/index.ts';
import { BackupError, databaseIsEmpty, openBackup, restoreBackup } from '../server/lib/backup.ts';
import { createStorage } from '../server/lib/openStorage.ts';

const NOT_EMPTY = 'Відновлення можливе лише в порожнє місце: ';

async function main() {
  const file = process.argv[2];
  if (!file || file.startsWith('-')) throw new BackupError('Вкажіть файл архіву: npm run restore -- backup.tar.gz');
  const config = loadConfig();
  const pgdata = path.join(config.dataDir, 'pgdata');
  const source: DatabaseSource = config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: pgdata };

  // Checked before anything is written, so a refused target stays exactly as it was.
  if (!config.databaseUrl && fs.existsSync(pgdata) && fs.readdirSync(pgdata).length > 0) {
    throw new BackupError(`${NOT_EMPTY}у ${config.dataDir} уже є база даних. Вкажіть новий DATA_DIR або видаліть старий.`);
  }
  if (!config.s3 && fs.existsSync(config.uploadsDir) && fs.readdirSync(config.uploadsDir).length > 0) {
    throw new BackupError(`${NOT_EMPTY}у ${config.uploadsDir} уже є файли. Вкажіть новий DATA_DIR.`);
  }
  if (config.databaseUrl) {
    const probe = await openDatabase(source, { migrate: false });
    try {
      if (!(await databaseIsEmpty(probe.db))) throw new BackupError(`${NOT_EMPTY}у базі даних DATABASE_URL уже є дані. Створіть порожню базу й повторіть.`);
    } finally {
      await probe.close();
    }
  }

  const { dir, manifest } = await openBackup(file);
  try {
    const started = Date.now();
    const database = await openDatabase(source);
    try {
      const summary = await restoreBackup({ db: database.db, storage: await createStorage(config), dir, manifest });
      console.log(
        `Відновлено з ${path.resolve(file)} (копія від ${manifest.created_at}): ` +
          `таблиць: ${summary.tables}, рядків: ${summary.rows}, файлів: ${summary.files} (${Date.now() - started} мс).`,
      );
    } finally {
      await database.close();
    }
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err instanceof BackupError || err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
