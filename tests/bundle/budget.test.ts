/**
 * Bundle budget of the SPA (docs/spa-performance.md). Uses dist/ when it is newer than every
 * source of the SPA and has the build manifest and chunk map; otherwise builds once with Vite's
 * JS API into a temporary folder. SPA_BUDGET_OUT_DIR checks a build made elsewhere instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBuild, buildSpa, initialAppModules, isBuildFresh, ROOT, total, type BundleReport } from '../../bench/spa/bundle';

/** Initial JavaScript (index.html's script + modulepreloads), gzip: about 10% above today's figure. */
const INITIAL_JS_GZIP_BUDGET = 320 * 1024;
/** No single JavaScript file above this, gzip (the rich text editor's chunk is the largest lazy one). */
const CHUNK_GZIP_CEILING = 145 * 1024;
/**
 * Modules under src/resources/ that may be in the initial JavaScript: the resource modules
 * (index.ts: resources for <Resource> and lazy routes), their list and shape (index.ts, module.ts,
 * generic/entityModule.ts) and plain API clients without UI (api.ts, e.g. the header's
 * notifications). Screens are never among them.
 */
const ALLOWED_INITIAL_RESOURCE_MODULE = /^src\/resources\/([^/]+\/(index|api)\.ts|index\.ts|module\.ts|generic\/entityModule\.ts)$/;
/** Likewise for the custom pages (src/customPages): their modules and their list, never a screen. */
const ALLOWED_INITIAL_CUSTOM_PAGE_MODULE = /^src\/customPages\/([^/]+\/)?index\.ts$/;

let report: BundleReport;
let tempDir: string | undefined;

beforeAll(async () => {
  let outDir = process.env.SPA_BUDGET_OUT_DIR ?? path.join(ROOT, 'dist');
  if (!process.env.SPA_BUDGET_OUT_DIR && !isBuildFresh(outDir)) {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-bundle-budget-'));
    outDir = tempDir;
    await buildSpa(outDir);
  }
  report = analyzeBuild(outDir);
}, 120_000);

afterAll(() => {
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
});

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

describe('SPA bundle budget', () => {
  it(`initial JavaScript stays under ${kib(INITIAL_JS_GZIP_BUDGET)} gzip`, () => {
    const { gzip } = total(report.initial);
    const largest = [...report.initial]
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 5)
      .map((f) => `${f.file} ${kib(f.gzip)}`);
    expect(gzip, `initial JS is ${kib(gzip)} gzip; largest: ${largest.join(', ')}`).toBeLessThanOrEqual(INITIAL_JS_GZIP_BUDGET);
  });

  it('no resource screen is in the initial JavaScript', () => {
    const offenders = initialAppModules(report).filter((id) => id.startsWith('src/resources/') && !ALLOWED_INITIAL_RESOURCE_MODULE.test(id));
    expect(offenders, 'these modules are loaded eagerly; import screens only through the lazy route table (src/routes.tsx)').toEqual([]);
  });

  it('no custom page is in the initial JavaScript', () => {
    const offenders = initialAppModules(report).filter((id) => id.startsWith('src/customPages/') && !ALLOWED_INITIAL_CUSTOM_PAGE_MODULE.test(id));
    expect(offenders, 'these modules are loaded eagerly; import screens only through the lazy route table (src/routes.tsx)').toEqual([]);
  });

  it('every route of src/routes.tsx loads its screen from a chunk of its own, outside the initial JavaScript', () => {
    expect(report.routes.length).toBeGreaterThan(40);
    const initialFiles = new Set(report.initial.map((f) => f.file));
    const eager = report.routes.filter((r) => initialFiles.has(r.own.file)).map((r) => `${r.path} → ${r.source} (${r.own.file})`);
    expect(eager).toEqual([]);
    const resourceRoutes = report.routes.filter((r) => r.source.startsWith('src/resources/'));
    expect(resourceRoutes.length).toBeGreaterThan(30);
    const customPages = report.routes.filter((r) => r.source.startsWith('src/customPages/')).map((r) => r.path);
    expect(customPages).toEqual(expect.arrayContaining(['/Setup', '/User', '/dashboard/:index?', 'TOKEN_PAGES.vote', 'TOKEN_PAGES.staffChat']));
  });

  it(`no JavaScript file is above ${kib(CHUNK_GZIP_CEILING)} gzip`, () => {
    const big = report.chunks.filter((c) => c.gzip > CHUNK_GZIP_CEILING).map((c) => `${c.file} ${kib(c.gzip)}`);
    expect(big).toEqual([]);
  });
});
