/**
 * The server process is killed (SIGKILL, no shutdown code) in the middle of a stream of writes
 * on PGlite, then started again on the same DATA_DIR: every write that was answered 2xx is
 * there, and a multi-row change that was cut off is either whole or absent.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { call, login, seededDataDir, startServer, type ServerProcess } from './helpers.ts';

type Kind = 'complex' | 'staff' | 'house';
interface Write {
  kind: Kind;
  n: number;
  body: Record<string, unknown>;
  /** The id from a 2xx answer; undefined when the answer never came. */
  id?: number;
}

describe('SIGKILL during writes (PGlite)', () => {
  const dataDir = seededDataDir('crash');
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write and no half of a multi-row change', async () => {
    server = await startServer({ dataDir });
    const base = server.url;
    const token = await login(base);
    const complexes = (await call(base, 'GET', '/complexes?per_page=50', { token })).body.main_data.data as { id: number }[];
    expect(complexes.length).toBeGreaterThanOrEqual(3);
    const complexIds = complexes.slice(0, 3).map((c) => c.id);
    const someHouse = (await call(base, 'GET', '/houses?per_page=1', { token })).body.main_data.data[0] as { city_id: number };
    const tag = Date.now().toString(36);
    const roleId = ((await call(base, 'GET', '/staff?per_page=1', { token })).body.form.roles as { id: number }[])[0].id;

    const bodyOf = (kind: Kind, n: number): Record<string, unknown> => {
      if (kind === 'complex') return { name: `Аварійний ${tag} ${n}`, city: 'Київ', address: `вул. Аварійна, ${n}`, description: 'запис під час аварії' };
      // A staff member with three complexes: one users row and three user_complexes rows.
      if (kind === 'staff') return { name: `Працівник ${tag} ${n}`, email: `crash-${tag}-${n}@test.ua`, role_id: roleId, complex_ids: complexIds };
      // A house on a street typed by hand: the street and the house in one transaction.
      return { complex_id: complexIds[0], city_id: someHouse.city_id, street_name: `Аварійна ${tag} ${n}`, number: String(n), floors: 9, entrances: 2 };
    };
    const paths: Record<Kind, string> = { complex: '/complexes', staff: '/staff', house: '/houses' };
    const idOf = (kind: Kind, body: any): number => (kind === 'complex' ? body.main_data.id : body.data.id);

    const writes: Write[] = [];
    let stop = false;
    let killing = false;
    let next = 0;
    let failure: unknown;
    const worker = async (kind: Kind) => {
      while (!stop) {
        const n = ++next;
        const w: Write = { kind, n, body: bodyOf(kind, n) };
        writes.push(w);
        try {
          const res = await call(base, 'POST', paths[kind], { token, body: w.body, timeoutMs: 20_000 });
          if (res.status >= 200 && res.status < 300) w.id = idOf(kind, res.body);
          else throw new Error(`${kind} ${n}: ${res.status} ${JSON.stringify(res.body)}`);
        } catch (err) {
          if (!killing) throw err;
          return; // the server is gone: this write may or may not have happened
        }
      }
    };
    const workers = (['complex', 'staff', 'house', 'complex', 'staff', 'house'] as Kind[]).map((k) =>
      worker(k).catch((err) => {
        failure ??= err;
        stop = true;
      }),
    );
    // Kill once a good number of writes were answered, while others are in flight.
    const started = Date.now();
    while (!stop && writes.filter((w) => w.id !== undefined).length < 30 && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 50));
    killing = true;
    await server.kill();
    stop = true;
    await Promise.all(workers);
    expect(failure).toBeUndefined();
    const acked = writes.filter((w) => w.id !== undefined);
    const cut = writes.filter((w) => w.id === undefined);
    expect(acked.length).toBeGreaterThanOrEqual(30);
    expect(cut.length).toBeGreaterThan(0);

    server = await startServer({ dataDir });
    const again = server.url;
    const t2 = await login(again);

    for (const w of acked) {
      if (w.kind === 'complex') {
        const res = await call(again, 'GET', `/complexes/${w.id}`, { token: t2 });
        expect(res.status, `complex ${w.n}`).toBe(200);
        expect(res.body.data.name).toBe(w.body.name);
      } else if (w.kind === 'staff') {
        const res = await call(again, 'GET', `/staff/${w.id}`, { token: t2 });
        expect(res.status, `staff ${w.n}`).toBe(200);
        expect(res.body.data.email).toBe(w.body.email);
        expect([...res.body.data.complex_ids].sort()).toEqual([...complexIds].sort());
      } else {
        const res = await call(again, 'GET', `/houses/${w.id}`, { token: t2 });
        expect(res.status, `house ${w.n}`).toBe(200);
        expect(res.body.data.street).toContain(`${tag} ${w.n}`);
        expect(res.body.data.number).toBe(String(w.n));
      }
    }

    // Every staff member of this run, answered or cut off, has all three complexes or does not exist.
    const staff = await call(again, 'GET', `/staff?per_page=100&search_query=${encodeURIComponent(`crash-${tag}`)}`, { token: t2 });
    expect(staff.status).toBe(200);
    const found = staff.body.data.data as { email: string; complex_ids: number[] }[];
    expect(found.length).toBeGreaterThanOrEqual(acked.filter((w) => w.kind === 'staff').length);
    for (const s of found) expect([...s.complex_ids].sort(), s.email).toEqual([...complexIds].sort());

    // A house that was cut off is absent or whole: the house found by its street has its number.
    for (const w of cut.filter((c) => c.kind === 'house')) {
      const res = await call(again, 'GET', `/houses?search_query=${encodeURIComponent(String(w.body.street_name))}`, { token: t2 });
      expect(res.status).toBe(200);
      for (const h of res.body.main_data.data as { number: string; street: string }[]) expect(h.number).toBe(String(w.n));
    }

    // And the database takes new writes.
    const after = await call(again, 'POST', '/complexes', { token: t2, body: bodyOf('complex', 100_000) });
    expect(after.status).toBe(200);
  });
});
