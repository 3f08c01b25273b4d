import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const INPUTS = ['src', 'contract', 'index.html', 'vite.config.ts', 'package-lock.json', 'public'];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** When any source of the SPA last changed (ms since the epoch). */
export function newestSourceMtime(root: string): number {
  return Math.max(...INPUTS.map((p) => newestMtime(path.join(root, p))));
}

/** Builds the SPA when its output is missing or older than any of its sources. */
export function ensureSpaBuilt(root: string, outDir: string, log: (msg: string) => void) {
  const index = path.join(outDir, 'index.html');
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const sources = newestSourceMtime(root);
  if (built >= sources) return;
  log(built ? 'Інтерфейс застарів — збираю заново…' : 'Збираю інтерфейс (перший запуск)…');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', outDir, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('SPA build failed');
}
