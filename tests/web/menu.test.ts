import { describe, expect, it } from 'vitest';
import { groupOf, isActive, menuFor, visibleMenu, type MenuEntry } from '../../src/layout/menuItems';
import { findRoute } from '../../src/lib/routing';
import { MODULE_MENU, MODULE_ROUTES } from '../../src/modules';

const all = () => true;
const labels = (entries: MenuEntry[]) => entries.map((e) => (e.kind === 'group' ? `${e.label}[${e.items.map((i) => i.label).join(',')}]` : e.label));

describe('sidebar menu rules', () => {
  it('lists the spec groups in order when every screen exists', () => {
    const menu = visibleMenu(menuFor('main'), { tutorialCompleted: false, can: all, routeExists: () => true });
    expect(labels(menu)).toEqual([
      'app.menu.setup',
      'app.menu.dashboard',
      'app.menu.requests[app.menu.requests_list,app.menu.request_types]',
      'app.menu.community[app.menu.news,app.menu.announcements,app.menu.interview,app.menu.voting]',
      'app.menu.realty[app.menu.houses,app.menu.parkings,app.menu.storages]',
      'app.menu.members',
      'app.menu.documents',
      'app.menu.contacts',
      'app.menu.staff[app.menu.staff_roles,app.menu.staff_list]',
    ]);
  });

  it('shows "З чого почати?" only while the tutorial is not complete', () => {
    const done = visibleMenu(menuFor('main'), { tutorialCompleted: true, can: all, routeExists: () => true });
    expect(labels(done)).not.toContain('app.menu.setup');
  });

  it('alternative edition: events in the community group and one plain "Будинки" item', () => {
    const menu = visibleMenu(menuFor('alt'), { tutorialCompleted: true, can: all, routeExists: () => true });
    expect(labels(menu)).toContain('app.menu.community[app.menu.news,app.menu.announcements,app.menu.interview,app.menu.voting,app.menu.events]');
    expect(menu.find((e) => e.label === 'app.menu.houses')).toMatchObject({ kind: 'link', path: '/complex' });
    expect(menu.some((e) => e.label === 'app.menu.realty')).toBe(false);
    const main = visibleMenu(menuFor('main'), { tutorialCompleted: true, can: all, routeExists: () => true });
    expect(JSON.stringify(main)).not.toContain('app.menu.events');
  });

  it('leaves out items without a screen and groups left empty', () => {
    const menu = visibleMenu(menuFor('main'), { tutorialCompleted: false, can: all, routeExists: (p) => p === '/complex' });
    expect(labels(menu)).toEqual(['app.menu.realty[app.menu.houses]']);
  });

  it('leaves out what the role may not view', () => {
    const menu = visibleMenu(menuFor('main'), { tutorialCompleted: true, can: (a) => a === 'members', routeExists: () => true });
    // «Огляд» is everyone's: the dashboard shows each part by the role's rights.
    expect(labels(menu)).toEqual(['app.menu.dashboard', 'app.menu.members']);
  });

  it('takes its items from the modules, each leading to a screen of theirs', () => {
    const paths = menuFor('main')
      .flatMap((e) => (e.kind === 'group' ? e.items : [e]))
      .map((l) => l.path);
    expect(paths).toEqual(expect.arrayContaining(MODULE_MENU.filter((i) => i.edition !== 'alt').map((i) => i.path)));
    for (const item of MODULE_MENU) expect(findRoute(item.path, MODULE_ROUTES), item.path).toBeDefined();
  });

  it('highlights the item whose route is contained in the current path, case-insensitively', () => {
    expect(isActive('/complex', '/Complex')).toBe(true);
    expect(isActive('/complex', '/Complex/5/houses')).toBe(true);
    expect(isActive('/complex', '/complexes-other')).toBe(false);
    expect(isActive('/realty/parking', '/Realty/storage')).toBe(false);
  });

  it('opens the group holding the current page', () => {
    const menu = menuFor('main');
    expect(groupOf(menu, '/Realty/parking')).toBe('app.menu.realty');
    expect(groupOf(menu, '/staff/3')).toBe('app.menu.staff');
    expect(groupOf(menu, '/members')).toBeNull();
  });
});
