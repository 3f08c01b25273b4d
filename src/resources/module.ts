import type { ResourceProps } from 'react-admin';
import type { Area } from '../../contract/permissions';
import type { Edition } from '../edition';
import type { MenuGroupKey } from '../layout/menuGroups';
import type { AppRoute } from '../lib/routing';

/**
 * A sidebar item a module brings (docs/architecture.md, "Routes"). Items from every module are
 * sorted by `order`; a group stands where its first item does.
 */
export interface ModuleMenuItem {
  /** i18n key. */
  label: string;
  path: string;
  /** The area whose view right shows it. */
  area?: Area;
  /** The group it is listed in; without one it is a top-level item. */
  group?: MenuGroupKey;
  /** Icon key of a top-level item (src/layout/Menu.tsx). */
  icon?: string;
  /** Its place in the sidebar, across modules. */
  order: number;
  /** Only in this edition; both when absent. */
  edition?: Edition;
  /** Shown only while the onboarding tutorial is not complete. */
  onlyDuringTutorial?: boolean;
}

/** An old address under /dashboard_old (docs/architecture.md, "Legacy area") and where it leads now. */
export interface LegacyPage {
  /** Path under /dashboard_old. */
  path: string;
  /** i18n key of its name on the legacy list page. */
  label: string;
  /** The current screen (`:id` carried over); absent for pages that are screens of their own at the old address. */
  target?: string;
}

/**
 * Everything about one part of the admin that the shell needs: its react-admin resources, its
 * screens, its sidebar items and its old addresses. `App.tsx`, `routes.tsx`, the menu and the
 * legacy area map over the collected list (src/modules.ts); nothing else names a module's screens.
 */
export interface ResourceModule {
  resources: ResourceProps[];
  routes: AppRoute[];
  menu?: ModuleMenuItem[];
  legacy?: LegacyPage[];
}

export const defineModule = (m: Partial<ResourceModule>): ResourceModule => ({ resources: [], routes: [], ...m });
