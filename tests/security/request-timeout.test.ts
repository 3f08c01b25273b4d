import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { media } from '../../server/db/schema.ts';
import { ADMIN, API, setupApp, UKRAINIAN, type TestApp } from '../api/helpers.ts';
import { multipartBody, PNG } from '../api/multipart.ts';

/**
 * A client that sends its request slowly (headers, then a body that trickles in or stalls) must
 * not hold a connection for minutes: the whole request has REQUEST_TIMEOUT_SECONDS, after which
 * the server answers 408 (in Ukrainian) and closes the connection. Tested over raw sockets
 * against a listening app with a one-second limit.
 */
const LIMIT_MS = 1000;
/** How late the server may act after the limit on a busy machine (Node checks every 100 ms here). */
const GRACE_MS = 1500;

let t: TestApp;
let port: number;
let token: string;

beforeAll(async () => {
  t = await setupApp({ env: { REQUEST_TIMEOUT_SECONDS: String(LIMIT_MS / 1000) } });
  token = await t.login(ADMIN.email, ADMIN.password);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t?.close());

interface Outcome {
  /** Everything the server sent. */
  answer: string;
  /** Milliseconds from the first byte sent until the server closed the connection. */
  closedAfter: number;
  /** Bytes of the body the client managed to send before the connection closed. */
  sent: number;
}

/**
 * Opens a connection, sends `head` at once and then `body` one piece every `everyMs` (a slow
 * client), until the body is done or the server closes the connection.
 */
function slowRequest(head: string | Buffer, body: Buffer, opts: { everyMs: number; pieces: number; giveUpMs?: number }): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const started = Date.now();
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${opts.giveUpMs ?? 20_000} ms`));
    }, opts.giveUpMs ?? 20_000);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearInterval(timer);
      resolve({ answer: Buffer.concat(chunks).toString('utf8'), closedAfter: Date.now() - started, sent });
    });
    socket.on('connect', () => {
      socket.write(head);
      const size = Math.ceil(body.length / opts.pieces);
      timer = setInterval(() => {
        if (socket.destroyed || sent >= body.length) return clearInterval(timer);
        socket.write(body.subarray(sent, sent + size));
        sent = Math.min(body.length, sent + size);
      }, opts.everyMs);
    });
  });
}

function expectTimedOut(o: Outcome, what: string) {
  expect(o.answer, what).toMatch(/^HTTP\/1\.1 408 /);
  expect(o.answer.toLowerCase(), what).toContain('connection: close');
  expect(o.answer.toLowerCase(), what).toContain('cache-control: no-store');
  const body = JSON.parse(o.answer.slice(o.answer.indexOf('\r\n\r\n') + 4)) as { message: string };
  expect(body.message, what).toMatch(UKRAINIAN);
  expect(o.closedAfter, `${what}: closed after ${o.closedAfter} ms`).toBeGreaterThanOrEqual(LIMIT_MS - 50);
  expect(o.closedAfter, `${what}: closed after ${o.closedAfter} ms`).toBeLessThan(LIMIT_MS + GRACE_MS);
}

const jsonHead = (path: string, length: number, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;

describe('request-body timeout', () => {
  it('the limit is configured on the server, one minute unless set', () => {
    expect(t.app.server.requestTimeout).toBe(LIMIT_MS);
    expect(t.app.server.headersTimeout).toBeLessThanOrEqual(LIMIT_MS);
    expect(loadConfig({}).requestTimeoutMs).toBe(60_000);
  });

  it('a sign-in body that trickles in is cut off at the limit with 408', async () => {
    const body = Buffer.from(JSON.stringify({ email: ADMIN.email, password: ADMIN.password }).padEnd(400, ' '));
    const o = await slowRequest(jsonHead(`${API}/login`, body.length), body, { everyMs: 100, pieces: 100 });
    expectTimedOut(o, 'trickled sign-in');
    expect(o.sent).toBeLessThan(body.length);
  });

  it('a body that stalls after the headers is cut off at the limit', async () => {
    const o = await slowRequest(jsonHead(`${API}/forgot_password`, 50), Buffer.alloc(0), { everyMs: 100, pieces: 1 });
    expectTimedOut(o, 'stalled body');
  });

  it('headers that trickle in are cut off at the limit', async () => {
    const head = Buffer.from(`GET ${API}/user HTTP/1.1\r\nHost: localhost\r\n`);
    const slowHeaders = Buffer.from(Array.from({ length: 100 }, (_, i) => `X-Slow-${i}: ${'a'.repeat(10)}\r\n`).join(''));
    const o = await slowRequest(head, slowHeaders, { everyMs: 100, pieces: 100 });
    expectTimedOut(o, 'trickled headers');
  });

  it('an upload with a valid token that trickles in is cut off and leaves no file behind', async () => {
    const files = () => (fs.existsSync(t.config.uploadsDir) ? fs.readdirSync(t.config.uploadsDir).length : 0);
    const filesBefore = files();
    const [{ n: before }] = await t.db.select({ n: count() }).from(media);
    const form = await multipartBody({ file: { file: Buffer.concat([PNG, Buffer.alloc(20_000)]), name: 'фото.png', type: 'image/png' } });
    const payload = form.raw;
    const head =
      `POST ${API}/media HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: ${form.contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`;
    const o = await slowRequest(head, payload, { everyMs: 100, pieces: 200 });
    expectTimedOut(o, 'trickled upload');
    const [{ n: after }] = await t.db.select({ n: count() }).from(media);
    expect(after).toBe(before);
    // The partly written file is removed once the reader sees the connection gone.
    for (let i = 0; i < 40 && files() !== filesBefore; i++) await new Promise((r) => setTimeout(r, 50));
    expect(files()).toBe(filesBefore);
  });

  it('other connection-level errors answer in the same shape, in Ukrainian', async () => {
    for (const [head, status] of [
      ['NOT HTTP AT ALL\r\n\r\n', 400],
      [`GET ${API}/user HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ] as const) {
      const o = await slowRequest(head, Buffer.alloc(0), { everyMs: 100, pieces: 1 });
      expect(o.answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(o.answer.toLowerCase()).toContain('cache-control: no-store');
      expect((JSON.parse(o.answer.slice(o.answer.indexOf('\r\n\r\n') + 4)) as { message: string }).message).toMatch(UKRAINIAN);
      expect(o.closedAfter).toBeLessThan(LIMIT_MS);
    }
  });

  it('a slow body that completes within the limit is answered as usual', async () => {
    const body = Buffer.from(JSON.stringify({ email: ADMIN.email, password: ADMIN.password }));
    const o = await slowRequest(jsonHead(`${API}/login`, body.length, 'Connection: close\r\n'), body, { everyMs: 50, pieces: 5 });
    expect(o.answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(o.answer).toContain('access_token');
  });
});
