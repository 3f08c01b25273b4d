import type { ResourceModule } from './module';

/**
 * Sidebar items and old addresses of the modules that do not carry them yet, by module folder.
 * Each entry belongs in that module's index.ts (`menu`, `legacy`; src/resources/module.ts): move
 * it there and delete it here. Until then the shell reads both (src/modules.ts).
 */
export const UNDECLARED: Record<string, Pick<ResourceModule, 'menu' | 'legacy'>> = {
  'service-requests': {
    menu: [{ label: 'app.menu.requests_list', path: '/requests', area: 'service_requests', group: 'requests', order: 10 }],
    legacy: [{ path: 'User-requests', label: 'app.legacy.pages.user_requests', target: '/Requests' }],
  },
  members: {
    menu: [{ label: 'app.menu.members', path: '/members', area: 'members', icon: 'members', order: 40 }],
    legacy: [
      { path: 'Occupant', label: 'app.legacy.pages.occupant', target: '/Members' },
      { path: 'Occupant-role', label: 'app.legacy.pages.occupant_role', target: '/Members/roles' },
    ],
  },
};
