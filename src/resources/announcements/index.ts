import type { Announcement } from '../../../contract/announcements';

/** react-admin resource declaration; the screens are mounted by the route table (src/routes.tsx). */
export default { name: 'announcements', recordRepresentation: (r: Announcement) => r.title };
