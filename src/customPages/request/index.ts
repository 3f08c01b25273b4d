import { page } from '../../lib/routing';
import { defineModule } from '../../resources/module';

/** A service request's page: its details, stage, history and the two chats (staff and the resident). */
export default defineModule({
  routes: [page('/Requests/:id', 'service_requests', () => import('./RequestShow'))],
});
