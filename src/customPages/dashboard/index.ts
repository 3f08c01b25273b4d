import { page } from '../../lib/routing';
import { defineModule } from '../../resources/module';

/** The dashboard (/dashboard/{tab}): overview, requests, meetings and finance of the selected complex. */
export default defineModule({
  routes: [page('/dashboard/:index?', undefined, () => import('./DashboardPage'))],
  menu: [{ label: 'app.menu.dashboard', path: '/dashboard', icon: 'dashboard', order: 1 }],
});
