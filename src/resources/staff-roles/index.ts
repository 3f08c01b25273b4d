import type { Departure, Role } from '../../../contract/staff';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of staff-roles. */
export default defineModule({
  resources: [
    { name: 'staff-roles', recordRepresentation: (r: Role) => r.name },
    { name: 'staff-departures', recordRepresentation: (r: Departure) => r.name },
  ],
  routes: [page('/Roles-departments', 'staff_roles', () => import('./RolesDepartments'))],
  menu: [{ label: 'app.menu.staff_roles', path: '/roles-departments', area: 'staff_roles', group: 'staff', order: 70 }],
  legacy: [
    { path: 'Staff-role', label: 'app.legacy.pages.staff_role', target: '/Roles-departments' },
    { path: 'Users-role', label: 'app.legacy.pages.users_role', target: '/Roles-departments' },
  ],
});
