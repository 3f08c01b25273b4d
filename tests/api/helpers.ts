import crypto from 'node:crypto';
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect, inject } from 'vitest';
import type { Rules } from '../../contract/permissions.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig, type AppConfig } from '../../server/config.ts';
import { openDatabase, type Database, type Db } from '../../server/db/index.ts';
import { DEMO_STAFF, seedIfEmpty } from '../../server/seed.ts';
import { complexes, organizations, staffRoles, userComplexes, users } from '../../server/db/schema.ts';
import { hashPassword } from '../../server/lib/secrets.ts';
import { todayKyiv } from '../../server/modules/voting/meeting.ts';
import { databaseUrl, TEST_DB_PREFIX, withAdminClient } from './pg.ts';
import { ADMIN, SEED_SETTINGS, TEST_HASH_COST, TEST_LINK_SECRET } from './seedConfig.ts';

export const API = '/api/admin';

export { ADMIN, TEST_HASH_COST };
/** The seeded dispatcher: view-only on complexes, assigned to the first two demo complexes. */
export const STAFF = DEMO_STAFF;

let counter = 0;
/** A short string unique within the run (process id + counter + randomness). */
export function uid(): string {
  counter += 1;
  return `${process.pid.toString(36)}${counter.toString(36)}${crypto.randomBytes(3).toString('hex')}`;
}

