/**
 * A meeting's voting link is kept as its token's hash and a sealed copy (linkTokens.ts): the
 * public page finds the meeting by the hash; staff are shown the link again from the copy.
 * Migration 0029 hashes the clear tokens it finds and the start seals them; a link whose copy
 * cannot be opened (the key changed) is a 409 for staff, never a 500, and can be made anew.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { desc, eq, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { migrationsFolder, openDatabase, pgliteExtensions, queryRows, type Db } from '../../server/db/index.ts';
import * as schema from '../../server/db/schema.ts';
import { outbox, votings } from '../../server/db/schema.ts';
import { keyFromSecret } from '../../server/lib/sealed.ts';
import { hashToken } from '../../server/lib/secrets.ts';
import { linkKeyOf, linksUnderOtherKey, linkTokenOf, newLinkToken, sealClearLinkTokens } from '../../server/modules/voting/linkTokens.ts';
import { ADMIN, API, createUser, expectErrorBody, meetingBody, setupApp, type Method, type TestApp } from './helpers.ts';
import { databaseUrl, TEST_DB_PREFIX, withAdminClient } from './pg.ts';

const PUBLIC = '/api/public/voting';
const OTHER_SECRET = 'another-installation-link-secret-0123456789';

let t: TestApp;
let admin: string;
let houseId: number;

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  // The demo meeting's house: it has co-owners with e-mails.
  [{ houseId }] = await t.db.select({ houseId: votings.houseId }).from(votings).where(eq(votings.organizationId, t.organizationId)).limit(1);
});
afterAll(() => t?.close());

async function createMeeting(): Promise<number> {
  const res = await t.call('POST', `${API}/voting`, { token: admin, body: meetingBody(houseId) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
}

const tokenOf = (deeplink: string) => deeplink.split('/').pop()!;
async function shownToken(id: number, call: TestApp['call'] = t.call): Promise<string> {
  const res = await call('GET', `${API}/voting/${id}/deeplink`, { token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return tokenOf(res.json().deeplink);
}
const rowOf = async (id: number) => (await t.db.select().from(votings).where(eq(votings.id, id)))[0];
const publicPage = (token: string) => t.call('GET', `${PUBLIC}/${token}`);

/** The same database served by a process whose link key is another one (LINK_SECRET changed, link.key lost). */
async function withOtherKey<T>(fn: (call: TestApp['call']) => Promise<T>): Promise<T> {
  const other = await buildApp({ config: { ...t.config, linkSecret: OTHER_SECRET }, database: { db: t.db, driver: t.driver, close: async () => {} } });
  await other.ready();
  try {
    return await fn((method: Method, url, o = {}) =>
      other.inject({
        method,
        url,
        headers: o.token ? { authorization: `Bearer ${o.token}` } : {},
        payload: o.body === undefined ? undefined : (o.body as object),
      }),
    );
  } finally {
    await other.close();
  }
}

describe('a new link', () => {
  it('is kept as its hash and a copy sealed under the link key, and opens the public page by the token only', async () => {
    const id = await createMeeting();
    const token = await shownToken(id);
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await shownToken(id)).toBe(token);
    const row = await rowOf(id);
    expect(row).toMatchObject({ linkToken: null, linkTokenHash: hashToken(token) });
    expect(row.linkTokenSealed).not.toContain(token);
    expect(linkTokenOf(linkKeyOf(t.config), row)).toBe(token);
    expect((await publicPage(token)).statusCode).toBe(200);
    expectErrorBody(await publicPage(row.linkTokenHash), 404);
  });

  it('is made anew on request: the old one stops opening the page, the new one is shown and sent', async () => {
    const id = await createMeeting();
    const old = await shownToken(id);
    const viewer = await createUser(t.db, { organizationId: t.organizationId, permissions: { votings: ['view'] } });
    expectErrorBody(await t.call('POST', `${API}/voting/${id}/deeplink`, { token: await t.login(viewer.email, viewer.password) }), 403);
    const outsider = await createUser(t.db, { organizationId: t.organizationId, permissions: { votings: ['view', 'edit'] }, complexIds: [] });
    expectErrorBody(await t.call('POST', `${API}/voting/${id}/deeplink`, { token: await t.login(outsider.email, outsider.password) }), 404);
    expect(await shownToken(id)).toBe(old);

    const res = await t.call('POST', `${API}/voting/${id}/deeplink`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const fresh = tokenOf(res.json().deeplink);
    expect(fresh).not.toBe(old);
    expect(await shownToken(id)).toBe(fresh);
    expectErrorBody(await publicPage(old), 404);
    expect((await publicPage(fresh)).statusCode).toBe(200);
    const sent = await t.call('POST', `${API}/voting/${id}/replay-notification`, { token: admin });
    expect(sent.statusCode, sent.body).toBe(200);
    const [mail] = await t.db.select().from(outbox).where(eq(outbox.kind, 'voting_invitation')).orderBy(desc(outbox.id)).limit(1);
    expect(mail.body).toContain(`https://zhk.test/Vote/${fresh}`);
  });
});

