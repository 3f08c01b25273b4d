/**
 * Two API processes on one PostgreSQL (a throwaway cluster of the suite's own): concurrent edits
 * of one record lose nothing (optimistic concurrency, 409 for the stale one), live updates cross
 * processes, sessions and sign-in throttling are shared, and when PostgreSQL stops the API answers 503 fast and recovers by itself.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createCluster,
  DB_UNAVAILABLE,
  login,
  postgresBinaries,
  STALE,
  startServer,
  subscribeLive,
  tempDir,
  UKRAINIAN,
  waitFor,
  type Cluster,
  type ServerProcess,
} from './helpers.ts';

const binaries = postgresBinaries();
if (!binaries) console.warn('PostgreSQL binaries (initdb, pg_ctl; see `pg_config --bindir`) are not installed: the PostgreSQL fault tests are skipped.');

describe.skipIf(!binaries)('two API processes on one PostgreSQL', () => {
  let cluster: Cluster;
  let a: ServerProcess;
  let b: ServerProcess;
  let tokenA: string;
  let tokenB: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    cluster = await createCluster('two');
    const url = await cluster.createDatabase('zhk');
    dirs.push(tempDir('a'), tempDir('b'));
    // The first one migrates and seeds; the second starts on the ready database.
    a = await startServer({ dataDir: dirs[0], databaseUrl: url });
    b = await startServer({ dataDir: dirs[1], databaseUrl: url });
    tokenA = await login(a.url);
    tokenB = await login(b.url);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    cluster?.destroy();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('two processes change one complex with the same version: one wins, the other gets 409, nothing is lost', async () => {
    const list = await call(a.url, 'GET', '/complexes?per_page=1', { token: tokenA });
    const id = list.body.main_data.data[0].id as number;
    const [readA, readB] = await Promise.all([
      call(a.url, 'GET', `/complexes/${id}`, { token: tokenA }),
      call(b.url, 'GET', `/complexes/${id}`, { token: tokenB }),
    ]);
    expect(readA.body.data.updated_at).toBe(readB.body.data.updated_at);
    const version = readA.body.data.updated_at as string;
    const edit = (r: typeof readA, name: string) => ({ name, city: r.body.data.city, address: r.body.data.address, description: r.body.data.description });

    const answers = await Promise.all([
      call(a.url, 'PUT', `/complexes/${id}`, { token: tokenA, body: edit(readA, 'Назва від процесу A'), headers: { 'If-Match': `"${version}"` } }),
      call(b.url, 'PUT', `/complexes/${id}`, { token: tokenB, body: edit(readB, 'Назва від процесу B'), headers: { 'If-Match': `"${version}"` } }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = answers.find((r) => r.status === 200)!;
    const loser = answers.find((r) => r.status === 409)!;
    expect(loser.body).toEqual({ message: STALE });
    expect(winner.body.data.updated_at).not.toBe(version);

    const final = await call(b.url, 'GET', `/complexes/${id}`, { token: tokenB });
    expect(final.body.data.name).toBe(winner.body.data.name);
    expect(final.body.data.updated_at).toBe(winner.body.data.updated_at);

    // The loser re-reads and repeats with the fresh version: accepted.
    const retry = await call(loser === answers[0] ? a.url : b.url, 'PUT', `/complexes/${id}`, {
      token: tokenA,
      body: edit(final, 'Назва після повтору'),
      headers: { 'If-Match': `"${final.body.data.updated_at}"` },
    });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    // Without a version the update is unconditional, as for clients that never send one.
    const blind = await call(a.url, 'PUT', `/complexes/${id}`, { token: tokenA, body: edit(final, 'Назва без версії') });
    expect(blind.status).toBe(200);
    // A version that is not a date is a client error, not a silent overwrite.
    const garbage = await call(a.url, 'PUT', `/complexes/${id}`, {
      token: tokenA,
      body: edit(final, 'Назва з поганою версією'),
      headers: { 'If-Match': '"abc"' },
    });
    expect(garbage.status).toBe(400);
    expect(garbage.body.message).toMatch(UKRAINIAN);
  });

  it('the same for a service request (a partial update inside a locked transaction) and a staff member (with complexes)', async () => {
    const req = (await call(a.url, 'GET', '/service_request?per_page=1', { token: tokenA })).body.main_data.data[0] as { id: number; updated_at: string };
    expect(req).toBeDefined();
    const version = (await call(b.url, 'GET', `/service_request/${req.id}`, { token: tokenB })).body.data.updated_at as string;
    const answers = await Promise.all([
      call(a.url, 'PUT', `/service_request/${req.id}`, { token: tokenA, body: { text: 'Текст від процесу A' }, headers: { 'If-Match': version } }),
      call(b.url, 'PUT', `/service_request/${req.id}`, { token: tokenB, body: { text: 'Текст від процесу B' }, headers: { 'If-Match': version } }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = answers.find((r) => r.status === 200)!;
    expect(answers.find((r) => r.status === 409)!.body.message).toBe(STALE);
    const final = await call(a.url, 'GET', `/service_request/${req.id}`, { token: tokenA });
    expect(final.body.data.text).toBe(winner.body.data.text);

    const staffList = await call(a.url, 'GET', '/staff?per_page=50', { token: tokenA });
    const person = (staffList.body.data.data as { id: number; is_admin: boolean; can_manage: boolean }[]).find((s) => !s.is_admin && s.can_manage)!;
    const read = (await call(a.url, 'GET', `/staff/${person.id}`, { token: tokenA })).body.data;
    const complexIds = ((await call(a.url, 'GET', '/complexes?per_page=5', { token: tokenA })).body.main_data.data as { id: number }[]).map((c) => c.id);
    const body = (name: string, ids: number[]) => ({ name, email: read.email, phone: read.phone, is_admin: false, role_id: read.role_id, complex_ids: ids });
    const staffAnswers = await Promise.all([
      call(a.url, 'PUT', `/staff/${person.id}`, { token: tokenA, body: body('Працівник A', complexIds.slice(0, 1)), headers: { 'If-Match': read.updated_at } }),
      call(b.url, 'PUT', `/staff/${person.id}`, { token: tokenB, body: body('Працівник B', complexIds.slice(1, 4)), headers: { 'If-Match': read.updated_at } }),
    ]);
    expect(staffAnswers.map((r) => r.status).sort()).toEqual([200, 409]);
    const staffWinner = staffAnswers.find((r) => r.status === 200)!;
    const after = (await call(b.url, 'GET', `/staff/${person.id}`, { token: tokenB })).body.data;
    expect(after.name).toBe(staffWinner.body.data.name);
    // The loser's complexes were not written either: the whole change was refused.
    expect([...after.complex_ids].sort()).toEqual([...staffWinner.body.data.complex_ids].sort());
  });

  it('act as one: a session opened on one process works and ends on the other; sign-in throttling and known browsers count across both', async () => {
    // A session opened through A is valid through B, and signing out through B ends it on A.
    const token = await login(a.url);
    expect((await call(b.url, 'GET', '/user', { token })).status).toBe(200);
    expect((await call(b.url, 'POST', '/logout', { token })).status).toBe(200);
    expect((await call(a.url, 'GET', '/user', { token })).status).toBe(401);

    // The dispatcher's browser signed in through A before: it holds a device cookie.
    const email = 'dispatcher@demo.ua';
    const first = await call(a.url, 'POST', '/login', { body: { email, password: 'demo-staff-2026' } });
    expect(first.status).toBe(200);
    const device = /zhk_device=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1];
    expect(device).toBeDefined();

    // Wrong passwords for one account, alternating between the processes, are counted together.
    const wrong = (base: string) => call(base, 'POST', '/login', { body: { email, password: 'not-the-password' } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await wrong(i % 2 === 0 ? a.url : b.url)).status);
    expect(statuses.every((s) => s === 422 || s === 401)).toBe(true);
    const sixth = await wrong(b.url);
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toMatch(UKRAINIAN);
    // And the right password is refused on the other process too while the wait lasts...
    expect((await call(a.url, 'POST', '/login', { body: { email, password: 'demo-staff-2026' } })).status).toBe(429);
    // ...except to the browser that signed in before, on either process: no lock-out.
    for (const base of [b.url, a.url]) {
      const known = await call(base, 'POST', '/login', { body: { email, password: 'demo-staff-2026' }, headers: { cookie: `zhk_device=${device}` } });
      expect(known.status, JSON.stringify(known.body)).toBe(200);
    }
  });

  it('a live update made through one process reaches a subscriber of the other', async () => {
    const stream = await subscribeLive(b.url, tokenB);
    try {
      await waitFor('the ready event', async () => (stream.events.some((e) => e.event === 'ready') ? true : undefined), 5_000);
      const req = (await call(a.url, 'GET', '/service_request?per_page=1', { token: tokenA })).body.main_data.data[0] as { id: number };
      const res = await call(a.url, 'PUT', `/service_request/${req.id}`, { token: tokenA, body: { text: 'Зміна для живого оновлення' } });
      expect(res.status).toBe(200);
      const event = await waitFor(
        'the request event on the other process',
        async () => stream.events.find((e) => e.event === 'request' && e.data.request_id === req.id),
        10_000,
      );
      expect(event.data.action).toBe('updated');
    } finally {
      stream.close();
    }
  });

  it('PostgreSQL stops: fast 503 with a Ukrainian message, no crash; it returns: the API and live updates recover by themselves', async () => {
    const stream = await subscribeLive(b.url, tokenB);
    await waitFor('the ready event', async () => (stream.events.some((e) => e.event === 'ready') ? true : undefined), 5_000);
    try {
      cluster.stop();

      for (const [server, token] of [
        [a, tokenA],
        [b, tokenB],
      ] as const) {
        for (const [method, url, body] of [
          ['GET', '/complexes', undefined],
          ['GET', '/user', undefined],
          ['POST', '/complexes', { name: 'Під час збою', city: 'Київ', address: 'вул. Тиха, 1', description: '' }],
        ] as const) {
          const res = await call(server.url, method, url, { token, body, timeoutMs: 10_000 });
          expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(503);
          expect(res.body).toEqual({ message: DB_UNAVAILABLE });
          expect(res.ms, `${method} ${url} took ${res.ms} ms`).toBeLessThan(3_000);
        }
        // Signing in needs the database too: the same answer, not a misleading "wrong password".
        const signIn = await call(server.url, 'POST', '/login', { body: { email: 'admin@demo.ua', password: 'demo-admin-2026' } });
        expect(signIn.status).toBe(503);
      }
      // A few seconds without the database: the processes stay up.
      await new Promise((r) => setTimeout(r, 3_000));
      expect(a.alive(), a.output()).toBe(true);
      expect(b.alive(), b.output()).toBe(true);

      cluster.start();
      for (const [server, token] of [
        [a, tokenA],
        [b, tokenB],
      ] as const) {
        await waitFor(
          'the API to answer again',
          async () => ((await call(server.url, 'GET', '/complexes', { token, timeoutMs: 5_000 })).status === 200 ? true : undefined),
          30_000,
        );
      }
      const created = await call(a.url, 'POST', '/complexes', {
        token: tokenA,
        body: { name: `Після збою ${Date.now()}`, city: 'Київ', address: 'вул. Тиха, 2', description: '' },
      });
      expect(created.status).toBe(200);

      // The stream opened before the outage gets changes made through the other process again,
      // once that process's LISTEN connection is back.
      const req = (await call(a.url, 'GET', '/service_request?per_page=1', { token: tokenA })).body.main_data.data[0] as { id: number };
      const marker = stream.events.length;
      await waitFor(
        'a live update after the outage',
        async () => {
          await call(a.url, 'PUT', `/service_request/${req.id}`, { token: tokenA, body: { text: `Після збою ${Date.now()}` } });
          await new Promise((r) => setTimeout(r, 700));
          return stream.events.slice(marker).find((e) => e.event === 'request' && e.data.request_id === req.id);
        },
        30_000,
        0,
      );
      expect(stream.ended()).toBe(false);
    } finally {
      stream.close();
    }
  });
});
