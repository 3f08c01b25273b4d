/**
 * The fault suite drives the real server process (node --import tsx server/main.ts), as `npm
 * start` does, and talks to it over HTTP like any API client.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const API = '/api/admin';
export const ADMIN = { email: 'admin@demo.ua', password: 'demo-admin-2026' };
export const UKRAINIAN = /[А-Яа-яІіЇїЄєҐґ]/;
export const DB_UNAVAILABLE = 'База даних тимчасово недоступна. Спробуйте за хвилину.';
export const STALE = 'Запис змінив інший користувач. Оновіть сторінку й повторіть.';

/** Environment the server must not inherit from whoever runs the suite. */
const STRIP = [
  'DATABASE_URL',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'SEED_DEMO',
  'PUBLIC_URL',
  'SMTP_URL',
  'PORT',
  'HOST',
  'DATA_DIR',
  'LINK_SECRET',
  'VITE_EDITION',
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_REGION',
  'S3_FORCE_PATH_STYLE',
];
const READY = /Адмін-панель: (http:\/\/localhost:\d+)/;
const START_TIMEOUT_MS = 120_000;

export function tempDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `zhk-faults-${label}-`));
}

/** A fresh DATA_DIR: a copy of the seeded template the global setup made (a first start, faster). */
export function seededDataDir(label: string): string {
  const dir = tempDir(label);
  fs.cpSync(inject('faultsTemplateDir'), dir, { recursive: true });
  return dir;
}

export function serverEnv(opts: { dataDir: string; databaseUrl?: string; env?: Record<string, string> }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of STRIP) delete env[key];
  Object.assign(env, { PORT: '0', HOST: '127.0.0.1', DATA_DIR: opts.dataDir, SKIP_SPA_BUILD: '1', LOG_LEVEL: 'warn', SEED_DEMO: '1' }, opts.env);
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  return env;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  /** SIGKILL: no shutdown code runs, as in a power cut of the process. */
  kill(): Promise<void>;
  /** SIGTERM and wait (the normal stop). */
  stop(): Promise<void>;
}

export async function startServer(opts: { dataDir: string; databaseUrl?: string; env?: Record<string, string> }): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: serverEnv(opts),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.removeListener('exit', killOnExit);
      resolve();
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The server did not start within ${START_TIMEOUT_MS / 1000} s. Output:\n${log}`));
    }, START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const m = READY.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace('localhost', '127.0.0.1'));
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`The server exited (${child.exitCode ?? child.signalCode}) before it was ready. Output:\n${log}`));
    });
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    child,
    output: () => log,
    alive,
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (alive()) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      }
    },
  };
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
  ms: number;
}

/** One API call with a bearer token; network failures (a killed server) reject. */
export async function call(
  base: string,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown; form?: FormData; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const started = Date.now();
  const res = await fetch(`${base}${url.startsWith('/api') ? '' : API}${url}`, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (a file)
  }
  return { status: res.status, body: parsed, headers: res.headers, ms: Date.now() - started };
}

export async function login(base: string, email = ADMIN.email, password = ADMIN.password): Promise<string> {
  const res = await call(base, 'POST', '/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 250): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Server-sent events of GET /live on one server, collected as they arrive. */
export async function subscribeLive(base: string, token: string) {
  const ticket = await call(base, 'POST', '/live/ticket', { token });
  if (ticket.status !== 200) throw new Error(`ticket: ${ticket.status}`);
  const controller = new AbortController();
  const res = await fetch(`${base}${API}/live?ticket=${encodeURIComponent(ticket.body.ticket)}`, { signal: controller.signal });
  if (res.status !== 200 || !res.body) throw new Error(`live stream: ${res.status}`);
  const events: { event: string; data: any }[] = [];
  let ended = false;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let i: number;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event) events.push({ event, data: data ? JSON.parse(data) : undefined });
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  return {
    events,
    ended: () => ended,
    close: () => controller.abort(),
  };
}

// ---------------------------------------------------------------------------------------------
// A throwaway PostgreSQL cluster of our own (the machine's shared server is never touched).

export interface Cluster {
  port: number;
  url(database: string): string;
  createDatabase(name: string): Promise<string>;
  start(): void;
  /** Fast shutdown: open sessions are ended, as when the database server goes down. */
  stop(): void;
  destroy(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** The PostgreSQL binaries folder, or undefined when they are not installed. */
export function postgresBinaries(): string | undefined {
  const out = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const dir = out.status === 0 ? out.stdout.trim() : '';
  return dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')) ? dir : undefined;
}

export async function createCluster(label: string): Promise<Cluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL binaries (initdb, pg_ctl) not found');
  const dir = tempDir(`pg-${label}`);
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const full = path.join(bin, cmd);
    // PostgreSQL refuses to run as root: the cluster belongs to the postgres OS user then.
    const res = asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' }) : spawnSync(full, args, { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`${cmd} failed: ${res.stderr || res.stdout}`);
  };
  if (asRoot) spawnSync('chown', ['-R', 'postgres', dir]);
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
  const cluster: Cluster = {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: cluster.url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return cluster.url(name);
    },
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']),
    stop: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']),
    destroy() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}

/** Runs one of the package scripts (backup, restore) the way `npm run` does, with its own environment. */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}
