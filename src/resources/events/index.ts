import type { CommunityEvent } from '../../../contract/events';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of events. */
export default defineModule({
  resources: [{ name: 'events', recordRepresentation: (r: CommunityEvent) => r.title }],
  routes: [
    page('/Events', 'events', () => import('./EventList')),
    page('/Events/create', 'events', () => import('./EventEdit')),
    page('/Events/edit/:id?', 'events', () => import('./EventEdit')),
    page('/Events/:id', 'events', () => import('./EventShow')),
  ],
  menu: [{ label: 'app.menu.events', path: '/events', area: 'events', group: 'community', order: 24, edition: 'alt' }],
});
