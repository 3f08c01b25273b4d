/** Cheap argon2 parameters: the suite hashes many passwords. */
export const TEST_HASH_COST = { memoryCost: 1024, timeCost: 1 };

export const ADMIN = { email: 'admin@test.ua', password: 'admin-pass-2026' };

/** What the seed of a test database depends on: the same for every file that does not change it (tests/api/globalSetup.ts). */
export const TEST_SEED = { adminEmail: ADMIN.email, adminPassword: ADMIN.password, seedDemo: true, passwordHashCost: TEST_HASH_COST };

/** Settings that change what the seed writes: a file that sets one seeds its own database. */
export const SEED_SETTINGS = ['ADMIN_EMAIL', 'ADMIN_PASSWORD', 'SEED_DEMO'];
