import { page } from '../../lib/routing';
import { defineModule } from '../../resources/module';

/** Personal settings (/User): profile, password, two-step sign-in, support chat. */
export default defineModule({
  routes: [page('/User', undefined, () => import('./UserPage'))],
});
