import type { APIRequestContext, Page, Request } from '@playwright/test';
import { foreignFragments } from '../tests/fixtures/ukrainianText';
import { ADMIN, apiToken, expect, signInForm, test } from './fixtures';
import { loadRouteTable, type ScreenRoute } from './routeTable';

/**
 * English Chrome in Kyiv: every route of the SPA's own route table (src/routes.tsx) is opened —
 * record pages with a real record, create forms, custom pages, link pages, the sign-in pages —
 * with its tabs and its «Додати» dialog, and its visible text, accessible names, placeholders,
 * titles and input values must hold no English word, no decimal point and no American date
 * (tests/fixtures/ukrainianText.ts, with its short allow-list).
 */
test.use({ locale: 'en-US', timezoneId: 'Europe/Kyiv' });

/** Real records of the demo data for the routes' parameters. */
interface Records {
  ids: Record<string, number>;
  voteToken: string;
  chatToken: string;
}

async function records(request: APIRequestContext): Promise<Records> {
  const headers = { authorization: `Bearer ${await apiToken(request)}` };
  const get = async (path: string) => {
    const res = await request.get(`/api/admin${path}`, { headers });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
    return res.json();
  };
  /** The rows of a list answer, whichever wrapper it uses (docs/architecture.md, "List answers"). */
  const rows = (body: { main_data?: { data: unknown[] }; data?: unknown[] | { data: unknown[] } }) =>
    (body.main_data?.data ?? (Array.isArray(body.data) ? body.data : body.data?.data) ?? []) as { id: number; performer_id?: number | null }[];
  const first = async (path: string) => {
    const [row] = rows(await get(`${path}?per_page=1`));
    expect(row, `a record of ${path}`).toBeDefined();
    return row.id;
  };
  const ids: Record<string, number> = {
    complex: await first('/complexes'),
    staff: await first('/staff'),
    members: await first('/members'),
    news: await first('/articles'),
    announcements: await first('/announcements'),
    events: await first('/events'),
    advertisements: await first('/advertisement'),
    contacts: await first('/contacts'),
    voting: await first('/voting'),
    interview: await first('/interview'),
  };
  const withPerformer = rows(await get('/service_request?per_page=100')).find((r) => r.performer_id);
  expect(withPerformer, 'a request with a performer').toBeDefined();
  ids.requests = withPerformer!.id;
  const link = await request.post(`/api/admin/service_request/${ids.requests}/chat_links`, { headers, data: {} });
  expect(link.status(), await link.text()).toBe(200);
  const deeplink = (await get(`/voting/${ids.voting}/deeplink`)).deeplink as string;
  return { ids, voteToken: deeplink.split('/Vote/')[1], chatToken: (await link.json()).data.token };
}

/** Routes whose optional parameter has values worth a visit of their own. */
const OPTIONAL_VALUES: Record<string, string[]> = {
  '/Realty/:type?': ['parking', 'storage'],
};

/**
 * The addresses a route is walked at, every required parameter filled with a real record; a route
 * with an optional one also without it, and with a record or the listed values. A string says
 * which parameter the demo data cannot fill.
 */
function addresses(route: ScreenRoute, r: Records): string[] | string {
  const segments = route.path.split('/').filter(Boolean);
  // The record a parameter names is the one its path starts with (`/dashboard_old/voting/:id`: a meeting).
  const owner = segments.find((s) => !s.startsWith(':') && s !== 'dashboard_old')?.toLowerCase() ?? '';
  const optional = segments.find((s) => s.startsWith(':') && s.endsWith('?'))?.replace(/[:?]/g, '');
  const variants: (string | undefined)[] = [undefined];
  if (optional) variants.push(...(optional === 'id' || optional === 'token' ? ['record'] : (OPTIONAL_VALUES[route.path] ?? [])));
  const out: string[] = [];
  for (const variant of variants) {
    const parts: string[] = [];
    for (const s of segments) {
      if (!s.startsWith(':')) parts.push(s);
      else if (s.endsWith('?') && variant === undefined) continue;
      else if (s.endsWith('?') && variant !== 'record') parts.push(variant!);
      else if (s.startsWith(':token')) parts.push(route.path.startsWith('/Vote') ? r.voteToken : r.chatToken);
      else if (r.ids[owner] !== undefined) parts.push(String(r.ids[owner]));
      else return `${route.path}: no record for ${s}`;
    }
    out.push(`/${parts.join('/')}`);
  }
  return out;
}

