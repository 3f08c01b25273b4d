// Shared setup for the vitest "web" project (jsdom).
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy… and waitFor give up after this long. The default second is too short on a busy
// two-core machine running several test files at once; a screen that never shows still fails.
configure({ asyncUtilTimeout: 5000 });

// vitest globals are off, so Testing Library cannot register its own
// auto-cleanup: unmount rendered trees after each test.
afterEach(() => {
  cleanup();
});
