import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { ADMIN, expect, signIn, test } from './fixtures';

/**
 * Accessibility of the main pages with axe-core (WCAG 2.1 A and AA, and axe's best practices): no
 * serious or critical violation. axe runs in the page through the browser's debugging protocol,
 * so the app's Content-Security-Policy stays as it is.
 */
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

const PAGES = [
  '/setup',
  '/dashboard',
  '/Requests',
  '/Requests/1',
  '/Members',
  '/Complex',
  '/News',
  '/Announcements',
  '/Voting',
  '/Voting/1',
  '/Interview',
  '/Staff',
  '/Roles-departments',
  '/Documents',
  '/Contacts',
  '/User',
  '/dashboard_old/Security-cameras',
];

test.describe('Доступність', () => {
  test('сторінка входу без серйозних порушень', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Увійти' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  // The pages in parts, each a test with its own time limit (one walk over all of them ran close to one limit on a busy machine).
  const PARTS = 3;
  for (let part = 0; part < PARTS; part++) {
    test(`головні сторінки без серйозних і критичних порушень, частина ${part + 1} з ${PARTS}`, async ({ page }) => {
      test.setTimeout(180_000);
      await signIn(page, ADMIN);
      const found: Record<string, string[]> = {};
      for (const path of PAGES.filter((_, i) => i % PARTS === part)) {
        await page.goto(path);
        await expect(page.getByTestId('header-title')).not.toBeEmpty();
        // The list or the record has arrived: no loading indicator left (progress bars of a value stay).
        await expect(page.locator('[role="progressbar"]:not([aria-valuenow])')).toHaveCount(0, { timeout: 15_000 });
        // Nor the grey rows a list draws while its first page takes over a second (their checkboxes have no names).
        await expect(page.locator('.RaPlaceholder-root')).toHaveCount(0, { timeout: 15_000 });
        await page.waitForTimeout(300);
        const violations = await seriousViolations(page);
        if (violations.length) found[path] = violations;
      }
      expect(found).toEqual({});
    });
  }
});
