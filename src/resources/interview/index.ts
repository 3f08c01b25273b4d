import type { InterviewSummary } from '../../../contract/interview';

/** react-admin resource declaration; the screens are mounted by the route table (src/routes.tsx). */
export default { name: 'interview', recordRepresentation: (r: InterviewSummary) => r.title };
