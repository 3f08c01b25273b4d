/**
 * Starts the application the way `npm start` does (node --import tsx server/main.ts) on a free
 * port with its own DATA_DIR, and stops it again. Used by the global setup and the fixtures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export type Edition = 'main' | 'alt';

export interface RunningServer {
  url: string;
  dataDir: string;
  edition: Edition;
  /** Everything the process printed so far (stdout and stderr), for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** Environment the suite must not inherit: it would point the app at another database or account. */
const STRIP = ['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'SEED_DEMO', 'PUBLIC_URL', 'SMTP_URL', 'PORT', 'HOST', 'DATA_DIR', 'VITE_EDITION'];
const READY = /Адмін-панель: (http:\/\/localhost:\d+)/;
const START_TIMEOUT_MS = 90_000;

export function makeTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `zhk-e2e-${prefix}-`));
}

export async function startServer(opts: {
  dataDir: string;
  edition?: Edition;
  removeDataDirOnStop?: boolean;
  /** Environment of the app's own (e.g. SEED_DEMO=0 for a clean install), after the suite's. */
  env?: Record<string, string>;
}): Promise<RunningServer> {
  const edition = opts.edition ?? 'main';
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of STRIP) delete env[key];
  Object.assign(env, { PORT: '0', DATA_DIR: opts.dataDir, SKIP_SPA_BUILD: '1', LOG_LEVEL: 'warn' });
  if (edition === 'alt') env.VITE_EDITION = 'alt';
  Object.assign(env, opts.env);

  const spaDir = path.join(ROOT, edition === 'alt' ? 'dist-alt' : 'dist');
  if (!fs.existsSync(path.join(spaDir, 'index.html'))) {
    throw new Error(`${spaDir}/index.html is missing: run the suite with \`npm run test:e2e\` (it builds both editions).`);
  }

  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  // If the runner dies without teardown, do not leave the app running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      process.removeListener('exit', killOnExit);
      resolve(code);
    }),
  );

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The app did not start within ${START_TIMEOUT_MS / 1000} s. Output:\n${log}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const m = READY.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`The app exited with code ${code} before it was ready. Output:\n${log}`));
    });
  });

  let stopped: Promise<void> | undefined;
  return {
    url,
    dataDir: opts.dataDir,
    edition,
    output: () => log,
    stop() {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(killer);
        }
        if (opts.removeDataDirOnStop) fs.rmSync(opts.dataDir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/**
 * A fresh DATA_DIR. Creating and seeding a PGlite database takes ~15 s, so the global setup seeds
 * one template database and every server gets its own copy of it (equivalent to a first start).
 * Without a template (E2E_TEMPLATE_DIR unset) the folder is simply empty and the app seeds it.
 */
export function freshDataDir(label: string): string {
  const dir = makeTempDir(label);
  const template = process.env.E2E_TEMPLATE_DIR;
  if (template && fs.existsSync(template)) fs.cpSync(template, dir, { recursive: true });
  return dir;
}
