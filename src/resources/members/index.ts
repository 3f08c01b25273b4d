import type { Member, Vehicle } from '../../../contract/members';
import type { ResidentRole } from '../../../contract/residentRoles';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of members. */
export default defineModule({
  resources: [
    { name: 'members', recordRepresentation: (r: Member) => r.name },
    { name: 'residents' },
    { name: 'resident-roles', recordRepresentation: (r: ResidentRole) => r.name },
    { name: 'vehicles', recordRepresentation: (r: Vehicle) => r.plate },
  ],
  routes: [
    page('/Members', 'members', () => import('./MemberList')),
    page('/Members/roles', 'members', () => import('./ResidentRolesPage')),
    page('/Members/:id', 'members', () => import('./MemberShow')),
  ],
  menu: [{ label: 'app.menu.members', path: '/members', area: 'members', icon: 'members', order: 40 }],
  legacy: [
    { path: 'Occupant', label: 'app.legacy.pages.occupant', target: '/Members' },
    { path: 'Occupant-role', label: 'app.legacy.pages.occupant_role', target: '/Members/roles' },
  ],
});
