import type { Realty } from '../../../contract/realty';

/** react-admin resource declaration; screens are mounted by the route table (src/routes.tsx). */
export default { name: 'realty', recordRepresentation: (r: Realty) => `№ ${r.number}` };
