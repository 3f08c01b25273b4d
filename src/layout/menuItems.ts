import type { Area } from '../../contract/permissions';
import type { Edition } from '../edition';
import { findRoute } from '../lib/routing';
import { MODULE_MENU, MODULE_ROUTES } from '../modules';
import { MENU_GROUPS, type MenuGroupKey } from './menuGroups';
import type { ModuleMenuItem } from '../resources/module';

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

/** The sidebar of an edition built from the modules' items: sorted by `order`, each group where its first item stands. */
export function buildMenu(items: ModuleMenuItem[], edition: Edition): MenuEntry[] {
  const out: MenuEntry[] = [];
  const groups = new Map<MenuGroupKey, MenuGroup>();
  const sorted = items.filter((i) => !i.edition || i.edition === edition).sort((a, b) => a.order - b.order);
  for (const { label, path, area, icon, group, onlyDuringTutorial } of sorted) {
    const link: MenuLink = { kind: 'link', label, path, area, icon, ...(onlyDuringTutorial ? { onlyDuringTutorial } : {}) };
    if (!group) out.push(link);
    else if (groups.has(group)) groups.get(group)!.items.push(link);
    else {
      const entry: MenuGroup = { kind: 'group', ...MENU_GROUPS[group], items: [link] };
      groups.set(group, entry);
      out.push(entry);
    }
  }
  return out;
}

/** The sidebar as docs/architecture.md, "Routes", lists it (labels are i18n keys). */
export const menuFor = (edition: Edition): MenuEntry[] => buildMenu(MODULE_MENU, edition);

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
  const exists = ctx.routeExists ?? ((path: string) => findRoute(path, MODULE_ROUTES) !== undefined);
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
