/**
 * npm run backup -- <file.tar.gz>
 *
 * Writes the database (PGlite in DATA_DIR, or DATABASE_URL) and the uploaded files into one
 * archive. With PGlite, stop the server first: the embedded database has one user at a time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';
import { BackupError, writeBackup } from '../server/lib/backup.ts';
import { createStorage } from '../server/lib/openStorage.ts';

async function main() {
  const file = process.argv[2];
  if (!file || file.startsWith('-')) throw new BackupError('Вкажіть файл архіву: npm run backup -- backup.tar.gz');
  const config = loadConfig();
  const pgdata = path.join(config.dataDir, 'pgdata');
  if (!config.databaseUrl && !fs.existsSync(path.join(pgdata, 'PG_VERSION'))) {
    throw new BackupError(`У ${config.dataDir} немає бази даних: вкажіть DATA_DIR або DATABASE_URL.`);
  }
  const database = await openDatabase(config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: pgdata }, {
    migrate: false,
  });
  try {
    const started = Date.now();
    const summary = await writeBackup({ db: database.db, driver: database.driver, storage: await createStorage(config), file });
    console.log(
      `Резервну копію збережено: ${path.resolve(file)} — ` +
        `таблиць: ${summary.tables}, рядків: ${summary.rows}, файлів: ${summary.files} (${Date.now() - started} мс).`,
    );
    if (summary.missing > 0) console.warn(`Увага: ${summary.missing} файл(ів), згаданих у базі, не знайдено у сховищі; їх у копії немає.`);
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err instanceof BackupError || err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