let ipCounter = 0;
/** A fresh client address, so that per-IP sign-in throttling never leaks between tests. */
export function nextIp(): string {
  ipCounter += 1;
  return `10.${(process.pid >> 8) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Raw payload sent as-is (with `contentType`, default application/json). */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** Client address; a fresh one per call unless given. */
  ip?: string;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  db: Db;
  driver: Database['driver'];
  config: AppConfig;
  /** The organization the seed created (admin, dispatcher and the five demo complexes). */
  organizationId: number;
  call(method: Method, url: string, opts?: CallOptions): Promise<LightMyRequestResponse>;
  /** Signs in and returns the bearer token; fails the test on anything but 200. */
  login(email: string, password: string): Promise<string>;
  close(): Promise<void>;
}

export interface SetupOptions {
  /** Extra environment for loadConfig. */
  env?: Record<string, string>;
  /** Routes added before the app is ready (e.g. one that fails on purpose). */
  extraRoutes?: (app: Awaited<ReturnType<typeof buildApp>>) => unknown;
  /** Signature providers for co-owners' electronic ballots. */
  signatureProviders?: Parameters<typeof buildApp>[0]['signatureProviders'];
}

/**
 * Opens this file's own database: a copy of a template made by globalSetup — migrated, with the
 * address reference, and `seeded` with the demo data of the default test settings.
 */
async function openFileDatabase(seeded: boolean): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const file = inject(seeded ? 'pgliteSeeded' : 'pgliteTemplate');
    const database = await openDatabase({ kind: 'pglite', loadDataDir: new Blob([fs.readFileSync(file)]) }, { migrate: false });
    return { database, drop: async () => {} };
  }
  const template = inject(seeded ? 'pgSeeded' : 'pgTemplate');
  const suffix = inject('pgTemplate').replace(/^zhk_tpl_/, '');
  const name = `${TEST_DB_PREFIX}${suffix}_${crypto.randomBytes(4).toString('hex')}`;
  await withAdminClient(url, async (client) => {
    // Two files may copy the template at the same moment; PostgreSQL then sometimes reports it busy.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (err) {
        if (attempt >= 20 || (err as { code?: string }).code !== '55006') throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl(url, name) }, { migrate: false });
  return {
    database,
    drop: () => withAdminClient(url, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

/**
 * One application and one database for a whole test file (call it in beforeAll): seeded with
 * the demo organization, an admin ADMIN and the demo dispatcher STAFF.
 */
export async function setupApp(opts: SetupOptions = {}): Promise<TestApp> {
  const { database, drop } = await openFileDatabase(!SEED_SETTINGS.some((k) => opts.env && k in opts.env));
  const config: AppConfig = {
    ...loadConfig({
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      PUBLIC_URL: 'https://zhk.test',
      SEED_DEMO: '1',
      LINK_SECRET: TEST_LINK_SECRET,
      ...opts.env,
    }),
    passwordHashCost: TEST_HASH_COST,
  };
  await seedIfEmpty(database.db, config);
  const app = await buildApp({ config, database, signatureProviders: opts.signatureProviders });
  opts.extraRoutes?.(app);
  await app.ready();
  const [org] = await database.db.select({ id: users.organizationId }).from(users).where(eq(users.email, config.adminEmail));

  const call: TestApp['call'] = (method, url, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let payload: string | Buffer | undefined;
    if (o.raw !== undefined) {
      payload = o.raw;
      headers['content-type'] ??= o.contentType ?? 'application/json';
    } else if (o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    return app.inject({ method, url, headers, payload, remoteAddress: o.ip ?? nextIp() });
  };

  return {
    app,
    db: database.db,
    driver: database.driver,
    config,
    organizationId: org.id,
    call,
    async login(email, password) {
      const res = await call('POST', `${API}/login`, { body: { email, password } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().access_token as string;
    },
    async close() {
      await app.close();
      await database.close();
      await drop();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Builders: each returns a fresh row with unique data, so tests need no reset between them.

export async function createOrganization(db: Db, overrides: Partial<typeof organizations.$inferInsert> = {}) {
  const [org] = await db
    .insert(organizations)
    .values({ name: `Org ${uid()}`, ...overrides })
    .returning();
  return org;
}

export async function createRole(db: Db, organizationId: number, permissions: Rules, name = `Role ${uid()}`) {
  const [role] = await db.insert(staffRoles).values({ organizationId, name, permissions }).returning();
  return role;
}

export interface UserOverrides {
  organizationId: number;
  email?: string;
  password?: string;
  name?: string;
  phone?: string | null;
  isAdmin?: boolean;
  /** Creates a role with these permissions for a staff user. */
  permissions?: Rules;
  roleId?: number | null;
  /** Complexes a staff user works in. */
  complexIds?: number[];
  mustChangePassword?: boolean;
  tutorialCompleted?: boolean;
}

export async function createUser(db: Db, overrides: UserOverrides) {
  const password = overrides.password ?? `pass-${uid()}`;
  const email = (overrides.email ?? `user-${uid()}@test.ua`).toLowerCase();
  let roleId = overrides.roleId ?? null;
  if (overrides.permissions) roleId = (await createRole(db, overrides.organizationId, overrides.permissions)).id;
  const [user] = await db
    .insert(users)
    .values({
      organizationId: overrides.organizationId,
      name: overrides.name ?? `Користувач ${uid()}`,
      email,
      phone: overrides.phone ?? null,
      passwordHash: await hashPassword(password, TEST_HASH_COST),
      isAdmin: overrides.isAdmin ?? false,
      roleId,
      mustChangePassword: overrides.mustChangePassword ?? false,
      tutorialCompleted: overrides.tutorialCompleted ?? false,
    })
    .returning();
  if (overrides.complexIds?.length) {
    await db.insert(userComplexes).values(overrides.complexIds.map((complexId) => ({ userId: user.id, complexId })));
  }
  return { ...user, password };
}

export async function createComplex(db: Db, overrides: Partial<typeof complexes.$inferInsert> & { organizationId: number }) {
  const [row] = await db
    .insert(complexes)
    .values({ name: `ЖК ${uid()}`, city: 'Київ', address: 'вул. Тестова, 1', description: '', ...overrides })
    .returning();
  return row;
}

/** Asserts the common error shape: a Ukrainian `message` and nothing that looks like internals. */
export function expectErrorBody(res: LightMyRequestResponse, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body).not.toHaveProperty('stack');
  expect(body).not.toHaveProperty('code');
  expect(res.body).not.toMatch(/at .+\.(ts|js):\d+/);
  return body as { message: string; errors?: Record<string, string[]> };
}

/** Cyrillic letters: messages meant for the people using the panel are in Ukrainian. */
export const UKRAINIAN = /[А-Яа-яІіЇїЄєҐґ]/;

/** Asserts a 422 with `errors[field]` a non-empty array of Ukrainian strings. */
export function expectFieldError(res: LightMyRequestResponse, field: string) {
  const body = expectErrorBody(res, 422);
  expect(body.errors, res.body).toBeDefined();
  const messages = body.errors![field];
  expect(messages, `errors.${field} in ${res.body}`).toBeInstanceOf(Array);
  expect(messages.length).toBeGreaterThan(0);
  for (const m of messages) expect(m).toMatch(UKRAINIAN);
  expect(body.message).toMatch(UKRAINIAN);
  return body;
}

/** A valid body of `POST /voting`: a meeting of `houseId` today, with one question decided by a majority. */
export function meetingBody(houseId: number, overrides: Record<string, unknown> = {}) {
  return {
    house_id: houseId,
    title: 'Ремонт ліфта',
    regime: 'osbb',
    initiator: 'Правління ОСББ',
    meeting_date: todayKyiv(),
    meeting_time: '19:00',
    place: 'Хол першого під’їзду',
    video_tools: '',
    chair: 'Голова правління',
    questions: [{ title: 'Замінити ліфт у першому під’їзді.', threshold: 'majority' }],
    ...overrides,
  };
}
