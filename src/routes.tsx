import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath } from 'react-router-dom';
import { TOKEN_PAGES } from '../contract/links';
import type { Area } from '../contract/permissions';
import { LEGACY_PAGES, legacyPath } from './pages/legacy/legacyPages';

/** Route middleware, as the spec names it: `auth` = signed in; `customAuth` = forced password change and permissions. */
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

const route = (r: Omit<AppRoute, 'component'>): AppRoute => ({ ...r, component: lazy(r.load) });
const page = (path: string, area: Area | undefined, load: AppRoute['load']) =>
  route({ path, layout: 'default', middleware: ['auth', 'customAuth'], area, load });

/** The one route table; later features add their screens here. */
const SCREENS: AppRoute[] = [
  route({ path: '/ForgetPassword', layout: 'auth', middleware: [], load: () => import('./pages/ForgetPasswordPage') }),
  // The same path serves the e-mailed reset link and the forced change (docs/architecture.md, "Route middleware").
  route({ path: '/ResetPassword', layout: 'auth', middleware: [], load: () => import('./pages/ResetPasswordPage') }),
  page('/', undefined, () => import('./pages/HomeRedirect')),
  page('/User', undefined, () => import('./pages/UserPage')),
  page('/Setup', undefined, () => import('./pages/SetupPage')),
  page('/dashboard/:index?', undefined, () => import('./pages/DashboardPage')),
  page('/Complex', 'complexes', () => import('./resources/complexes/ComplexList')),
  page('/Complex/:id', 'complexes', () => import('./resources/complexes/ComplexShow')),
  page('/Complex/:id/houses', 'houses', () => import('./resources/houses/ComplexHouses')),
  page('/Realty/:type?', 'realty', () => import('./resources/realty/RealtyList')),
  page('/Staff', 'staff', () => import('./resources/staff/StaffList')),
  page('/Staff/:id', 'staff', () => import('./resources/staff/StaffShow')),
  page('/Roles-departments', 'staff_roles', () => import('./resources/staff-roles/RolesDepartments')),
  page('/Type-requests', 'service_request_types', () => import('./resources/request-types/RequestTypeList')),
  page('/Members', 'members', () => import('./resources/members/MemberList')),
  page('/Members/roles', 'members', () => import('./resources/members/ResidentRolesPage')),
  page('/Members/:id', 'members', () => import('./resources/members/MemberShow')),
  page('/News', 'articles', () => import('./resources/articles/ArticleList')),
  page('/News/create', 'articles', () => import('./resources/articles/ArticleEdit')),
  page('/News/edit/:id?', 'articles', () => import('./resources/articles/ArticleEdit')),
  page('/News/:id', 'articles', () => import('./resources/articles/ArticleShow')),
  page('/Announcements', 'announcements', () => import('./resources/announcements/AnnouncementList')),
  page('/Announcements/create', 'announcements', () => import('./resources/announcements/AnnouncementEdit')),
  page('/Announcements/:id', 'announcements', () => import('./resources/announcements/AnnouncementEdit')),
  page('/Events', 'events', () => import('./resources/events/EventList')),
  page('/Events/create', 'events', () => import('./resources/events/EventEdit')),
  page('/Events/edit/:id?', 'events', () => import('./resources/events/EventEdit')),
  page('/Events/:id', 'events', () => import('./resources/events/EventShow')),
  page('/Advertisements', 'advertisements', () => import('./resources/advertisements/AdvertisementList')),
  page('/Advertisements/create', 'advertisements', () => import('./resources/advertisements/AdvertisementEdit')),
  page('/Advertisements/:id', 'advertisements', () => import('./resources/advertisements/AdvertisementEdit')),
  page('/Documents', 'documents', () => import('./resources/documents/DocumentList')),
  page('/Contacts', 'contacts', () => import('./resources/contacts/ContactsPage')),
  page('/Contacts/create', 'contacts', () => import('./resources/contacts/ContactEdit')),
  page('/Contacts/:id', 'contacts', () => import('./resources/contacts/ContactEdit')),
  page('/Voting', 'votings', () => import('./resources/voting/VotingList')),
  page('/Voting/create', 'votings', () => import('./resources/voting/VotingCreate')),
  page('/Voting/:id', 'votings', () => import('./resources/voting/VotingShow')),
  page('/Voting/:id/participants', 'votings', () => import('./resources/voting/VotingParticipants')),
  page('/Interview', 'interviews', () => import('./resources/interview/InterviewList')),
  page('/Interview/create', 'interviews', () => import('./resources/interview/InterviewCreate')),
  page('/Interview/:id', 'interviews', () => import('./resources/interview/InterviewShow')),
  page('/Interview/:id/users', 'interviews', () => import('./resources/interview/InterviewUsers')),
  // A co-owner's voting page: no admin login, the meeting's link and a one-time code instead.
  route({ path: TOKEN_PAGES.vote, layout: 'chat', middleware: [], load: () => import('./pages/VotePage') }),
  page('/Requests', 'service_requests', () => import('./resources/service-requests/RequestList')),
  page('/Requests/create', 'service_requests', () => import('./resources/service-requests/RequestCreate')),
  page('/Requests/:id', 'service_requests', () => import('./resources/service-requests/RequestShow')),
  // The staff chat by link: the link's token is the only credential, in the bare chat layout.
  route({ path: TOKEN_PAGES.staffChat, layout: 'chat', middleware: [], load: () => import('./pages/StaffChatPage') }),
  // Legacy area: its addresses keep working and lead to the current screens.
  page('/dashboard_old', undefined, () => import('./pages/legacy/LegacyIndex')),
  page('/dashboard_old/complex', 'complexes', () => import('./pages/legacy/LegacyComplex')),
  page('/dashboard_old/Disconts', 'discounts', () => import('./resources/discounts/DiscountList')),
  page('/dashboard_old/Security-cameras', 'cameras', () => import('./resources/cameras/CameraList')),
];

const loadLegacyRedirect = () => import('./pages/legacy/LegacyRedirect');

/**
 * Legacy addresses that lead to a current screen: registered for every legacy page whose target
 * exists (and that has no screen of its own at the old address), guarded by the target's area.
 */
function legacyRedirects(screens: AppRoute[]): AppRoute[] {
  return LEGACY_PAGES.flatMap((p) => {
    if (!p.target || findRoute(legacyPath(p), screens)) return [];
    const target = findRoute(p.target.replace(/:\w+/g, '1'), screens);
    return target ? [page(legacyPath(p), target.area, loadLegacyRedirect)] : [];
  });
}

export const ROUTES: AppRoute[] = [...SCREENS, ...legacyRedirects(SCREENS)];

/** The route that serves a path (as the router matches: case-insensitively, params and optional segments). */
export function findRoute(path: string, routes: AppRoute[] = ROUTES): AppRoute | undefined {
  return routes.find((r) => matchPath({ path: r.path, caseSensitive: false, end: true }, path));
}

/** Whether a screen exists for a path, for menu items. */
export function hasRoute(path: string, routes: AppRoute[] = ROUTES): boolean {
  return findRoute(path, routes) !== undefined;
}
