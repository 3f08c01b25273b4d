import type { CommunityEvent } from '../../../contract/events';

/** react-admin resource declaration; the screens are mounted by the route table (src/routes.tsx). */
export default { name: 'events', recordRepresentation: (r: CommunityEvent) => r.title };