interface Found {
  where: string;
  text: string;
}

/** Everything a user reads or hears on the page now: visible text, names, placeholders, titles, input values. */
function collect(): Found[] {
  const out: Found[] = [];
  const shown = (el: Element) => {
    const style = getComputedStyle(el);
    return style.display !== 'none' && style.visibility !== 'hidden' && el.getClientRects().length > 0;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent?.trim();
    if (!el || !text || el.closest('script, style, noscript')) continue;
    // An icon's title is its accessible name, though the title element itself is never laid out.
    if (el.closest('svg title') ? shown(el.closest('svg')!) : shown(el)) out.push({ where: 'text', text });
  }
  for (const el of document.querySelectorAll('[aria-label], [placeholder], [title], [alt], [aria-valuetext]')) {
    if (el.closest('[aria-hidden="true"]') && !el.matches('input, textarea')) continue;
    for (const attr of ['aria-label', 'placeholder', 'title', 'alt', 'aria-valuetext']) {
      const value = el.getAttribute(attr);
      if (value) out.push({ where: attr, text: value });
    }
  }
  for (const el of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
    if (!el.value || ['hidden', 'password', 'checkbox', 'radio', 'file'].includes(el.type) || el.getAttribute('aria-hidden') === 'true' || !shown(el)) continue;
    out.push({ where: 'value', text: el.value });
  }
  return out;
}

/**
 * Requests in flight on a page (the live-updates stream aside): a screen is read once they have
 * stopped for a moment, which is quicker and surer than waiting for spinners to go.
 */
class Traffic {
  private inflight = new Set<Request>();
  private changed = Date.now();

