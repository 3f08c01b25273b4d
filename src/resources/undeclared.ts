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
  articles: {
    menu: [{ label: 'app.menu.news', path: '/news', area: 'articles', group: 'community', order: 20 }],
    legacy: [
      { path: 'AddNews', label: 'app.legacy.pages.add_news', target: '/News/create' },
      { path: 'News-advices', label: 'app.legacy.pages.news_advices', target: '/News' },
    ],
  },
  interview: {
    menu: [{ label: 'app.menu.interview', path: '/interview', area: 'interviews', group: 'community', order: 22 }],
    legacy: [{ path: 'Interview', label: 'app.legacy.pages.interview', target: '/Interview' }],
  },
  voting: {
    menu: [{ label: 'app.menu.voting', path: '/voting', area: 'votings', group: 'community', order: 23 }],
    legacy: [
      { path: 'voting', label: 'app.legacy.pages.voting', target: '/Voting' },
      { path: 'voting/:id', label: 'app.legacy.pages.voting', target: '/Voting/:id' },
    ],
  },
  members: {
    menu: [{ label: 'app.menu.members', path: '/members', area: 'members', icon: 'members', order: 40 }],
    legacy: [
      { path: 'Occupant', label: 'app.legacy.pages.occupant', target: '/Members' },
      { path: 'Occupant-role', label: 'app.legacy.pages.occupant_role', target: '/Members/roles' },
    ],
  },
  documents: {
    menu: [{ label: 'app.menu.documents', path: '/documents', area: 'documents', icon: 'documents', order: 50 }],
  },
  advertisements: {
    legacy: [{ path: 'Ads', label: 'app.legacy.pages.ads', target: '/Advertisements' }],
  },
  'staff-roles': {
    menu: [{ label: 'app.menu.staff_roles', path: '/roles-departments', area: 'staff_roles', group: 'staff', order: 70 }],
    legacy: [
      { path: 'Staff-role', label: 'app.legacy.pages.staff_role', target: '/Roles-departments' },
      { path: 'Users-role', label: 'app.legacy.pages.users_role', target: '/Roles-departments' },
    ],
  },
  staff: {
    menu: [{ label: 'app.menu.staff_list', path: '/staff', area: 'staff', group: 'staff', order: 71 }],
    legacy: [
      { path: 'Staff', label: 'app.legacy.pages.staff', target: '/Staff' },
      { path: 'Users', label: 'app.legacy.pages.users', target: '/Staff' },
    ],
  },
};
