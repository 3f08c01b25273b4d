import { findRoute, type AppRoute } from '../../lib/routing';
import { MODULE_LEGACY_PAGES, MODULE_ROUTES } from '../../modules';
import type { LegacyPage } from '../../resources/module';

export type { LegacyPage } from '../../resources/module';

/**
 * The legacy area's pages (/dashboard_old/...; docs/architecture.md, "Legacy area") and where
 * each leads now, as the modules declare them (`legacy`), in the order of their paths. A redirect
 * is registered only while its target screen exists (src/routes.tsx), so pages whose screens come
 * with other features start working as those screens arrive.
 */
export const LEGACY_PAGES: LegacyPage[] = [...MODULE_LEGACY_PAGES].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

export const legacyPath = (page: LegacyPage) => `/dashboard_old/${page.path}`;

/** The current address for a legacy one: '/dashboard_old/voting/7' → '/Voting/7'. */
export function legacyTarget(page: LegacyPage, params: Record<string, string | undefined>): string | undefined {
  return page.target?.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
}

/**
 * The module screen that serves a legacy page: its own screen at the old address, otherwise its
 * target's, whose area guards the redirect. Read from the modules, not from the route table,
 * which lists the legacy area's own screens.
 */
export function legacyScreen(page: LegacyPage, routes: AppRoute[] = MODULE_ROUTES): AppRoute | undefined {
  return findRoute(legacyPath(page), routes) ?? (page.target ? findRoute(page.target.replace(/:\w+/g, '1'), routes) : undefined);
}
