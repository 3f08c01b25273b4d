import ApartmentOutlined from '@mui/icons-material/ApartmentOutlined';
import type { Complex } from '../../types';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of complexes. */
export default defineModule({
  resources: [{ name: 'complexes', icon: ApartmentOutlined, recordRepresentation: (r: Complex) => r.name }],
  routes: [page('/Complex', 'complexes', () => import('./ComplexList')), page('/Complex/:id', 'complexes', () => import('./ComplexShow'))],
});
