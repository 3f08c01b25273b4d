import type { House } from '../../../contract/houses';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of houses. */
export default defineModule({
  resources: [
    { name: 'houses', recordRepresentation: (r: House) => r.address },
    { name: 'house-types', recordRepresentation: 'name' },
  ],
  routes: [page('/Complex/:id/houses', 'houses', () => import('./ComplexHouses'))],
});
