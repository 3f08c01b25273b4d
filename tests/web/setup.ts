// Shared setup for the vitest "web" project (jsdom).
import { afterAll, afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy… and waitFor give up after this long. The default second is too short on a busy
// two-core machine running several test files at once; a screen that never shows still fails.
configure({ asyncUtilTimeout: 5000 });

// vitest globals are off, so Testing Library cannot register its own
// auto-cleanup: unmount rendered trees after each test.
afterEach(() => {
  cleanup();
});

// Test files share one page and one module cache (vitest.config.ts): each starts with empty
// storage (react-admin keeps the locale and list settings there) and leaves no stubbed globals.
if (typeof localStorage !== 'undefined') {
  localStorage.clear();
  sessionStorage.clear();
}
afterAll(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
