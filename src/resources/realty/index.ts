import type { Realty } from '../../../contract/realty';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of realty. */
export default defineModule({
  resources: [{ name: 'realty', recordRepresentation: (r: Realty) => `№ ${r.number}` }],
  routes: [page('/Realty/:type?', 'realty', () => import('./RealtyList'))],
});
