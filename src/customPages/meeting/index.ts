import { page } from '../../lib/routing';
import { defineModule } from '../../resources/module';

/** A general meeting's page (agenda, results, ballot sheets, the protocol and its upload) and its co-owners. */
export default defineModule({
  routes: [page('/Voting/:id', 'votings', () => import('./VotingShow')), page('/Voting/:id/participants', 'votings', () => import('./VotingParticipants'))],
});
