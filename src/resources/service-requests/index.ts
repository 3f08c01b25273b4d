import type { ServiceRequest } from '../../../contract/serviceRequests';

/** react-admin resource declaration; the screens are mounted by the route table (src/routes.tsx). */
export default { name: 'service-requests', recordRepresentation: (r: ServiceRequest) => `№ ${r.number}` };
