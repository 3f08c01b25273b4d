import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_STAFF, loadConfig, passwordProblem, productionRefusal, type AppConfig } from '../../server/config.ts';
import type { Db } from '../../server/db/index.ts';
import { productionDatabaseRefusal } from '../../server/seed.ts';
import { users } from '../../server/db/schema.ts';
import { hashPassword } from '../../server/lib/secrets.ts';
import { createUser, setupApp, TEST_HASH_COST, type TestApp } from '../api/helpers.ts';

/**
 * Insecure defaults. `npm start` with nothing set is the demo: it seeds accounts whose passwords
 * the README publishes. A production start (NODE_ENV=production, or a PUBLIC_URL that is not
 * this computer) must refuse them, with one line naming what to set; and with no HOST the server
 * listens on this computer only.
 */
const root = path.resolve(import.meta.dirname, '../..');

/** Every password the README publishes next to an e-mail (`**e-mail** / **password**`). */
function readmePasswords(): string[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  return [...readme.matchAll(/\*\*[^*\s]+@[^*\s]+\*\*\s*\/\s*\*\*([^*\s]+)\*\*/g)].map((m) => m[1]);
}

function expectOneLine(message: string | undefined, names: string) {
  expect(message, `refused, naming ${names}`).toBeDefined();
  expect(message).toContain(names);
  expect(message).not.toContain('\n');
  expect(message!.length).toBeLessThan(300);
}

const PRODUCTION_ENVS: Record<string, string>[] = [
  { NODE_ENV: 'production' },
  { PUBLIC_URL: 'https://zhk.example.ua' },
  { PUBLIC_URL: 'http://10.0.0.5:8080' },
];
const STRONG = 'Ясень-колодязь-2031-Ліхтар';

describe('what counts as a production start', () => {
  it.each([
    {},
    { PUBLIC_URL: 'http://localhost:8080' },
    { PUBLIC_URL: 'http://127.0.0.1:3000' },
    { PUBLIC_URL: 'http://[::1]:8080' },
    { NODE_ENV: 'development' },
    { NODE_ENV: 'test' },
  ])('a local start %j is the demo: nothing is refused', (env) => {
    const config = loadConfig(env);
    expect(config.production).toBeUndefined();
    expect(config.seedDemo).toBe(true);
    expect(productionRefusal(config)).toBeUndefined();
  });

  it.each(PRODUCTION_ENVS)('%j is a production start', (env) => {
    expect(loadConfig(env).production).toBeDefined();
  });
});

