import { desc, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, votings } from '../../server/db/schema.ts';
import { linkKeyOf, newLinkToken } from '../../server/modules/voting/linkTokens.ts';
import { ADMIN, API, nextIp, setupApp, uid, UKRAINIAN, type TestApp } from '../api/helpers.ts';
import { rows } from './db.ts';

/**
 * POST /api/public/voting/{token}/code must not tell who is a co-owner: a registered address
 * and any other get the same status, body, headers and time, also when asked again; and nobody
 * can send (or probe) without limit: per client address (TRUST_PROXY honoured) and per link.
 */
const PUBLIC = '/api/public/voting';
/** The reverse proxy these tests trust (TEST-NET-1: never a test client's own address). */
const PROXY = '192.0.2.1';

let t: TestApp;
let demo: { id: number; token: string; emails: string[]; phones: string[] };

beforeAll(async () => {
  t = await setupApp({ env: { TRUST_PROXY: PROXY } });
  const people = await rows<{ id: number; email: string | null; phone: string | null }>(
    t,
    sql`select v.id, m.email, m.phone from votings v
        join voting_participants p on p.voting_id = v.id join members m on m.id = p.member_id
        where v.organization_id = ${t.organizationId} order by p.id`,
  );
  // The link as staff see it: the database keeps only its hash and a sealed copy.
  const link = await t.call('GET', `${API}/voting/${people[0].id}/deeplink`, { token: await t.login(ADMIN.email, ADMIN.password) });
  expect(link.statusCode, link.body).toBe(200);
  demo = {
    id: people[0].id,
    token: (link.json().deeplink as string).split('/').pop()!,
    emails: people.flatMap((p) => (p.email ? [p.email] : [])),
    phones: [...new Set(people.flatMap((p) => (p.phone ? [p.phone] : [])))],
  };
  expect(demo.emails.length, 'co-owners with an e-mail in the demo meeting').toBeGreaterThanOrEqual(4);
  expect(demo.phones.length, 'co-owners with a phone in the demo meeting').toBeGreaterThanOrEqual(4);
  expect(demo.emails.length + demo.phones.length).toBeGreaterThanOrEqual(11);
});
afterAll(() => t?.close());

/** Another link for the same house, with no co-owners of its own (its link limit is the base 30 an hour). */
async function freshLink(): Promise<string> {
  const [v] = await t.db.select().from(votings).where(eq(votings.id, demo.id));
  const { id: _id, ...rest } = v;
  const { token, columns } = newLinkToken(linkKeyOf(t.config));
  await t.db.insert(votings).values({ ...rest, ...columns, lastNotifiedAt: null });
  return token;
}

const ask = (token: string, contact: string, opts: { ip?: string; headers?: Record<string, string> } = {}) =>
  t.call('POST', `${PUBLIC}/${token}/code`, { body: { contact }, ...opts });
const unknownEmail = () => `nobody-${uid()}@test.ua`;
const unknownPhone = () => `+38099${String(1000000 + Math.floor(Math.random() * 8999999))}`;

/** What a client sees of an answer, with the random challenge masked (same length and alphabet). */
function seen(res: LightMyRequestResponse) {
  const volatile = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !volatile.has(k) && k !== 'retry-after'));
  const body = res.body.replace(/"challenge":"[A-Za-z0-9_-]+"/, (m) => `"challenge":"${'x'.repeat(m.length - 15)}"`);
  return { status: res.statusCode, headers, body, retryAfter: res.headers['retry-after'] === undefined ? undefined : Number(res.headers['retry-after']) };
}
function expectAlike(a: LightMyRequestResponse, b: LightMyRequestResponse) {
  const [x, y] = [seen(a), seen(b)];
  expect({ ...x, retryAfter: undefined }).toEqual({ ...y, retryAfter: undefined });
  // Retry-After counts down from each one's own first request: the same within a second.
  if (x.retryAfter !== undefined || y.retryAfter !== undefined) expect(Math.abs(x.retryAfter! - y.retryAfter!)).toBeLessThanOrEqual(1);
}

const lastMessageTo = async (to: string) => (await t.db.select().from(outbox).where(eq(outbox.recipient, to)).orderBy(desc(outbox.id)).limit(1))[0];

