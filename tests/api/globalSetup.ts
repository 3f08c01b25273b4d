import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { importReferenceData } from '../../server/db/importReference.ts';
import { migrationsFolder, openDatabase, pgliteExtensions, type Db } from '../../server/db/index.ts';
import * as schema from '../../server/db/schema.ts';
import { databaseUrl, TEST_DB_PREFIX, withAdminClient } from './pg.ts';
import { TEST_SEED } from './seedConfig.ts';
import { seedIfEmpty } from '../../server/seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite runs: path of a tarball of a migrated data directory holding only the address reference. */
    pgliteTemplate: string;
    /** PostgreSQL runs: name of a migrated template database holding only the address reference. */
    pgTemplate: string;
    /** The same, seeded with the demo data of the default test settings (TEST_SEED). */
    pgliteSeeded: string;
    pgSeeded: string;
  }
}

/**
 * Migrates one database for the whole run, and seeds a copy of it with the demo data; every test
 * file then starts from a copy of one of the two (a PGlite data-dir tarball, or a PostgreSQL
 * `CREATE DATABASE … TEMPLATE`) instead of seeding its own.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  return url ? setupPostgres(project, url) : setupPglite(project);
}

async function setupPglite(project: TestProject) {
  const client = await PGlite.create({ extensions: pgliteExtensions });
  try {
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder });
    await importReferenceData(db as unknown as Db);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-api-tests-'));
    const save = async (name: string) => {
      // A checkpoint first: a copy opened from a data folder written since its last checkpoint
      // replays the log on start, which took about 1 s of CPU of each file's 2.7 s open.
      await client.query('checkpoint');
      const file = path.join(dir, name);
      fs.writeFileSync(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
      return file;
    };
    project.provide('pgliteTemplate', await save('template.tar'));
    await seedIfEmpty(db as unknown as Db, TEST_SEED);
    project.provide('pgliteSeeded', await save('seeded.tar'));
    return () => fs.rmSync(dir, { recursive: true, force: true });
  } finally {
    await client.close();
  }
}

async function setupPostgres(project: TestProject, url: string) {
  const suffix = crypto.randomBytes(4).toString('hex');
  const template = `zhk_tpl_${suffix}`;
  const seeded = `zhk_tpl_${suffix}_seeded`;
  await withAdminClient(url, (client) => client.query(`CREATE DATABASE "${template}"`));
  const dropAll = () =>
    withAdminClient(url, async (client) => {
      const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${TEST_DB_PREFIX}${suffix}\\_%`]);
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      await client.query(`DROP DATABASE IF EXISTS "${seeded}" WITH (FORCE)`);
      await client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    });
  try {
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl(url, template) });
    try {
      await importReferenceData(database.db);
    } finally {
      await database.close();
    }
    await withAdminClient(url, (client) => client.query(`CREATE DATABASE "${seeded}" TEMPLATE "${template}"`));
    const seededDb = await openDatabase({ kind: 'postgres', url: databaseUrl(url, seeded) }, { migrate: false });
    try {
      await seedIfEmpty(seededDb.db, TEST_SEED);
    } finally {
      await seededDb.close();
    }
  } catch (err) {
    await dropAll();
    throw err;
  }
  project.provide('pgTemplate', template);
  project.provide('pgSeeded', seeded);
  return dropAll;
}
