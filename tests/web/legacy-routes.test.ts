import { describe, expect, it } from 'vitest';
import { LEGACY_PAGES, legacyPath, legacyTarget } from '../../src/pages/legacy/legacyPages';
import { findRoute, ROUTES } from '../../src/routes';

describe('legacy /dashboard_old addresses', () => {
  it('lead to the current screen for the same thing, case-insensitively', () => {
    const cases: [string, string, string][] = [
      ['/dashboard_old/AddNews', '/News/create', 'articles'],
      ['/dashboard_old/ads', '/Advertisements', 'advertisements'],
      ['/dashboard_old/Complex-contacts', '/Contacts', 'contacts'],
      ['/dashboard_old/News-advices', '/News', 'articles'],
      ['/dashboard_old/notice', '/Announcements', 'announcements'],
    ];
    for (const [legacy, target, area] of cases) {
      const route = findRoute(legacy);
      expect(route, legacy).toBeDefined();
      expect(route!.area).toBe(area);
      const page = LEGACY_PAGES.find((p) => legacyPath(p).toLowerCase() === legacy.toLowerCase())!;
      expect(legacyTarget(page, {})).toBe(target);
    }
  });

  it('keep their own screens for Disconts and Security-cameras, and the complexes page where sign-in lands', () => {
    expect(findRoute('/dashboard_old/Disconts')?.area).toBe('discounts');
    expect(findRoute('/dashboard_old/security-cameras')?.area).toBe('cameras');
    expect(findRoute('/dashboard_old/complex')?.path).toBe('/dashboard_old/complex');
    expect(findRoute('/dashboard_old')?.path).toBe('/dashboard_old');
  });

  it('are listed once each, from the modules, in the order of their paths', () => {
    const paths = LEGACY_PAGES.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual([...paths].sort());
    expect(paths).toEqual(expect.arrayContaining(['Complex', 'Complex-contacts', 'Disconts', 'Notice', 'Security-cameras', 'voting/:id']));
  });

  it('carry the voting id over, and are registered only when the target screen exists', () => {
    const voting = LEGACY_PAGES.find((p) => p.path === 'voting/:id')!;
    expect(legacyTarget(voting, { id: '7' })).toBe('/Voting/7');
    for (const page of LEGACY_PAGES.filter((p) => p.target)) {
      const registered = ROUTES.some((r) => r.path === legacyPath(page));
      const targetExists = Boolean(findRoute(page.target!.replace(/:\w+/g, '1')));
      if (page.path !== 'Complex') expect(registered, page.path).toBe(targetExists);
    }
  });
});
