import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../server/app.ts';
import type { Database } from '../../server/db/index.ts';
import { complexes, outbox } from '../../server/db/schema.ts';
import { describeError, REDACTED } from '../../server/lib/logging.ts';
import { watchProcess, type ProcessLog } from '../../server/lib/process.ts';
import { ROUTES as SPA_ROUTES } from '../../src/routes.tsx';
import { ADMIN, API, setupApp, type Method, type TestApp } from '../api/helpers.ts';
import { collectRoutes, type Route } from './routes.ts';

/**
 * What the log of a running server shows. Links' tokens (reset and invitation links, co-owners'
 * voting, staff chat) and live-stream tickets are credentials, and failed queries' parameters
 * hold personal data: an app built with logging on, as the production start builds it, must
 * write neither, in request lines, error lines or anything else. The token-bearing addresses are
 * read from the route tables (the API's and the SPA's), so a new one is covered as it appears.
 */
let t: TestApp;
let app: Awaited<ReturnType<typeof buildApp>>;
let routes: Route[];
let spaDir: string;
const lines: string[] = [];

/** A made-up secret that a log line can only contain by copying it. */
const secret = () => `Sx${crypto.randomBytes(16).toString('hex')}`;

beforeAll(async () => {
  t = await setupApp();
  ({ routes } = await collectRoutes(t));
  spaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-security-logs-'));
  fs.writeFileSync(
    path.join(spaDir, 'index.html'),
    '<!doctype html><html><head><meta name="support-email" content="" /></head><body><div id="root"></div></body></html>',
  );
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const database: Database = { db: t.db, driver: t.driver, close: async () => {} };
  app = await buildApp({ config: t.config, database, spaDir, logger: { level: 'info', stream } });
  // Routes that fail the way a bug would, carrying secrets into the error.
  // The value travels in a header, which is never logged, so only the error could carry it.
  app.get(`${API}/__test/failing-cast`, async (request) => {
    await t.db.execute(sql`select ${String(request.headers['x-value'])}::int as n`);
    return {};
  });
  app.get(`${API}/__test/duplicate`, async (request) => {
    const name = `ЖК ${String(request.headers['x-value'])}`;
    const row = { organizationId: t.organizationId, name, city: 'Київ', address: 'вул. Тестова, 1', description: '' };
    await t.db.insert(complexes).values(row);
    await t.db.insert(complexes).values(row);
    return {};
  });
  app.get(`${API}/__test/thrown/:token`, async (request) => {
    throw new Error(`could not send https://zhk.test/ResetPassword?token=${(request.params as { token: string }).token}&email=a%40b.ua`);
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t?.close();
  if (spaDir) fs.rmSync(spaDir, { recursive: true, force: true });
});
beforeEach(() => {
  lines.length = 0;
});

/** The lines logged while `act` ran. */
async function logged(act: () => Promise<unknown>): Promise<string[]> {
  const from = lines.length;
  await act();
  // The stream is written synchronously, but let any callback of the answer finish first.
  await new Promise((r) => setImmediate(r));
  return lines.slice(from);
}

function expectHidden(out: string[], value: string, what: string) {
  expect(out.length, `${what}: something was logged`).toBeGreaterThan(0);
  expect(
    out.filter((l) => l.includes(value)),
    `${what}: lines with the secret`,
  ).toEqual([]);
}

const call = (method: Method, url: string) => app.inject({ method, url });

/** Route and query parameters that carry a credential, by the brief's rule (a token or a ticket). */
const CREDENTIAL = /token|ticket/i;
const secretParams = (r: Route) => [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((n) => CREDENTIAL.test(n));
const secretQuery = (r: Route) => (r.op.parameters ?? []).filter((p) => p.in === 'query' && CREDENTIAL.test(p.name)).map((p) => p.name);

describe('tokens in addresses', () => {
  it('the route table has the token-bearing API routes the review found', () => {
    const keys = routes.filter((r) => secretParams(r).length || secretQuery(r).length).map((r) => r.key);
    for (const known of ['GET /api/staff/chat/{token}', 'GET /api/public/voting/{token}', `GET ${API}/live`]) expect(keys).toContain(known);
    expect(keys.length).toBeGreaterThanOrEqual(9);
  });

  it('every API route with a token in its path or query logs the address without it', async () => {
    const leaks: string[] = [];
    let checked = 0;
    for (const r of routes) {
      const params = secretParams(r);
      const query = secretQuery(r);
      if (!params.length && !query.length) continue;
      const value = secret();
      let url = r.path.replace(/\{(\w+)\}/g, (_all, name: string) => (params.includes(name) ? value : '1'));
      if (query.length) url += `?${query.map((q) => `${q}=${value}`).join('&')}`;
      const out = await logged(() => call(r.method, url));
      if (out.some((l) => l.includes(value))) leaks.push(`${r.key}: ${out.find((l) => l.includes(value))}`);
      else if (!out.some((l) => l.includes(REDACTED))) leaks.push(`${r.key}: no redaction marker in ${out.join(' | ')}`);
      checked++;
    }
    expect(leaks).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(9);
  });

  it('every SPA page with a token in its path logs the address without it', async () => {
    const pages = SPA_ROUTES.filter((r) => /:(\w*(token|ticket)\w*)/i.test(r.path));
    expect(pages.map((p) => p.path)).toEqual(expect.arrayContaining(['/Vote/:token', '/Chat/:token?']));
    for (const page of pages) {
      const value = secret();
      const url = page.path.replace(/:(\w+)\??/g, (_all, name: string) => (CREDENTIAL.test(name) ? value : '1'));
      for (const variant of [url, url.toLowerCase().replace(value.toLowerCase(), value), `${url}?x=1`, url.replace(`/${value}`, `//${value}`)]) {
        const out = await logged(() => call('GET', variant));
        expectHidden(out, value, variant);
        expect(
          out.some((l) => l.includes(REDACTED)),
          `${variant}: redaction marker`,
        ).toBe(true);
      }
    }
  });

  it('a token or ticket in the query of any page or API address is hidden (the reset link among them)', async () => {
    const addresses = [
      ...SPA_ROUTES.map((r) => r.path.replace(/:(\w+)\??/g, '1')),
      ...routes.filter((r) => r.method === 'GET').map((r) => r.path.replace(/\{\w+\}/g, '1')),
    ];
    expect(addresses).toContain('/ResetPassword');
    for (const address of addresses) {
      const [a, b] = [secret(), secret()];
      const out = await logged(() => call('GET', `${address}?token=${a}&email=a%40b.ua&ticket=${b}&access_token=${a}`));
      expectHidden(out, a, address);
      expectHidden(out, b, address);
    }
  });

  it('a real reset link from the mail, opened as the page and sent back, leaves no trace', async () => {
    const out = await logged(async () => {
      expect((await t.call('POST', `${API}/forgot_password`, { body: { email: ADMIN.email } })).statusCode).toBe(200);
    });
    const [mail] = await t.db.select().from(outbox).where(eq(outbox.recipient, ADMIN.email)).orderBy(desc(outbox.id)).limit(1);
    const link = /https?:\/\/\S+\/ResetPassword\?token=([^&\s]+)&email=\S+/.exec(mail.body ?? '');
    expect(link, mail.body ?? '(no readable body)').not.toBeNull();
    const token = decodeURIComponent(link![1]);
    const page = new URL(link![0]);
    out.push(...(await logged(() => call('GET', `${page.pathname}${page.search}`))));
    out.push(
      ...(await logged(() =>
        app.inject({ method: 'POST', url: `${API}/reset_password`, payload: { token, email: ADMIN.email, password: 'x', password_confirmation: 'y' } }),
      )),
    );
    expectHidden(out, token, 'reset link');
    expectHidden(out, encodeURIComponent(token), 'reset link (encoded)');
  });

  it('a live-stream ticket is hidden when the stream is opened', async () => {
    const token = await t.login(ADMIN.email, ADMIN.password);
    const res = await app.inject({ method: 'POST', url: `${API}/live/ticket`, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode, res.body).toBe(200);
    const { ticket } = res.json() as { ticket: string };
    // An altered ticket is refused at once (a valid one opens a stream that does not end here); its address is logged alike.
    const out = await logged(() => call('GET', `${API}/live?ticket=${encodeURIComponent(ticket)}x`));
    expectHidden(out, ticket, 'live ticket');
    expectHidden(out, token, 'bearer token');
  });

  it('error lines, messages and fields hide a link in them too', async () => {
    const value = secret();
    const out = await logged(async () => {
      expect((await call('GET', `${API}/__test/thrown/${value}`)).statusCode).toBe(500);
      app.log.info(`sent https://zhk.test/Vote/${value} to a co-owner`);
      app.log.info({ link: `https://zhk.test/Chat/${value}` }, 'chat link made');
    });
    expectHidden(out, value, 'error, message and field');
    const error = out.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
    expect(error?.err?.message).toContain(`token=${REDACTED}`);
    expect(out.filter((l) => l.includes(REDACTED)).length).toBeGreaterThanOrEqual(3);
  });
});

/** Every key of a logged object, at any depth. */
function keysOf(value: unknown): string[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
}

describe('errors without query values', () => {
  it('a failed query is logged with its SQL but without its parameters or the values PostgreSQL quotes', async () => {
    const value = secret();
    const out = await logged(async () => {
      const res = await app.inject({ method: 'GET', url: `${API}/__test/failing-cast`, headers: { 'x-value': value } });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain(value);
    });
    expectHidden(out, value, 'failed cast');
    const error = out.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
    expect(error, out.join('\n')).toBeDefined();
    expect(error.err.query).toMatch(/^select \$1::int/);
    expect(error.err.cause.code).toBe('22P02');
  });

  it("a constraint violation is logged without the row's values (no parameters, no detail)", async () => {
    const value = secret();
    const out = await logged(async () => {
      expect((await app.inject({ method: 'GET', url: `${API}/__test/duplicate`, headers: { 'x-value': value } })).statusCode).toBe(500);
    });
    expectHidden(out, value, 'duplicate');
    const error = out.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
    expect(error.err.query).toMatch(/^insert into "complexes"/);
    expect(error.err.cause.code).toBe('23505');
    expect(error.err.cause.constraint).toBeTruthy();
    expect(keysOf(error.err).filter((k) => ['detail', 'params', 'where', 'internalQuery'].includes(k))).toEqual([]);
  });

  it('the one line printed when a start fails has no values either', async () => {
    const value = secret();
    const err = await t.db.execute(sql`select ${value}::int as n`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeDefined();
    expect(String((err as Error).message)).toContain(value);
    const line = describeError(err);
    expect(line).not.toContain(value);
    expect(line).not.toContain('\n');
  });
});

describe('crashes and exit signals', () => {
  /** A stand-in for `process`, logging through the app's own logger into the captured stream. */
  function watched() {
    const proc = Object.assign(new EventEmitter(), { exit: vi.fn() });
    const shutdown = vi.fn();
    watchProcess({ log: () => app.log as unknown as ProcessLog, shutdown, proc });
    return { proc, shutdown };
  }
  const parsed = (out: string[]) =>
    out.map((l) => JSON.parse(l) as { level: number; msg: string; err?: { type: string; message: string; stack: string }; signal?: string; code?: number });

  it('an uncaught exception is logged as fatal, without query values, and the process exits with 1', async () => {
    const { proc } = watched();
    const value = secret();
    const err = await t.db.execute(sql`select ${value}::int as n`).then(
      () => new Error('no error'),
      (e: unknown) => e,
    );
    const out = await logged(async () => proc.emit('uncaughtException', err, 'uncaughtException'));
    expectHidden(out, value, 'uncaught exception');
    const [line] = parsed(out).filter((l) => l.level === 60);
    expect(line.msg).toMatch(/uncaught exception/);
    expect(line.err?.stack).toMatch(/\n\s+at /);
    expect(proc.exit).toHaveBeenCalledWith(1);
  });

  it('an unhandled rejection is logged as fatal and the process exits with 1', async () => {
    const { proc } = watched();
    const out = await logged(async () => proc.emit('unhandledRejection', new TypeError('cannot read x of undefined'), Promise.resolve()));
    const [line] = parsed(out).filter((l) => l.level === 60);
    expect(line.msg).toMatch(/unhandled promise rejection/);
    expect(line.err?.type).toBe('TypeError');
    expect(line.err?.message).toBe('cannot read x of undefined');
    expect(proc.exit).toHaveBeenCalledWith(1);
  });

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'])('%s is logged and starts a graceful shutdown; a second one exits at once', async (signal) => {
    const { proc, shutdown } = watched();
    const out = await logged(async () => proc.emit(signal));
    expect(parsed(out).find((l) => l.signal === signal)?.msg).toMatch(new RegExp(`${signal} received; shutting down`));
    expect(shutdown).toHaveBeenCalledTimes(1);
    expect(proc.exit).not.toHaveBeenCalled();
    proc.emit(signal);
    expect(shutdown).toHaveBeenCalledTimes(1);
    expect(proc.exit).toHaveBeenCalledWith(1);
  });

  it('the exit code is logged', async () => {
    const { proc } = watched();
    const out = await logged(async () => {
      proc.emit('exit', 0);
      proc.emit('exit', 3);
    });
    expect(parsed(out).map((l) => [l.level, l.code])).toEqual([
      [30, 0],
      [50, 3],
    ]);
  });
});
