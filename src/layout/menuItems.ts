import type { Area } from '../../contract/permissions';
import type { Edition } from '../edition';
import { hasRoute } from '../routes';

export interface MenuLink {
  kind: 'link';
  label: string;
  path: string;
  area?: Area;
  icon?: string;
  /** Shown only while the onboarding tutorial is not complete. */
  onlyDuringTutorial?: boolean;
}
export interface MenuGroup {
  kind: 'group';
  label: string;
  icon: string;
  items: MenuLink[];
}
export type MenuEntry = MenuLink | MenuGroup;

const link = (label: string, path: string, area?: Area, icon?: string): MenuLink => ({ kind: 'link', label, path, area, icon });

/** The sidebar as docs/architecture.md, "Routes", lists it (labels are i18n keys). */
export function menuFor(edition: Edition): MenuEntry[] {
  const community: MenuLink[] = [
    link('app.menu.news', '/news', 'articles'),
    link('app.menu.announcements', '/announcements', 'announcements'),
    link('app.menu.interview', '/interview', 'interviews'),
    link('app.menu.voting', '/voting', 'votings'),
  ];
  if (edition === 'alt') community.push(link('app.menu.events', '/events', 'events'));
  return [
    { ...link('app.menu.setup', '/setup', undefined, 'setup'), onlyDuringTutorial: true },
    {
      kind: 'group',
      label: 'app.menu.requests',
      icon: 'requests',
      items: [link('app.menu.requests_list', '/requests', 'service_requests'), link('app.menu.request_types', '/type-requests', 'service_request_types')],
    },
    { kind: 'group', label: 'app.menu.community', icon: 'community', items: community },
    edition === 'alt'
      ? link('app.menu.houses', '/complex', 'complexes', 'realty')
      : {
          kind: 'group',
          label: 'app.menu.realty',
          icon: 'realty',
          items: [
            link('app.menu.houses', '/complex', 'complexes'),
            link('app.menu.parkings', '/realty/parking', 'realty'),
            link('app.menu.storages', '/realty/storage', 'realty'),
          ],
        },
    link('app.menu.members', '/members', 'members', 'members'),
    link('app.menu.documents', '/documents', 'documents', 'documents'),
    link('app.menu.contacts', '/contacts', 'contacts', 'contacts'),
    {
      kind: 'group',
      label: 'app.menu.staff',
      icon: 'staff',
      items: [link('app.menu.staff_roles', '/roles-departments', 'staff_roles'), link('app.menu.staff_list', '/staff', 'staff')],
    },
  ];
}

export interface MenuContext {
  tutorialCompleted: boolean;
  can: (area: Area) => boolean;
  routeExists?: (path: string) => boolean;
}

/**
 * What this user sees: items whose screen exists, that their role may view, 'З чого почати?'
 * only during the tutorial; groups left empty disappear.
 */
export function visibleMenu(entries: MenuEntry[], ctx: MenuContext): MenuEntry[] {
  const exists = ctx.routeExists ?? hasRoute;
  const linkVisible = (l: MenuLink) => exists(l.path) && (!l.area || ctx.can(l.area)) && !(l.onlyDuringTutorial && ctx.tutorialCompleted);
  const out: MenuEntry[] = [];
  for (const entry of entries) {
    if (entry.kind === 'link') {
      if (linkVisible(entry)) out.push(entry);
    } else {
      const items = entry.items.filter(linkVisible);
      if (items.length > 0) out.push({ ...entry, items });
    }
  }
  return out;
}

/** The menu highlights the item whose route is contained in the current path. */
export function isActive(itemPath: string, currentPath: string): boolean {
  const item = itemPath.toLowerCase().replace(/\/$/, '');
  const current = currentPath.toLowerCase().replace(/\/$/, '');
  return current === item || current.startsWith(`${item}/`);
}

/** The group that holds the current page, so that it opens by itself. */
export function groupOf(entries: MenuEntry[], currentPath: string): string | null {
  for (const e of entries) if (e.kind === 'group' && e.items.some((i) => isActive(i.path, currentPath))) return e.label;
  return null;
}
