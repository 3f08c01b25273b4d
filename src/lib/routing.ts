import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath } from 'react-router-dom';
import type { Area } from '../../contract/permissions';

/** Route middleware: `auth` = signed in; `customAuth` = forced password change and permissions (docs/architecture.md, "Routes"). */
export type Middleware = 'auth' | 'customAuth';

export interface AppRoute {
  /** Path exactly as docs/architecture.md, "Routes", writes it; matched case-insensitively. */
  path: string;
  layout: 'default' | 'auth' | 'chat';
  middleware: string[];
  /** Permission area the page needs (view). */
  area?: Area;
  load: () => Promise<{ default: ComponentType }>;
  component: LazyExoticComponent<ComponentType>;
}

export const route = (r: Omit<AppRoute, 'component'>): AppRoute => ({ ...r, component: lazy(r.load) });

/** A screen inside the admin layout, for signed-in users with the area's view right. */
export const page = (path: string, area: Area | undefined, load: AppRoute['load']) =>
  route({ path, layout: 'default', middleware: ['auth', 'customAuth'], area, load });

/** The route among `routes` that serves a path (as the router matches: case-insensitively, params and optional segments). */
export function findRoute(path: string, routes: AppRoute[]): AppRoute | undefined {
  return routes.find((r) => matchPath({ path: r.path, caseSensitive: false, end: true }, path));
}
