import type { InterviewSummary } from '../../../contract/interview';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of interview. */
export default defineModule({
  resources: [{ name: 'interview', recordRepresentation: (r: InterviewSummary) => r.title }],
  routes: [
    page('/Interview', 'interviews', () => import('./InterviewList')),
    page('/Interview/create', 'interviews', () => import('./InterviewCreate')),
    page('/Interview/:id', 'interviews', () => import('./InterviewShow')),
    page('/Interview/:id/users', 'interviews', () => import('./InterviewUsers')),
  ],
});