describe('a co-owner and a stranger get the same answer', () => {
  it.each([
    ['an e-mail', () => demo.emails[0], unknownEmail, (c: string) => c],
    ['an e-mail in capitals with spaces', () => demo.emails[1], unknownEmail, (c: string) => `  ${c.toUpperCase()} `],
    ['a phone in the international form', () => demo.phones[0], unknownPhone, (c: string) => c],
    ['a phone as people write it', () => demo.phones[1], unknownPhone, (c: string) => `0${c.slice(4, 6)} ${c.slice(6, 9)} ${c.slice(9, 11)} ${c.slice(11)}`],
  ])('%s: first request, a second within a minute, a third', async (_name, registered, stranger, written) => {
    const known = registered();
    const other = stranger();
    const first = [await ask(demo.token, written(known)), await ask(demo.token, written(other))];
    expect(first[0].statusCode, first[0].body).toBe(200);
    expectAlike(first[0], first[1]);
    // Only the co-owner was sent a code: the answers are alike although the work was not.
    expect(await lastMessageTo(known)).toMatchObject({ kind: 'voting_code' });
    expect(await lastMessageTo(other)).toBeUndefined();

    for (let i = 0; i < 2; i++) {
      const again = [await ask(demo.token, written(known)), await ask(demo.token, written(other))];
      expect(again[0].statusCode).toBe(429);
      expect(again[0].json().message).toMatch(UKRAINIAN);
      expect(Number(again[0].headers['retry-after'])).toBeGreaterThan(0);
      expectAlike(again[0], again[1]);
    }
  });

  it('in the same time: both answer no sooner than the minimum, medians within a factor of 1.5', async () => {
    // Addresses not asked for yet (each may have one code a minute), each against a stranger's of its sort.
    const pairs = [...demo.emails.slice(2).map((c) => [c, unknownEmail] as const), ...demo.phones.slice(2).map((c) => [c, unknownPhone] as const)].slice(0, 7);
    const times: [number[], number[]] = [[], []];
    const time = async (contact: string) => {
      const start = process.hrtime.bigint();
      const res = await ask(demo.token, contact);
      expect(res.statusCode, res.body).toBe(200);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    // In alternation, so that load on the machine hits both alike.
    for (const [contact, stranger] of pairs) {
      times[0].push(await time(contact));
      times[1].push(await time(stranger()));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const [k, u] = times.map(median);
    expect(Math.min(...times[0], ...times[1]), `known ${times[0].join(', ')} ms; unknown ${times[1].join(', ')} ms`).toBeGreaterThanOrEqual(245);
    expect(k / u, `known ${k} ms, unknown ${u} ms`).toBeLessThan(1.5);
    expect(u / k, `known ${k} ms, unknown ${u} ms`).toBeLessThan(1.5);
  });
});

describe('limits', () => {
  /** Asks `n` times from one client with fresh unknown addresses; the statuses. */
  async function burst(token: string, n: number, opts: { ip?: string; headers?: Record<string, string> }) {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) statuses.push((await ask(token, unknownEmail(), opts)).statusCode);
    return statuses;
  }
  function expectLimited(res: LightMyRequestResponse, about: RegExp) {
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json().message).toMatch(UKRAINIAN);
    expect(res.json().message).toMatch(about);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  }

  it('one client may ask 20 times an hour, whatever addresses it tries; a forged X-Forwarded-For does not help', async () => {
    const token = await freshLink();
    const ip = nextIp();
    expect(await burst(token, 20, { ip })).toEqual(Array(20).fill(200));
    expectLimited(await ask(token, unknownEmail(), { ip }), /мереж/);
    // The client is not the trusted proxy: its X-Forwarded-For is ignored.
    expectLimited(await ask(token, unknownEmail(), { ip, headers: { 'x-forwarded-for': nextIp() } }), /мереж/);
    // A registered address from that client is refused alike, and nothing is sent.
    const before = await lastMessageTo(demo.emails[0]);
    expectLimited(await ask(token, demo.emails[0], { ip }), /мереж/);
    expect(await lastMessageTo(demo.emails[0])).toEqual(before);
    // Another client is served.
    expect((await ask(token, unknownEmail())).statusCode).toBe(200);
  });

  it('behind the trusted proxy (TRUST_PROXY) each client behind it has its own limit', async () => {
    const token = await freshLink();
    const [a, b] = [nextIp(), nextIp()];
    const via = (client: string) => ({ ip: PROXY, headers: { 'x-forwarded-for': client } });
    expect(await burst(token, 20, via(a))).toEqual(Array(20).fill(200));
    expectLimited(await ask(token, unknownEmail(), via(a)), /мереж/);
    expect((await ask(token, unknownEmail(), via(b))).statusCode).toBe(200);
  });

  it('one link takes 30 requests an hour plus 3 per co-owner, from any number of clients', async () => {
    const token = await freshLink();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await ask(token, unknownEmail())).statusCode);
    expect(statuses).toEqual(Array(30).fill(200));
    expectLimited(await ask(token, unknownEmail()), /збор/);
    // Another meeting's link is not affected.
    expect((await ask(await freshLink(), unknownEmail())).statusCode).toBe(200);
  });

  it('a bad address is refused before any limit is counted', async () => {
    const token = await freshLink();
    const ip = nextIp();
    for (let i = 0; i < 25; i++) expect((await ask(token, 'не телефон', { ip })).statusCode).toBe(422);
    expect((await ask(token, unknownEmail(), { ip })).statusCode).toBe(200);
  });
});
