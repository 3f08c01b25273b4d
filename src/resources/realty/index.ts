import type { Realty } from '../../../contract/realty';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of realty. */
export default defineModule({
  resources: [{ name: 'realty', recordRepresentation: (r: Realty) => `№ ${r.number}` }],
  routes: [page('/Realty/:type?', 'realty', () => import('./RealtyList'))],
  menu: [
    { label: 'app.menu.parkings', path: '/realty/parking', area: 'realty', group: 'realty', order: 31, edition: 'main' },
    { label: 'app.menu.storages', path: '/realty/storage', area: 'realty', group: 'realty', order: 32, edition: 'main' },
  ],
});
