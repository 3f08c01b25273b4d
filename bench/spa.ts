/**
 * `npm run bench:spa`: the SPA's loading cost.
 *  1. Builds the SPA into dist/ (BENCH_SKIP_BUILD=1 reuses the existing build).
 *  2. Prints the initial JavaScript (index.html's script and its modulepreloads, gzip) and, for
 *     each route of src/routes.tsx, the chunks its lazy import loads on top of that.
 *  3. Starts the app and runs Lighthouse (performance) on the login page and, signed in as the
 *     demo admin, on the members list: score, FCP, LCP, TBT, CLS.
 *  4. Signed in as the demo admin in Chromium: the time from a click in the sidebar to the rows of
 *     the requests and members lists, cold (a fresh profile) and warm (back to a list just seen),
 *     median of BENCH_CLICK_RUNS (default 5) runs.
 * BENCH_LIGHTHOUSE=0 skips step 3, BENCH_CLICKS=0 step 4; BENCH_LH_PRESETS=desktop,mobile (default) chooses Lighthouse's
 * presets; BENCH_LH_RUNS (default 1) runs each page several times and prints medians;
 * CHROMIUM_PATH (default /usr/bin/chromium) names the browser, which is never downloaded.
 */
import os from 'node:os';
import path from 'node:path';
import { analyzeBuild, buildSpa, isBuildFresh, kib, packageBreakdown, readManifest, ROOT, staticClosure, total, type RouteChunks } from './spa/bundle.ts';
import { startApp } from './spa/app.ts';
import { launchLighthouseBrowser, type PageMetrics, type Preset } from './spa/lighthouse.ts';
import { measureClicks } from './spa/clicks.ts';

const ADMIN = { email: 'admin@demo.ua', password: 'demo-admin-2026' };
/** Guided tours cover the screen on a first visit; the measured user has seen them. */
const TOURS = ['requests', 'members', 'news', 'voting'];

