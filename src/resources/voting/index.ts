import type { VotingSummary } from '../../../contract/voting';

/** react-admin resource declaration; the screens are mounted by the route table (src/routes.tsx). */
export default { name: 'voting', recordRepresentation: (r: VotingSummary) => r.title };
