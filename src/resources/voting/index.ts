import type { VotingSummary } from '../../../contract/voting';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of voting. */
export default defineModule({
  resources: [{ name: 'voting', recordRepresentation: (r: VotingSummary) => r.title }],
  routes: [
    page('/Voting', 'votings', () => import('./VotingList')),
    page('/Voting/create', 'votings', () => import('./VotingCreate')),
    page('/Voting/:id', 'votings', () => import('./VotingShow')),
    page('/Voting/:id/participants', 'votings', () => import('./VotingParticipants')),
  ],
});
