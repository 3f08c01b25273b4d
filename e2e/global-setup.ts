import fs from 'node:fs';
import { makeTempDir, startServer } from './server';

/**
 * Seeds one template database (first start of the app on an empty DATA_DIR, then a clean stop);
 * each test file's server starts on its own copy. E2E_TEMPLATE_DB=0 skips this: every server
 * then seeds an empty folder itself (slower, ~15 s per start).
 */
export default async function globalSetup() {
  if (process.env.E2E_TEMPLATE_DB === '0') return;
  const dir = makeTempDir('template');
  const server = await startServer({ dataDir: dir });
  await server.stop();
  if (!fs.existsSync(dir) || fs.readdirSync(dir).length === 0) throw new Error(`Template database was not written to ${dir}`);
  process.env.E2E_TEMPLATE_DIR = dir;
}
