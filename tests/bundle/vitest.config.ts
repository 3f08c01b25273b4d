import { defineConfig } from 'vitest/config';

/**
 * The SPA's bundle budget (docs/spa-performance.md): builds the SPA once when dist/ is not fresh
 * (about 20 s on two cores), so it is a script of its own, not part of `npm test`.
 */
export default defineConfig({
  test: {
    name: 'bundle',
    environment: 'node',
    include: ['tests/bundle/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
