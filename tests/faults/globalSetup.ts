import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer, tempDir } from './helpers.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A DATA_DIR after a first start with the demo seed; test files copy it. */
    faultsTemplateDir: string;
  }
}

/** One first start (reference import, demo seed) for the whole suite: ~20 s instead of one per file. */
export default async function setup(project: TestProject) {
  const dir = tempDir('template');
  const server = await startServer({ dataDir: dir });
  await server.stop();
  if (!fs.existsSync(path.join(dir, 'pgdata', 'PG_VERSION'))) throw new Error(`template DATA_DIR was not created:\n${server.output()}`);
  project.provide('faultsTemplateDir', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
