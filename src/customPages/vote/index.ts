import { TOKEN_PAGES } from '../../../contract/links';
import { route } from '../../lib/routing';
import { defineModule } from '../../resources/module';

/** A co-owner's voting page: no admin login, the meeting's link and a one-time code instead (docs/architecture.md, "Link pages"). */
export default defineModule({
  routes: [route({ path: TOKEN_PAGES.vote, layout: 'chat', middleware: [], load: () => import('./VotePage') })],
});
