import type { ServiceRequest } from '../../../contract/serviceRequests';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of service-requests. */
export default defineModule({
  resources: [{ name: 'service-requests', recordRepresentation: (r: ServiceRequest) => `№ ${r.number}` }],
  routes: [page('/Requests', 'service_requests', () => import('./RequestList')), page('/Requests/create', 'service_requests', () => import('./RequestCreate'))],
  menu: [{ label: 'app.menu.requests_list', path: '/requests', area: 'service_requests', group: 'requests', order: 10 }],
  legacy: [{ path: 'User-requests', label: 'app.legacy.pages.user_requests', target: '/Requests' }],
});
