import type { VotingSummary } from '../../../contract/voting';
import { page } from '../../lib/routing';
import { entityModule } from '../generic/entityModule';

/**
 * General meetings: declared in contract/voting.ts; the list and the form are their own screens,
 * the meeting's page (protocol, ballot sheets) and its co-owners are in src/customPages/meeting.
 */
export default entityModule({
  name: 'voting',
  area: 'votings',
  path: '/Voting',
  load: () => import('../../../contract/voting').then((m) => m.votingEntity),
  list: () => import('./VotingList'),
  recordRepresentation: (r: VotingSummary) => r.title,
  routes: [page('/Voting/create', 'votings', () => import('./VotingCreate'))],
  menu: [{ label: 'app.menu.voting', path: '/voting', area: 'votings', group: 'community', order: 23 }],
  legacy: [
    { path: 'voting', label: 'app.legacy.pages.voting', target: '/Voting' },
    { path: 'voting/:id', label: 'app.legacy.pages.voting', target: '/Voting/:id' },
  ],
});
