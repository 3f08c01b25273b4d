/**
 * Reads a Vite build of the SPA: the initial JavaScript (what index.html loads and preloads), the
 * chunks each route of src/routes.tsx loads lazily, and which source modules ended up where.
 * Shared by `npm run bench:spa` and tests/bundle/budget.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { newestSourceMtime } from '../../server/spa.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** One entry of Vite's .vite/manifest.json. */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}

export interface RouteChunks {
  /** Route path as src/routes.tsx writes it (or a label for the legacy redirects). */
  path: string;
  /** The module its lazy import loads, relative to the project root. */
  source: string;
  /** The route's own chunk (the lazy module's chunk). */
  own: FileSize;
  /** Every JS file the lazy import loads that is not in the initial set, the own chunk included. */
  files: FileSize[];
  gzip: number;
  raw: number;
}

export interface BundleReport {
  outDir: string;
  /** JS that index.html loads: the entry script and its static imports (modulepreloads). */
  initial: FileSize[];
  initialCss: FileSize[];
  routes: RouteChunks[];
  /** Every JS file of the build. */
  chunks: FileSize[];
  /** Source modules per JS file (from .vite/chunks.json), when the build wrote it. */
  modules?: Map<string, Record<string, number>>;
}

/** Whether outDir holds a build (with manifest and chunk map) newer than every source of the SPA. */
export function isBuildFresh(outDir: string, root = ROOT): boolean {
  const marker = path.join(outDir, '.vite', 'chunks.json');
  if (!fs.existsSync(marker) || !fs.existsSync(path.join(outDir, '.vite', 'manifest.json'))) return false;
  const built = fs.statSync(marker).mtimeMs;
  return built >= newestSourceMtime(root);
}

/**
 * Builds the SPA with Vite's JS API (vite.config.ts, production mode) into outDir. A test runner
 * sets NODE_ENV=test, which would make Vite bundle React's development build, so NODE_ENV is
 * production for the duration of the build.
 */
export async function buildSpa(outDir: string, root = ROOT): Promise<void> {
  const { build } = await import('vite');
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root,
      configFile: path.join(root, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, manifest: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * Each route of the route table with the module its lazy import loads (read from the source text):
 * src/routes.tsx, every custom page module (src/customPages/<name>/index.ts) and every resource
 * module (src/resources/<name>/index.ts); a declared entity's screen (`entityModule(…, { path })`)
 * loads the generic list. A link page's path is its `TOKEN_PAGES` name.
 */
export function routeSources(root = ROOT): { path: string; source: string }[] {
  const files = [
    path.join('src', 'routes.tsx'),
    ...['customPages', 'resources'].flatMap((folder) => fs.readdirSync(path.join(root, 'src', folder)).map((d) => path.join('src', folder, d, 'index.ts'))),
  ];
  const routes: { path: string; source: string }[] = [];
  for (const file of files.filter((f) => fs.existsSync(path.join(root, f)))) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const dir = path.dirname(file);
    // The options' first `path:` line is the entity's list (later ones may be its menu items or old addresses).
    let entityListed = !text.includes('entityModule(');
    for (const line of text.split('\n')) {
      // Each route with the nearest import after its path: a line may hold several routes.
      for (const m of line.matchAll(/(?:page\(|path:\s*)(?:'([^']+)'|(TOKEN_PAGES\.\w+)).*?import\('\.\/([^']+)'\)/g))
        routes.push({ path: m[1] ?? m[2], source: resolveSource(root, path.join(dir, m[3])) });
      const entity = entityListed ? null : /^\s*path: '([^']+)',$/.exec(line);
      if (entity) {
        entityListed = true;
        routes.push({ path: entity[1], source: 'src/resources/generic/EntityList.tsx' });
      }
    }
    const legacy = /const loadLegacyRedirect = \(\) => import\('\.\/([^']+)'\)/.exec(text);
    if (legacy) routes.push({ path: '(legacy redirects)', source: resolveSource(root, path.join(dir, legacy[1])) });
  }
  return routes;
}

function resolveSource(root: string, spec: string): string {
  for (const candidate of [spec, `${spec}.tsx`, `${spec}.ts`, `${spec}/index.tsx`, `${spec}/index.ts`]) {
    if (fs.existsSync(path.join(root, candidate)) && fs.statSync(path.join(root, candidate)).isFile()) return candidate;
  }
  return spec;
}

