import type { Staff } from '../../../contract/staff';
import { page } from '../../lib/routing';
import { entityModule } from '../generic/entityModule';

/** Staff: declared in contract/staff.ts; the list with its dialogs and the person's page are their own screens. */
export default entityModule({
  name: 'staff',
  area: 'staff',
  path: '/Staff',
  load: () => import('../../../contract/staff').then((m) => m.staffEntity),
  list: () => import('./StaffList'),
  recordRepresentation: (r: Staff) => r.name,
  routes: [page('/Staff/:id', 'staff', () => import('./StaffShow'))],
  menu: [{ label: 'app.menu.staff_list', path: '/staff', area: 'staff', group: 'staff', order: 71 }],
  legacy: [
    { path: 'Staff', label: 'app.legacy.pages.staff', target: '/Staff' },
    { path: 'Users', label: 'app.legacy.pages.users', target: '/Staff' },
  ],
});
