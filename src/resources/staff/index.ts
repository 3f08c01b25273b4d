import type { Staff } from '../../../contract/staff';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of staff. */
export default defineModule({
  resources: [{ name: 'staff', recordRepresentation: (r: Staff) => r.name }],
  routes: [page('/Staff', 'staff', () => import('./StaffList')), page('/Staff/:id', 'staff', () => import('./StaffShow'))],
});
