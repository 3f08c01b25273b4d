import type { Departure, Role } from '../../../contract/staff';

/** react-admin resource declarations; the screen is mounted by the route table (src/routes.tsx). */
export const staffRoles = { name: 'staff-roles', recordRepresentation: (r: Role) => r.name };
export const staffDepartures = { name: 'staff-departures', recordRepresentation: (r: Departure) => r.name };
