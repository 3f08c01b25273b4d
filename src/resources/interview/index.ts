import type { InterviewSummary } from '../../../contract/interview';
import { page } from '../../lib/routing';
import { entityModule } from '../generic/entityModule';

/** Surveys: declared in contract/interview.ts; the list, the form with questions, results and respondents are their own screens. */
export default entityModule({
  name: 'interview',
  area: 'interviews',
  path: '/Interview',
  load: () => import('../../../contract/interview').then((m) => m.interviewEntity),
  list: () => import('./InterviewList'),
  recordRepresentation: (r: InterviewSummary) => r.title,
  routes: [
    page('/Interview/create', 'interviews', () => import('./InterviewCreate')),
    page('/Interview/:id', 'interviews', () => import('./InterviewShow')),
    page('/Interview/:id/users', 'interviews', () => import('./InterviewUsers')),
  ],
  menu: [{ label: 'app.menu.interview', path: '/interview', area: 'interviews', group: 'community', order: 22 }],
  legacy: [{ path: 'Interview', label: 'app.legacy.pages.interview', target: '/Interview' }],
});
