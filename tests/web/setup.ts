// Shared setup for the vitest "web" project (jsdom).
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// vitest globals are off, so Testing Library cannot register its own
// auto-cleanup: unmount rendered trees after each test.
afterEach(() => {
  cleanup();
});