describe('a link whose sealed copy cannot be opened', () => {
  it('under another key: 409 in Ukrainian for the link and the invitations, the page still opens, and a new link mends it', async () => {
    const id = await createMeeting();
    const token = await shownToken(id);
    const before = await rowOf(id);
    await withOtherKey(async (call) => {
      expect(await linksUnderOtherKey(t.db, keyFromSecret(OTHER_SECRET, 'voting link token'))).toBeGreaterThanOrEqual(1);
      const shown = expectErrorBody(await call('GET', `${API}/voting/${id}/deeplink`, { token: admin }), 409);
      expect(shown.message).toMatch(/^Посилання голосування не вдається відновити: ключ посилань змінено/);
      expect(shown.message).toContain(`POST /api/admin/voting/${id}/deeplink`);
      const invited = expectErrorBody(await call('POST', `${API}/voting/${id}/replay-notification`, { token: admin }), 409);
      expect(invited.message).toBe(shown.message);
      // Nothing was sent and the day's turn is kept.
      expect((await rowOf(id)).lastNotifiedAt).toBeNull();
      expect((await call('GET', `${PUBLIC}/${token}`)).statusCode).toBe(200);

      const made = await call('POST', `${API}/voting/${id}/deeplink`, { token: admin });
      expect(made.statusCode, made.body).toBe(200);
      const fresh = tokenOf(made.json().deeplink);
      expect(await shownToken(id, call)).toBe(fresh);
      // Now the first key is the other one.
      expectErrorBody(await t.call('GET', `${API}/voting/${id}/deeplink`, { token: admin }), 409);
    });
    await t.db.update(votings).set({ linkTokenHash: before.linkTokenHash, linkTokenSealed: before.linkTokenSealed }).where(eq(votings.id, id));
    expect(await shownToken(id)).toBe(token);
  });

  it('altered, or copied from another meeting: 409, never a 500', async () => {
    const [a, b] = [await createMeeting(), await createMeeting()];
    const [rowA, rowB] = [await rowOf(a), await rowOf(b)];
    await t.db.update(votings).set({ linkTokenSealed: rowB.linkTokenSealed }).where(eq(votings.id, a));
    const copied = expectErrorBody(await t.call('GET', `${API}/voting/${a}/deeplink`, { token: admin }), 409);
    expect(copied.message).toMatch(/^Посилання голосування не вдається відновити: збережений запис пошкоджено/);
    const fields = rowA.linkTokenSealed!.split('.');
    fields[3] = (fields[3][0] === 'A' ? 'B' : 'A') + fields[3].slice(1);
    for (const damaged of [fields.join('.'), 'not sealed', null]) {
      await t.db.update(votings).set({ linkTokenSealed: damaged }).where(eq(votings.id, a));
      expectErrorBody(await t.call('GET', `${API}/voting/${a}/deeplink`, { token: admin }), 409);
    }
    await t.db.update(votings).set({ linkTokenSealed: rowA.linkTokenSealed }).where(eq(votings.id, a));
    await shownToken(a);
  });
});

describe('a link kept in clear by an older version', () => {
  it('(a row restored from an older backup) is hashed as it is written, served, and sealed at the next start', async () => {
    const id = await createMeeting();
    const legacy = crypto.randomBytes(18).toString('base64url');
    // What restoring an archive made before migration 0029 writes: the clear token and no hash.
    await queryRows(t.db, sql`update votings set link_token = ${legacy}, link_token_hash = 'stale', link_token_sealed = null where id = ${id}`);
    expect(await rowOf(id)).toMatchObject({ linkToken: legacy, linkTokenHash: hashToken(legacy), linkTokenSealed: null });
    expect((await publicPage(legacy)).statusCode).toBe(200);
    expect(await shownToken(id)).toBe(legacy);

    expect(await sealClearLinkTokens(t.db, linkKeyOf(t.config))).toBe(1);
    expect(await sealClearLinkTokens(t.db, linkKeyOf(t.config))).toBe(0);
    const row = await rowOf(id);
    expect(row).toMatchObject({ linkToken: null, linkTokenHash: hashToken(legacy) });
    expect(row.linkTokenSealed).toMatch(/^v1\./);
    expect(await shownToken(id)).toBe(legacy);
    expect((await publicPage(legacy)).statusCode).toBe(200);
  });
});

