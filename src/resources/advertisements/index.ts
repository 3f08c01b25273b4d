import type { Advertisement } from '../../../contract/advertisements';

/** react-admin resource declaration; the screens are mounted by the route table (src/routes.tsx). */
export default { name: 'advertisements', recordRepresentation: (r: Advertisement) => r.name };
