import { entityModule } from '../generic/entityModule';

/** Security cameras: the legacy area's own screen, built from the declaration (contract/cameras.ts). */
export default entityModule({
  name: 'cameras',
  area: 'cameras',
  path: '/dashboard_old/Security-cameras',
  load: () => import('../../../contract/cameras').then((m) => m.cameraEntity),
  recordRepresentation: 'name',
  legacy: [{ path: 'Security-cameras', label: 'app.legacy.pages.cameras' }],
});
