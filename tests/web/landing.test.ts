import { describe, expect, it } from 'vitest';
import { FULL_RULES } from '../../contract/permissions';
import { findRoute } from '../../src/routes';
import { landingPath } from '../../src/pages/landing';

/** Where sign-in lands (/dashboard_old/complex) and home (/) lead: where each person's work is. */
describe('landing', () => {
  const admin = { is_admin: true, tutorial_completed: true, rules: FULL_RULES };
  it('an admin of a clean install: «З чого почати?»', () => {
    expect(landingPath({ ...admin, tutorial_completed: false })).toBe('/setup');
  });
  it('an admin who has set up: the dashboard', () => {
    expect(landingPath(admin)).toBe('/dashboard');
  });
  it('a role that only handles requests (an engineer): the request list', () => {
    const engineer = { is_admin: false, tutorial_completed: true, rules: { complexes: ['view'], service_requests: ['view', 'edit'] } } as const;
    expect(landingPath({ ...engineer, rules: { ...engineer.rules } } as never)).toBe('/requests');
  });
  it('a dispatcher who also keeps residents: the dashboard', () => {
    const rules = { complexes: ['view'], service_requests: ['view', 'create', 'edit'], members: ['view', 'create', 'edit'] };
    expect(landingPath({ is_admin: false, tutorial_completed: true, rules } as never)).toBe('/dashboard');
  });
  it('every landing is a screen, and both entry points lead there for any role', () => {
    for (const path of ['/setup', '/dashboard', '/requests']) expect(findRoute(path), path).toBeDefined();
    expect(findRoute('/')?.area).toBeUndefined();
    expect(findRoute('/dashboard_old/complex')?.area).toBeUndefined();
  });
});
