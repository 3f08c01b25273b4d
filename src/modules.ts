import { CUSTOM_PAGES } from './customPages';
import { MODULES } from './resources';
import type { ResourceModule } from './resources/module';

/**
 * Every module of the SPA: the custom pages (src/customPages) and the resources (src/resources).
 * App.tsx registers their react-admin resources, routes.tsx their screens, the sidebar their
 * items and the legacy area their old addresses. Nothing here imports the route table, so the
 * screens it lists lazily may read it (a test keeps src/ free of import cycles).
 */
export const APP_MODULES: ResourceModule[] = [...CUSTOM_PAGES, ...MODULES];

/** The modules' screens, without the shell's own pages (sign-in, home, legacy area). */
export const MODULE_ROUTES = APP_MODULES.flatMap((m) => m.routes);

const parts = APP_MODULES;

/** The sidebar items of every module (src/layout/menuItems.ts builds the menu from them). */
export const MODULE_MENU = parts.flatMap((m) => m.menu ?? []);

/** The old addresses of every module (src/pages/legacy/legacyPages.ts). */
export const MODULE_LEGACY_PAGES = parts.flatMap((m) => m.legacy ?? []);
