#!/usr/bin/env node
/**
 * `npm run test:e2e`: builds the SPA for both editions (dist/ and dist-alt/), then runs Playwright
 * with e2e/playwright.config.ts. Extra arguments go to Playwright, e.g.
 *   npm run test:e2e -- auth.spec.ts
 *   npm run test:e2e -- --grep "пошук"
 * E2E_SKIP_BUILD=1 reuses existing builds (e.g. when CI built them in an earlier step).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const viteBin = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const playwrightBin = path.join(root, 'node_modules', '@playwright', 'test', 'cli.js');

function run(label, args, env = {}) {
  const started = Date.now();
  console.log(`\n▶ ${label}`);
  const { VITE_EDITION: _ignored, ...baseEnv } = process.env;
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...baseEnv, ...env } });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`✖ ${label} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

const builtAlready = ['dist', 'dist-alt'].every((d) => fs.existsSync(path.join(root, d, 'index.html')));
if (process.env.E2E_SKIP_BUILD === '1' && builtAlready) {
  console.log('E2E_SKIP_BUILD=1: using the existing dist/ and dist-alt/');
} else {
  run('vite build (main edition → dist/)', [viteBin, 'build', '--logLevel', 'warn']);
  run('vite build (alt edition → dist-alt/)', [viteBin, 'build', '--outDir', 'dist-alt', '--emptyOutDir', '--logLevel', 'warn'], { VITE_EDITION: 'alt' });
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  console.error(`Chromium not found at ${chromium}. Set CHROMIUM_PATH to a Chromium/Chrome binary (the suite never downloads browsers).`);
  process.exit(1);
}

const pw = spawnSync(process.execPath, [playwrightBin, 'test', '--config', path.join('e2e', 'playwright.config.ts'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
});
if (pw.error) throw pw.error;
process.exit(pw.status ?? 1);
