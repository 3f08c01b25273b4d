/**
 * Fills a database with generated data of a named scale (bench/data/scales.ts), deterministically:
 *   npm run bench:generate -- --scale small|large [--seed N]
 * DATABASE_URL selects PostgreSQL; otherwise PGlite in DATA_DIR (default ./data). Migrations,
 * the address reference and the demo seed are applied first, as at `npm start`. A database that
 * already holds generated rows is left as it is. Prints rows/s per table.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateData } from './data/generate.ts';
import { isScaleName, SCALES } from './data/scales.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';

async function main() {
  const { values } = parseArgs({ options: { scale: { type: 'string', default: 'small' }, seed: { type: 'string', default: '1' } } });
  const scaleName = values.scale ?? 'small';
  if (!isScaleName(scaleName)) throw new Error(`--scale: one of ${Object.keys(SCALES).join(', ')}`);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new Error('--seed: a non-negative integer');
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') },
  );
  console.log(`Generating scale ${scaleName} (seed ${seed}) on ${database.driver === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.dataDir}`}`);
  const started = performance.now();
  const result = await generateData(database.db, config, SCALES[scaleName], seed, (line) => console.log(line));
  await database.close();
  if (!result.generated) console.log('The database already holds generated data; nothing added.');
  else console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
