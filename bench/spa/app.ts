/**
 * Starts the application as `npm start` does (node --import tsx server/main.ts) on a free port with
 * a temporary DATA_DIR and the already built dist/, and stops it again.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './bundle.ts';

const READY = /Адмін-панель: (http:\/\/localhost:\d+)/;
/** Environment that would point the app at another database, account or edition. */
const STRIP = ['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'SEED_DEMO', 'PUBLIC_URL', 'SMTP_URL', 'PORT', 'HOST', 'DATA_DIR', 'VITE_EDITION'];

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
}

export async function startApp(timeoutMs = 120_000): Promise<RunningApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-bench-spa-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of STRIP) delete env[key];
  Object.assign(env, { PORT: '0', DATA_DIR: dataDir, SKIP_SPA_BUILD: '1', LOG_LEVEL: 'warn' });
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The app did not start within ${timeoutMs / 1000} s:\n${log}`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const m = READY.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`The app exited before it was ready:\n${log}`));
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      }
      process.removeListener('exit', killOnExit);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
