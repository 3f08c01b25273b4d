import { TOKEN_PAGES } from '../../../contract/links';
import { route } from '../../lib/routing';
import { defineModule } from '../../resources/module';

/** The staff chat by link: the link's token is the only credential, in the bare chat layout (docs/architecture.md, "Link pages"). */
export default defineModule({
  routes: [route({ path: TOKEN_PAGES.staffChat, layout: 'chat', middleware: [], load: () => import('./StaffChatPage') })],
});
