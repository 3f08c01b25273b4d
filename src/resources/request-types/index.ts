import type { RequestType } from '../../../contract/staff';

/** react-admin resource declaration; the screen is mounted by the route table (src/routes.tsx). */
export default { name: 'service-request-types', recordRepresentation: (r: RequestType) => r.name };