describe('configuration a production start refuses', () => {
  it.each(PRODUCTION_ENVS)('%j with the demo data (SEED_DEMO unset or 1) is refused, naming SEED_DEMO=0', (env) => {
    expectOneLine(productionRefusal(loadConfig(env)), 'SEED_DEMO=0');
    expectOneLine(productionRefusal(loadConfig({ ...env, SEED_DEMO: '1', ADMIN_PASSWORD: STRONG })), 'SEED_DEMO=0');
  });

  it('every password the README publishes is refused as ADMIN_PASSWORD, in any case', () => {
    const published = readmePasswords();
    expect(published).toEqual(expect.arrayContaining([DEMO_ADMIN.password, DEMO_STAFF.password]));
    for (const password of [...published, ...published.map((p) => p.toUpperCase())]) {
      expectOneLine(productionRefusal(loadConfig({ NODE_ENV: 'production', SEED_DEMO: '0', ADMIN_PASSWORD: password })), 'ADMIN_PASSWORD');
    }
  });

  it.each(['password123', 'qwerty123', '12345678', 'iloveyou1', 'Admin2026', 'zhk-2026'])('a common or short ADMIN_PASSWORD (%s) is refused', (password) => {
    expect(passwordProblem(password)).toBeDefined();
    expectOneLine(productionRefusal(loadConfig({ PUBLIC_URL: 'https://zhk.example.ua', SEED_DEMO: '0', ADMIN_PASSWORD: password })), 'ADMIN_PASSWORD');
  });

  it('SEED_DEMO=0 with a password of its own (or none, for a database that has its admin) may start', () => {
    expect(productionRefusal(loadConfig({ NODE_ENV: 'production', SEED_DEMO: '0', ADMIN_PASSWORD: STRONG }))).toBeUndefined();
    expect(productionRefusal(loadConfig({ NODE_ENV: 'production', SEED_DEMO: '0' }))).toBeUndefined();
  });

  it('a real start is refused with that one line on stderr, exit code 1, before it opens a database', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-production-start-'));
    try {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env))
        if (v !== undefined && !/^(ADMIN_|SEED_DEMO|PUBLIC_URL|NODE_ENV|DATABASE_URL|HOST|PORT)/.test(k)) env[k] = v;
      for (const extra of [{ NODE_ENV: 'production' }, { PUBLIC_URL: 'https://zhk.example.ua', SEED_DEMO: '0', ADMIN_PASSWORD: DEMO_ADMIN.password }]) {
        const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
          cwd: root,
          env: { ...env, ...extra, DATA_DIR: dataDir, PORT: '0', SKIP_SPA_BUILD: '1' },
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(run.status, run.stderr).toBe(1);
        const lines = run.stderr.split('\n').filter(Boolean);
        expect(lines, run.stderr).toHaveLength(1);
        expectOneLine(lines[0], extra.ADMIN_PASSWORD ? 'ADMIN_PASSWORD' : 'SEED_DEMO=0');
        expect(run.stdout).not.toMatch(/Адмін-панель/);
        expect(fs.readdirSync(dataDir)).toEqual([]);
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The suite's database: seeded as the demo is, so the dispatcher has its published password. */
let t: TestApp;
beforeAll(async () => {
  t = await setupApp();
});
afterAll(() => t?.close());

describe('a database a production start refuses', () => {
  const production = (over: Partial<AppConfig> = {}) => ({
    ...loadConfig({ NODE_ENV: 'production', SEED_DEMO: '0', ADMIN_EMAIL: 'boss@example.ua' }),
    ...over,
  });

  it('an account the demo seeded, still with its published password, is refused by e-mail', async () => {
    const [dispatcher] = await t.db.select().from(users).where(eq(users.email, DEMO_STAFF.email));
    expect(dispatcher).toBeDefined();
    const message = await productionDatabaseRefusal(t.db, production());
    expectOneLine(message, DEMO_STAFF.email);
    // Locally the same database is served as before.
    expect(await productionDatabaseRefusal(t.db, { ...production(), production: undefined })).toBeUndefined();
  });

  it('the configured admin with the published admin password is refused too; changed passwords are not', async () => {
    const boss = await createUser(t.db, { organizationId: t.organizationId, email: 'boss@example.ua', password: DEMO_ADMIN.password, isAdmin: true });
    const message = await productionDatabaseRefusal(t.db, production());
    expectOneLine(message, 'boss@example.ua');
    expect(message).toContain(DEMO_STAFF.email);
    for (const id of [boss.id])
      await t.db
        .update(users)
        .set({ passwordHash: await hashPassword(STRONG, TEST_HASH_COST) })
        .where(eq(users.id, id));
    await t.db
      .update(users)
      .set({ passwordHash: await hashPassword(`${STRONG}-2`, TEST_HASH_COST) })
      .where(eq(users.email, DEMO_STAFF.email));
    expect(await productionDatabaseRefusal(t.db, production())).toBeUndefined();
  });

  it('an empty database needs ADMIN_PASSWORD for its first admin', async () => {
    const outcome = await emptied(t.db, async (db) => ({
      without: await productionDatabaseRefusal(db, production({ adminPasswordSet: false })),
      with: await productionDatabaseRefusal(db, production({ adminPasswordSet: true, adminPassword: STRONG })),
    }));
    expectOneLine(outcome.without, 'ADMIN_PASSWORD');
    expect(outcome.with).toBeUndefined();
  });
});

/** Runs `check` on the database with every account gone, then puts everything back (a rolled-back transaction). */
async function emptied<T>(db: Db, check: (db: Db) => Promise<T>): Promise<T> {
  let result: T | undefined;
  const rollback = new Error('rollback');
  await db
    .transaction(async (tx) => {
      await tx.execute(sql`truncate users cascade`);
      result = await check(tx as unknown as Db);
      throw rollback;
    })
    .catch((err: unknown) => {
      if (err !== rollback) throw err;
    });
  return result as T;
}

describe('listen address', () => {
  it('with no HOST the server listens on this computer only', async () => {
    const { host } = loadConfig({});
    expect(host).toBe('localhost');
    await t.app.listen({ port: 0, host });
    const addresses = t.app.addresses().map((a) => (typeof a === 'string' ? a : a.address));
    expect(addresses.length).toBeGreaterThan(0);
    for (const a of addresses) expect(a).toMatch(/^(127\.\d+\.\d+\.\d+|::1)$/);
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });
});
