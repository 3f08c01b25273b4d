import type { Member, ResidentRole, Vehicle } from '../../../contract/members';

/** react-admin resource declarations; screens are mounted by the route table (src/routes.tsx). */
export const members = { name: 'members', recordRepresentation: (r: Member) => r.name };
export const residents = { name: 'residents' };
export const residentRoles = { name: 'resident-roles', recordRepresentation: (r: ResidentRole) => r.name };
export const vehicles = { name: 'vehicles', recordRepresentation: (r: Vehicle) => r.plate };