function table(head: string[], rows: (string | number)[][], right: number[] = []) {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (right.includes(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log(line(cells[0]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
}

/** What the lazily loaded layout adds to the initial JavaScript. */
function layoutChunks(report: ReturnType<typeof analyzeBuild>) {
  const manifest = readManifest(report.outDir);
  if (!manifest['src/layout/Layout.tsx']) return undefined;
  const initial = new Set(report.initial.map((f) => f.file));
  const files = report.chunks.filter((c) => !initial.has(c.file) && staticClosure(manifest, 'src/layout/Layout.tsx').some((k) => manifest[k].file === c.file));
  return { files: files.length, gzip: total(files).gzip };
}

/** Per-metric median of several runs of one page. */
function median(all: PageMetrics[]): PageMetrics {
  const mid = <T>(values: T[], by: (v: T) => number) => [...values].sort((a, b) => by(a) - by(b))[Math.floor(values.length / 2)];
  const pick = (key: keyof PageMetrics) => mid(all, (m) => m[key] as number)[key] as number;
  return {
    ...all[0],
    score: pick('score'),
    fcpMs: pick('fcpMs'),
    lcpMs: pick('lcpMs'),
    tbtMs: pick('tbtMs'),
    cls: pick('cls'),
    scriptBytes: pick('scriptBytes'),
    scriptRequests: pick('scriptRequests'),
  };
}

async function main() {
  const outDir = path.join(ROOT, 'dist');
  if (process.env.BENCH_SKIP_BUILD === '1') {
    console.log(`BENCH_SKIP_BUILD=1: using dist/ as it is${isBuildFresh(outDir) ? '' : ' (older than the sources, or built without the chunk map)'}`);
  } else {
    const started = Date.now();
    await buildSpa(outDir);
    console.log(`Built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  const report = analyzeBuild(outDir);
  const initial = total(report.initial);
  const css = total(report.initialCss);
  console.log(`\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}`);
  console.log(
    `\nInitial JavaScript (index.html's script + modulepreloads): ${report.initial.length} files, ${kib(initial.raw)} raw, ${kib(initial.gzip)} gzip`,
  );
  console.log(`Initial CSS: ${kib(css.raw)} raw, ${kib(css.gzip)} gzip`);
  console.log(
    `All JavaScript: ${report.chunks.length} files, ${kib(total(report.chunks).gzip)} gzip; ` +
      `largest chunk ${[...report.chunks].sort((a, b) => b.gzip - a.gzip)[0]?.file} (${kib(Math.max(...report.chunks.map((c) => c.gzip)))} gzip)`,
  );
  if (report.modules) {
    console.log('\nInitial JavaScript by package (rendered size before minification):');
    table(
      ['package', 'size'],
      packageBreakdown(report, report.initial)
        .slice(0, 12)
        .map(([name, bytes]) => [name, kib(bytes)]),
      [1],
    );
    console.log('\nInitial chunks (gzip):');
    table(
      ['file', 'raw', 'gzip'],
      [...report.initial].sort((a, b) => b.gzip - a.gzip).map((f) => [f.file, kib(f.raw), kib(f.gzip)]),
      [1, 2],
    );
  }

  console.log('\nPer-route chunks (what the lazy import loads beyond the initial JavaScript; gzip):');
  const row = (r: RouteChunks) => [r.path, r.source.replace(/^src\//, ''), kib(r.own.gzip), r.files.length, kib(r.gzip)];
  table(['route', 'module', 'own chunk', 'files', 'total'], report.routes.map(row), [2, 3, 4]);

  const layout = layoutChunks(report);
  if (layout)
    console.log(`\nSigned-in layout (src/layout/Layout.tsx, loaded once with the first signed-in screen): ${layout.files} files, ${kib(layout.gzip)} gzip`);

  if (process.env.BENCH_LIGHTHOUSE !== '0') await lighthouseStep();
  if (process.env.BENCH_CLICKS !== '0') await clicksStep();
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function clicksStep() {
  const runs = Math.max(1, Number(process.env.BENCH_CLICK_RUNS ?? 5));
  const app = await startApp();
  let timings;
  try {
    timings = await measureClicks(
      app.url,
      ADMIN,
      TOURS,
      [
        { label: 'requests', group: 'Заявки', item: 'Перелік заявок' },
        { label: 'members', item: 'Мешканці' },
      ],
      runs,
      CHROMIUM,
    );
  } finally {
    await app.stop();
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`
Sidebar click → the list's first row, demo data, desktop Chromium (median of ${runs}; min–max):`);
  table(
    ['list', 'cold', 'warm'],
    timings.map((t) => [
      t.label,
      `${med(t.coldMs)} ms (${Math.min(...t.coldMs)}–${Math.max(...t.coldMs)})`,
      `${med(t.warmMs)} ms (${Math.min(...t.warmMs)}–${Math.max(...t.warmMs)})`,
    ]),
    [1, 2],
  );
}

async function lighthouseStep() {
  const presets = (process.env.BENCH_LH_PRESETS ?? 'desktop,mobile').split(',').map((p) => p.trim()) as Preset[];
  const app = await startApp();
  const browser = await launchLighthouseBrowser(CHROMIUM);
  const runs = Math.max(1, Number(process.env.BENCH_LH_RUNS ?? 1));
  const results: PageMetrics[] = [];
  const measure = async (url: string, label: string, preset: Preset) => {
    const all: PageMetrics[] = [];
    for (let i = 0; i < runs; i++) all.push(await browser.measure(url, label, preset));
    results.push(median(all));
  };
  try {
    // The login page first, while the browser has no session (a session redirects it away).
    for (const preset of presets) await measure(`${app.url}/login`, 'login', preset);
    await browser.signIn(app.url, ADMIN.email, ADMIN.password, TOURS);
    for (const preset of presets) await measure(`${app.url}/Members`, 'members list', preset);
  } finally {
    await browser.close();
    await app.stop();
  }
  console.log(
    `\nLighthouse, performance (cold cache${runs > 1 ? `, median of ${runs} runs` : ''}; ` +
      'desktop = no CPU slowdown, fast network; mobile = 4× CPU slowdown, slow 4G; simulated):',
  );
  table(
    ['page', 'preset', 'score', 'FCP', 'LCP', 'TBT', 'CLS', 'scripts', 'script bytes'],
    results.map((r) => [
      r.page,
      r.preset,
      r.score,
      `${Math.round(r.fcpMs)} ms`,
      `${Math.round(r.lcpMs)} ms`,
      `${Math.round(r.tbtMs)} ms`,
      r.cls.toFixed(3),
      r.scriptRequests,
      kib(r.scriptBytes),
    ]),
    [2, 3, 4, 5, 6, 7, 8],
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
