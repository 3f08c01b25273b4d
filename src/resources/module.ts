import type { ResourceProps } from 'react-admin';
import type { AppRoute } from '../lib/routing';

/**
 * Everything about one part of the admin that the shell needs: its react-admin resources and its
 * screens. `App.tsx` and `routes.tsx` map over the collected list (src/resources/index.ts);
 * nothing else names a resource's screens.
 */
export interface ResourceModule {
  resources: ResourceProps[];
  routes: AppRoute[];
}

export const defineModule = (m: Partial<ResourceModule>): ResourceModule => ({ resources: [], routes: [], ...m });