  constructor(page: Page) {
    page.on('request', (r) => {
      if (r.resourceType() === 'eventsource') return;
      this.inflight.add(r);
      this.changed = Date.now();
    });
    const done = (r: Request) => {
      if (this.inflight.delete(r)) this.changed = Date.now();
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
  }

  /**
   * `quiet`: how long nothing may have been asked; after a change of address longer than React's
   * 300 ms pause before it shows a screen whose code has just come.
   */
  async settled(page: Page, quiet: number) {
    const busy = () =>
      page.evaluate(() =>
        Boolean(document.querySelector('.app-loading-bar-loading, .MuiLinearProgress-indeterminate, .MuiCircularProgress-indeterminate, .MuiSkeleton-root')),
      );
    await expect
      .poll(async () => this.inflight.size === 0 && Date.now() - this.changed > quiet && !(await busy()), { timeout: 15_000, intervals: [50] })
      .toBe(true);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }
}

/** Opens an address inside the app as a link would (the router follows it), without loading the app again. */
async function open(page: Page, path: string) {
  if (page.url() === 'about:blank') await page.goto(path);
  else
    await page.evaluate((to) => {
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
}

class Findings {
  readonly wrong: string[] = [];
  readonly seen = new Set<string>();
  visited = 0;

  private readonly traffic = new WeakMap<Page, Traffic>();

  /** Starts counting a page's requests: before its first address. */
  watch(page: Page) {
    this.traffic.set(page, new Traffic(page));
    return page;
  }

  async scan(page: Page, label: string, quiet = 150) {
    await this.traffic.get(page)!.settled(page, quiet);
    this.visited++;
    let texts = await page.evaluate(collect);
    // A screen caught before it rendered would pass for nothing: a screen whose code is still
    // loading (a route's chunk, on a busy machine) gets up to 10 s to show its words.
    for (const until = Date.now() + 10_000; texts.length < 3 && Date.now() < until;) {
      await page.waitForTimeout(100);
      texts = await page.evaluate(collect);
    }
    if (texts.length < 3) this.wrong.push(`${label}: almost nothing to read (${texts.map((t) => t.text).join(' | ')})`);
    for (const { where, text } of texts) {
      const found = foreignFragments(text);
      const key = `${where}|${text}`;
      if (found.length === 0 || this.seen.has(key)) continue;
      this.seen.add(key);
      this.wrong.push(`${label}: ${found.map((f) => `«${f}»`).join(', ')} in ${where} "${text.slice(0, 120)}"`);
    }
  }

  /** The page, then each of its other tabs, then its «Додати» dialog. */
  async walk(page: Page, path: string) {
    await open(page, path);
    await this.scan(page, path, 350);
    if (await page.locator('[data-status]').count())
      this.wrong.push(`${path}: an error page (${await page.locator('[data-status]').getAttribute('data-status')})`);
    const tabs = page.getByRole('tab');
    for (let i = 0, n = Math.min(await tabs.count(), 6); i < n && i < (await tabs.count()); i++) {
      const tab = tabs.nth(i);
      if ((await tab.getAttribute('aria-selected')) === 'true' || !(await tab.isVisible()) || !(await tab.isEnabled())) continue;
      const name = (await tab.textContent())?.trim();
      await tab.click();
      await this.scan(page, `${path} «${name}»`);
    }
    const add = page.getByRole('button', { name: /^(Додати|Новий|Нова|Нове)\b/ }).first();
    if (await add.isVisible().catch(() => false)) {
      const at = page.url();
      await add.click();
      const dialog = page.getByRole('dialog');
      if (await dialog.isVisible({ timeout: 2000 }).catch(() => false)) {
        await this.scan(page, `${path} «${(await add.textContent())?.trim()}»`);
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
      } else if (page.url() !== at) await this.scan(page, `${path} → ${new URL(page.url()).pathname}`);
    }
  }
}

/** The screens to walk: every route of the route table with its parameters filled from real records. */
async function plan(page: Page) {
  const routes = await loadRouteTable();
  expect(routes.length).toBeGreaterThan(50);
  const data = await records(page.request);
  const planned = routes.map((route) => ({ route, paths: addresses(route, data) }));
  const unfilled = planned.flatMap(({ paths }) => (typeof paths === 'string' ? [paths] : []));
  expect(unfilled, 'every route parameter is filled with a real record').toEqual([]);
  const paths = (inside: boolean) => planned.filter((p) => (p.route.layout === 'default') === inside).flatMap((p) => p.paths as string[]);
  return { outside: ['/login', ...paths(false)], inside: paths(true) };
}

/** The signed-in screens are walked in this many parts, each a test with its own time limit. */
const PARTS = 4;

test('every route in English Chrome shows only Ukrainian words, decimal commas and Ukrainian dates: signed out', async ({ page, browser, baseURL }) => {
  const { outside } = await plan(page);
  const findings = new Findings();
  // The sign-in pages and the pages opened from a link.
  const context = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'Europe/Kyiv' });
  const guest = findings.watch(await context.newPage());
  for (const path of outside) await findings.walk(guest, path);
  await context.close();
  expect(findings.wrong).toEqual([]);
  expect(findings.visited).toBeGreaterThanOrEqual(outside.length);
});

for (let part = 0; part < PARTS; part++) {
  test(`every route in English Chrome shows only Ukrainian words, decimal commas and Ukrainian dates: signed in, part ${part + 1} of ${PARTS}`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const started = Date.now();
    // The admin, who may open every screen; the last part also opens a missing record and a missing page.
    const screens = (await plan(page)).inside.filter((_, i) => i % PARTS === part);
    const findings = new Findings();
    findings.watch(page);
    await signInForm(page, ADMIN);
    for (const path of screens) await findings.walk(page, path);
    if (part === PARTS - 1) {
      for (const path of ['/Members/999999', '/no-such-page']) {
        await open(page, path);
        await findings.scan(page, path, 350);
      }
    }
    expect(findings.wrong).toEqual([]);
    expect(screens.length).toBeGreaterThan(10);
    expect(findings.visited).toBeGreaterThanOrEqual(screens.length);
    console.log(`part ${part + 1}: walked ${findings.visited} screens in ${Math.round((Date.now() - started) / 1000)} s`);
  });
}
