import type { RequestType } from '../../../contract/staff';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of request-types. */
export default defineModule({
  resources: [{ name: 'service-request-types', recordRepresentation: (r: RequestType) => r.name }],
  routes: [page('/Type-requests', 'service_request_types', () => import('./RequestTypeList'))],
  menu: [{ label: 'app.menu.request_types', path: '/type-requests', area: 'service_request_types', group: 'requests', order: 11 }],
});