describe('migration 0029', () => {
  /** A database at migration 0028 (the migrations folder cut there) and a way to run the rest. */
  async function databaseAt0028(): Promise<{ db: Db; run: (text: string) => Promise<unknown>; migrateAll: () => Promise<void>; close: () => Promise<void> }> {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-migrations-'));
    fs.mkdirSync(path.join(folder, 'meta'));
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number; tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.idx <= 28);
    fs.writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
    for (const e of journal.entries) fs.copyFileSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(folder, `${e.tag}.sql`));
    const cleanUp = () => fs.rmSync(folder, { recursive: true, force: true });
    const url = process.env.DATABASE_URL;
    if (!url) {
      const client = await PGlite.create({ extensions: pgliteExtensions });
      const db = drizzlePglite(client, { schema }) as unknown as Db;
      await migratePglite(db as never, { migrationsFolder: folder });
      return {
        db,
        run: (text) => client.exec(text),
        migrateAll: () => migratePglite(db as never, { migrationsFolder }),
        close: async () => {
          await client.close();
          cleanUp();
        },
      };
    }
    const name = `${TEST_DB_PREFIX}m29_${crypto.randomBytes(4).toString('hex')}`;
    await withAdminClient(url, (c) => c.query(`CREATE DATABASE "${name}"`));
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl(url, name) }, { migrate: false });
    await migratePg(database.db as never, { migrationsFolder: folder });
    return {
      db: database.db,
      run: (text) => database.db.execute(sql.raw(text)),
      migrateAll: () => migratePg(database.db as never, { migrationsFolder }),
      close: async () => {
        await database.close();
        await withAdminClient(url, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
        cleanUp();
      },
    };
  }

  it('hashes the clear tokens it finds; the start then seals them and no clear token is left', async () => {
    const at = await databaseAt0028();
    try {
      const tokens = [crypto.randomBytes(18).toString('base64url'), crypto.randomBytes(18).toString('base64url')];
      await at.run(`
        INSERT INTO organizations (id, name) VALUES (1, 'Компанія');
        INSERT INTO settlements (id, code, name, category, region, search_name) VALUES (1, 'UA01', 'Київ', 'K', 'Київ', 'київ');
        INSERT INTO streets (id, settlement_id, name, search_name) VALUES (1, 1, 'Липова', 'липова');
        INSERT INTO houses (id, organization_id, settlement_id, street_id, number) VALUES (1, 1, 1, 1, '12');
        INSERT INTO votings (organization_id, house_id, title, regime, initiator, meeting_date, meeting_time, link_token) VALUES
          (1, 1, 'Перші збори', 'osbb', 'Правління', '2026-11-01', '19:00', '${tokens[0]}'),
          (1, 1, 'Другі збори', 'osbb', 'Правління', '2026-11-02', '19:00', '${tokens[1]}');
      `);
      await at.migrateAll();
      const migrated = await at.db.select().from(votings).orderBy(votings.id);
      expect(migrated.map((v) => [v.linkToken, v.linkTokenHash, v.linkTokenSealed])).toEqual(tokens.map((x) => [x, hashToken(x), null]));

      const key = keyFromSecret(OTHER_SECRET, 'voting link token');
      expect(await sealClearLinkTokens(at.db, key)).toBe(2);
      const sealed = await at.db.select().from(votings).orderBy(votings.id);
      expect(sealed.map((v) => [v.linkToken, v.linkTokenHash])).toEqual(tokens.map((x) => [null, hashToken(x)]));
      expect(sealed.map((v) => linkTokenOf(key, v))).toEqual(tokens);
      const [{ n }] = await queryRows<{ n: number }>(
        at.db,
        sql`select count(*)::int as n from votings v where v::text like ${`%${tokens[0]}%`} or v::text like ${`%${tokens[1]}%`}`,
      );
      expect(n).toBe(0);
      // The hash is unique, and a new row needs one.
      const { columns } = newLinkToken(key);
      await at.db.insert(votings).values({ ...sealed[0], id: undefined, ...columns });
      await expect(at.db.insert(votings).values({ ...sealed[0], id: undefined, ...columns })).rejects.toThrow();
    } finally {
      await at.close();
    }
  });
});