export function readManifest(outDir: string): Manifest {
  const file = path.join(outDir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build with build.manifest enabled (vite.config.ts).`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/** The manifest keys a chunk loads: itself and its static imports, transitively. */
export function staticClosure(manifest: Manifest, key: string): string[] {
  const seen = new Set<string>();
  const visit = (k: string) => {
    if (seen.has(k) || !manifest[k]) return;
    seen.add(k);
    for (const i of manifest[k].imports ?? []) visit(i);
  };
  visit(key);
  return [...seen];
}

export function analyzeBuild(outDir: string, root = ROOT): BundleReport {
  const manifest = readManifest(outDir);
  const sizes = new Map<string, FileSize>();
  const size = (file: string): FileSize => {
    let s = sizes.get(file);
    if (!s) {
      const buf = fs.readFileSync(path.join(outDir, file));
      s = { file, raw: buf.length, gzip: zlib.gzipSync(buf, { level: 9 }).length };
      sizes.set(file, s);
    }
    return s;
  };

  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k.endsWith('index.html'));
  if (!entryKey) throw new Error('The manifest has no index.html entry.');
  const initialKeys = staticClosure(manifest, entryKey);
  const initialFiles = new Set(initialKeys.map((k) => manifest[k].file));
  // What index.html really references, in case the manifest and the page ever disagree.
  const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  for (const m of html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/?([^"]+\.js)"/g)) initialFiles.add(m[1]);
  const initialCss = new Set(initialKeys.flatMap((k) => manifest[k].css ?? []));

  let modules: BundleReport['modules'];
  const mapFile = path.join(outDir, '.vite', 'chunks.json');
  if (fs.existsSync(mapFile)) {
    const map = JSON.parse(fs.readFileSync(mapFile, 'utf8')) as { chunks: { file: string; modules: Record<string, number> }[] };
    modules = new Map(map.chunks.map((c) => [c.file, c.modules]));
  }
  // A lazily imported module that some other module also imports statically is not an entry of
  // its own: the bundler puts it into a shared chunk, which the manifest names only by file.
  const keyOf = (source: string): string | undefined => {
    if (manifest[source]) return source;
    const file = [...(modules ?? [])].find(([, mods]) => source in mods)?.[0];
    return file ? Object.keys(manifest).find((k) => manifest[k].file === file) : undefined;
  };

  const routes: RouteChunks[] = routeSources(root).map(({ path: routePath, source }) => {
    const key = keyOf(source);
    if (!key) throw new Error(`Route ${routePath}: ${source} is not in the build manifest (is it still lazily imported?).`);
    const chunk = manifest[key];
    const files = staticClosure(manifest, key)
      .map((k) => manifest[k].file)
      .filter((f) => f.endsWith('.js') && !initialFiles.has(f))
      .map(size);
    return {
      path: routePath,
      source,
      own: size(chunk.file),
      files,
      raw: files.reduce((a, f) => a + f.raw, 0),
      gzip: files.reduce((a, f) => a + f.gzip, 0),
    };
  });

  const assets = path.join(outDir, 'assets');
  const chunks = fs
    .readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => size(`assets/${f}`));
  return {
    outDir,
    initial: [...initialFiles].map(size),
    initialCss: [...initialCss].map(size),
    routes,
    chunks,
    modules,
  };
}

export const total = (files: FileSize[]) => ({
  raw: files.reduce((a, f) => a + f.raw, 0),
  gzip: files.reduce((a, f) => a + f.gzip, 0),
});

/** Source modules of the app (not node_modules) that the initial JS contains. */
export function initialAppModules(report: BundleReport): string[] {
  if (!report.modules) throw new Error('The build has no .vite/chunks.json (chunk-map plugin of vite.config.ts).');
  return report.initial.flatMap((f) => Object.keys(report.modules!.get(f.file) ?? {})).filter((id) => !id.includes('node_modules/'));
}

/** Rendered bytes per npm package (or "app" for own sources) in a set of files, largest first. */
export function packageBreakdown(report: BundleReport, files: FileSize[]): [string, number][] {
  const sums = new Map<string, number>();
  for (const f of files) {
    for (const [id, bytes] of Object.entries(report.modules?.get(f.file) ?? {})) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
      const name = m ? m[1] : 'app';
      sums.set(name, (sums.get(name) ?? 0) + bytes);
    }
  }
  return [...sums].sort((a, b) => b[1] - a[1]);
}

export const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
