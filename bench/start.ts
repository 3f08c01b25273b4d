/**
 * How long the product takes to start as `npm start` starts it on PGlite: a cold start (a new
 * DATA_DIR: migrations, the address reference, the demo seed; with BENCH_BUILD=1 also the SPA
 * build, which moves an existing dist/ aside and keeps the new one) and a warm restart on the same
 * data. Time is counted from the process's spawn to the first 200 of the sign-in page.
 *
 *   npm run bench:start
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const BUILD = process.env.BENCH_BUILD === '1';

async function startOnce(dataDir: string, port: number): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return performance.now() - started;
      if (performance.now() - started > 300_000) throw new Error('no answer within 5 minutes');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const dist = path.join(root, 'dist');
  const aside = `${dist}.before-bench`;
  if (BUILD && fs.existsSync(dist)) fs.renameSync(dist, aside);
  console.log(`Machine: ${os.cpus()[0]?.model} × ${os.cpus().length}, load ${os.loadavg()[0].toFixed(2)}`);
  try {
    const cold = await startOnce(dataDir, port);
    console.log(`cold start (new data${BUILD ? ', SPA build' : ''}): ${(cold / 1000).toFixed(1)} s`);
    const warm: number[] = [];
    for (let i = 0; i < 3; i++) warm.push(await startOnce(dataDir, port));
    warm.sort((a, b) => a - b);
    console.log(`warm restart, median of 3: ${(warm[1] / 1000).toFixed(1)} s (${warm.map((w) => (w / 1000).toFixed(1)).join(', ')})`);
  } finally {
    if (BUILD && fs.existsSync(aside)) fs.rmSync(fs.existsSync(dist) ? aside : dist, { recursive: true, force: true });
    if (BUILD && fs.existsSync(aside)) fs.renameSync(aside, dist);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`load ${os.loadavg()[0].toFixed(2)} at the end`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
