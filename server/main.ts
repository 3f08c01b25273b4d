import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type AppConfig } from './config.ts';
import { importReferenceData } from './db/importReference.ts';
import { migrateDatabase, openDatabase, withStartupLock } from './db/index.ts';
import { DEMO_STAFF, seedIfEmpty } from './db/seed.ts';
import { deliveryNotices } from './lib/delivery.ts';
import { ensureSpaBuilt } from './spa.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const alt = process.env.VITE_EDITION === 'alt';
  const spaDir = path.join(root, alt ? 'dist-alt' : 'dist');
  if (process.env.SKIP_SPA_BUILD !== '1') ensureSpaBuilt(root, spaDir, (m) => console.log(m));

  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') },
    { migrate: false },
  );
  // Several processes may start together on one PostgreSQL: one migrates and seeds, the others wait.
  const seeded = await withStartupLock(database, async () => {
    await migrateDatabase(database);
    const imported = await importReferenceData(database.db);
    if (imported) console.log(`Довідник адрес: ${imported.settlements} населених пунктів, ${imported.streets} вулиць (${imported.ms} мс).`);
    return seedIfEmpty(database.db, config);
  });
  const app = await buildApp({
    config,
    database,
    spaDir,
    logger: { level: config.logLevel, redact: ['req.headers.authorization'] },
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      await database.close();
    } finally {
      clearTimeout(timer);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // Every process picks up background jobs (mail delivery) unless JOB_WORKERS=0; app.close() stops it.
  if (config.jobWorkers) await app.jobs.work();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`\nАдмін-панель: http://localhost:${port}  (база: ${database.driver === 'pglite' ? `PGlite у ${config.dataDir}` : 'PostgreSQL'})`);
  for (const line of deliveryNotices(config)) console.warn(line);
  if (seeded) console.log(`Демо-вхід: ${config.adminEmail} / ${process.env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : config.adminPassword}; працівник: ${DEMO_STAFF.email} / ${DEMO_STAFF.password}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
