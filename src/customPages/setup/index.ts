import { page } from '../../lib/routing';
import { defineModule } from '../../resources/module';

/** First steps: the onboarding tutorial («З чого почати?»), in the sidebar until it is complete. */
export default defineModule({
  routes: [page('/Setup', undefined, () => import('./SetupPage'))],
  menu: [{ label: 'app.menu.setup', path: '/setup', icon: 'setup', order: 0, onlyDuringTutorial: true }],
});
