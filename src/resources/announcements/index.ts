import type { Announcement } from '../../../contract/announcements';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of announcements. */
export default defineModule({
  resources: [{ name: 'announcements', recordRepresentation: (r: Announcement) => r.title }],
  routes: [
    page('/Announcements', 'announcements', () => import('./AnnouncementList')),
    page('/Announcements/create', 'announcements', () => import('./AnnouncementEdit')),
    page('/Announcements/:id', 'announcements', () => import('./AnnouncementEdit')),
  ],
  menu: [{ label: 'app.menu.announcements', path: '/announcements', area: 'announcements', group: 'community', order: 21 }],
  legacy: [{ path: 'Notice', label: 'app.legacy.pages.notice', target: '/Announcements' }],
});
