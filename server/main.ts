import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, productionRefusal, type AppConfig } from './config.ts';
import { importReferenceData } from './db/importReference.ts';
import { migrateDatabase, openDatabase, withStartupLock } from './db/index.ts';
import { DEMO_STAFF, productionDatabaseRefusal, seedIfEmpty } from './seed.ts';
import { deliveryNotices } from './lib/delivery.ts';
import { consoleLog, watchProcess, type ProcessLog } from './lib/process.ts';
import { ensureSpaBuilt } from './spa.ts';
import { linkKeyOf, linksUnderOtherKey, LINK_KEY_FILE, sealClearLinkTokens } from './modules/voting/linkTokens.ts';
import type { SealKey } from './lib/sealed.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Until the app's logger exists, process events are logged on the console. */
let log: ProcessLog = consoleLog;
let shutdown: () => Promise<void> = async () => process.exit(1);
watchProcess({ log: () => log, shutdown: () => shutdown(), logExit: () => log !== consoleLog });

/** A start that must not go ahead: one line saying why, exit code 1. */
class Refusal extends Error {}

async function main() {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) throw new Refusal(err.message);
    throw err;
  }
  const refused = productionRefusal(config);
  if (refused) throw new Refusal(refused);
  let linkKey: SealKey;
  try {
    linkKey = linkKeyOf(config);
  } catch (err) {
    if (err instanceof ConfigError) throw new Refusal(err.message);
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
    // Voting links an older version kept in clear are sealed now that the key is at hand.
    const sealed = await sealClearLinkTokens(database.db, linkKey);
    if (sealed) console.log(`Посилання голосувань: ${sealed} збережено зашифрованими ключем посилань, відкритий вигляд видалено з бази.`);
    const imported = await importReferenceData(database.db);
    if (imported) console.log(`Довідник адрес: ${imported.settlements} населених пунктів, ${imported.streets} вулиць (${imported.ms} мс).`);
    const refusedData = await productionDatabaseRefusal(database.db, config);
    if (refusedData) throw new Refusal(refusedData);
    return seedIfEmpty(database.db, config);
  }).catch(async (err) => {
    await database.close().catch(() => {});
    throw err;
  });
  const app = await buildApp({ config, database, spaDir, logger: { level: config.logLevel } });
  log = app.log;

  shutdown = async () => {
    const timer = setTimeout(() => {
      app.log.error('shutdown took over 10 s; exiting');
      process.exit(1);
    }, 10_000).unref();
    try {
      await app.close();
      await database.close();
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exitCode = 1;
    } finally {
      clearTimeout(timer);
      process.exit();
    }
  };

  await app.listen({ port: config.port, host: config.host });
  // Every process picks up background jobs (mail delivery) unless JOB_WORKERS=0; app.close() stops it.
  if (config.jobWorkers) await app.jobs.work();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const local = config.host === 'localhost' || config.host.startsWith('127.') || config.host === '::1';
  const reach = local ? 'доступ лише з цього комп’ютера, з мережі — HOST=0.0.0.0' : `слухає ${config.host}`;
  console.log(`\nАдмін-панель: http://localhost:${port}  (база: ${database.driver === 'pglite' ? `PGlite у ${config.dataDir}` : 'PostgreSQL'}; ${reach})`);
  for (const line of deliveryNotices(config)) console.warn(line);
  const otherKey = await linksUnderOtherKey(database.db, linkKey);
  if (otherKey) {
    const key = config.linkSecret !== undefined ? 'LINK_SECRET' : path.join(config.dataDir, LINK_KEY_FILE);
    console.warn(
      `Увага: посилання ${otherKey} зборів запечатано іншим ключем, ніж ${key}: працівники не побачать і не надішлють їх (409). ` +
        'Поверніть попередній ключ (docs/operations.md, «The link key») або створіть для цих зборів нові посилання.',
    );
  }
  if (seeded) {
    const staff = config.seedDemo ? `; працівник: ${DEMO_STAFF.email} / ${DEMO_STAFF.password}` : '';
    console.log(
      `${config.seedDemo ? 'Демо-вхід' : 'Перший адміністратор'}: ` +
        `${config.adminEmail} / ${config.adminPasswordSet ? '(ADMIN_PASSWORD)' : config.adminPassword}${staff}`,
    );
  }
}

main().catch((err) => {
  // Refusals are one line for the operator; anything else is logged without query values.
  if (err instanceof Refusal) console.error(err.message);
  else log.fatal({ err }, 'start failed');
  process.exit(1);
});
