import path from 'node:path';

/** Cheap argon2 parameters: the suite hashes many passwords. */
export const TEST_HASH_COST = { memoryCost: 1024, timeCost: 1 };

export const ADMIN = { email: 'admin@test.ua', password: 'admin-pass-2026' };

/** The suite's LINK_SECRET (voting links are sealed with it), so that no test writes a key file into ./data. */
export const TEST_LINK_SECRET = 'test-suite-link-secret-not-a-real-one-2026';

/** What the seed of a test database depends on: the same for every file that does not change it (tests/api/globalSetup.ts). */
export const TEST_SEED = {
  adminEmail: ADMIN.email,
  adminPassword: ADMIN.password,
  seedDemo: true,
  passwordHashCost: TEST_HASH_COST,
  linkSecret: TEST_LINK_SECRET,
  dataDir: path.resolve('data'),
};

/** Settings that change what the seed writes: a file that sets one seeds its own database. */
export const SEED_SETTINGS = ['ADMIN_EMAIL', 'ADMIN_PASSWORD', 'SEED_DEMO', 'LINK_SECRET'];
