import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * For long loops on the main thread (reading a spreadsheet, checking its rows): `await pause()`
 * on every step gives the event loop a turn once `sliceMs` of work has gone by, so that other
 * requests keep being answered while one user's file is processed.
 */
export function createPause(sliceMs = 10): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await nextTurn();
    since = performance.now();
  };
}
