import type { Camera } from '../../../contract/cameras';

/** react-admin resource declaration; the screen is mounted by the route table (src/routes.tsx). */
export default { name: 'cameras', recordRepresentation: (r: Camera) => r.name };
