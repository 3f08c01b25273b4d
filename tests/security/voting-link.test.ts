import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, API, meetingBody, setupApp, type TestApp } from '../api/helpers.ts';
import { rows } from './db.ts';

/**
 * A meeting's voting link opens the meeting to anyone who holds it. Whoever reads the database (a
 * dump, a replica, a backup archive, a support session) must not get the links from it: no table
 * holds a link token in clear, and what is kept in its place (the token's hash, its sealed copy)
 * does not open the public voting page.
 */
const PUBLIC = '/api/public/voting';

let t: TestApp;
let admin: string;
/** Every meeting of the organization with its link as staff are shown it: the demo one and one made here. */
let meetings: { id: number; token: string; hash: string; sealed: string }[];

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const [demo] = await rows<{ house_id: number }>(t, sql`select house_id from votings where organization_id = ${t.organizationId} limit 1`);
  const created = await t.call('POST', `${API}/voting`, {
    token: admin,
    body: meetingBody(demo.house_id, {
      title: 'Збори для перевірки посилань',
      place: 'Хол',
      questions: [{ title: 'Затвердити кошторис.', threshold: 'majority' }],
    }),
  });
  expect(created.statusCode, created.body).toBe(200);
  const kept = await rows<{ id: number; hash: string; sealed: string }>(
    t,
    sql`select id, link_token_hash as hash, link_token_sealed as sealed from votings where organization_id = ${t.organizationId} order by id`,
  );
  expect(kept.length).toBeGreaterThanOrEqual(2);
  meetings = [];
  for (const v of kept) {
    const res = await t.call('GET', `${API}/voting/${v.id}/deeplink`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    meetings.push({ ...v, token: (res.json().deeplink as string).split('/').pop()! });
  }
});
afterAll(() => t?.close());

describe('voting links in the database', () => {
  it('no table holds a link token in clear', async () => {
    const [{ clear }] = await rows<{ clear: number }>(t, sql`select count(*)::int as clear from votings where link_token is not null`);
    expect(clear).toBe(0);
    const pattern = meetings.map((m) => m.token).join('|');
    const tables = await rows<{ schema: string; name: string }>(
      t,
      sql`select table_schema as schema, table_name as name from information_schema.tables
          where table_type = 'BASE TABLE' and (table_schema = 'public' or (table_schema = 'pgboss' and table_name in ('job', 'archive')))
            and table_name not in ('settlements', 'streets') order by 1, 2`,
    );
    const holding: string[] = [];
    for (const { schema, name } of tables) {
      const [{ n }] = await rows<{ n: number }>(
        t,
        sql`select count(*)::int as n from ${sql.identifier(schema)}.${sql.identifier(name)} x where x::text ~ ${pattern}`,
      );
      if (n > 0) holding.push(`${schema}.${name}`);
    }
    expect(holding).toEqual([]);
  });

  it('the hash read from a dump does not open the public voting page, nor does the sealed copy', async () => {
    for (const m of meetings) {
      expect(m.hash).toMatch(/^[0-9a-f]{64}$/);
      expect((await t.call('GET', `${PUBLIC}/${m.token}`)).statusCode).toBe(200);
      const byHash = await t.call('GET', `${PUBLIC}/${m.hash}`);
      expect(byHash.statusCode).toBe(404);
      expect(byHash.body).not.toContain(m.token);
      expect((await t.call('POST', `${PUBLIC}/${m.hash}/code`, { body: { contact: 'someone@test.ua' } })).statusCode).toBe(404);
      for (const part of [m.sealed, ...m.sealed.split('.')]) expect((await t.call('GET', `${PUBLIC}/${encodeURIComponent(part)}`)).statusCode).not.toBe(200);
    }
  });
});
