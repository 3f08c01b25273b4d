import type { Staff } from '../../../contract/staff';

/** react-admin resource declaration; screens are mounted by the route table (src/routes.tsx). */
export default { name: 'staff', recordRepresentation: (r: Staff) => r.name };
