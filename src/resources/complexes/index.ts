import ApartmentOutlined from '@mui/icons-material/ApartmentOutlined';
import type { Complex } from '../../types';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of complexes. */
export default defineModule({
  resources: [{ name: 'complexes', icon: ApartmentOutlined, recordRepresentation: (r: Complex) => r.name }],
  routes: [page('/Complex', 'complexes', () => import('./ComplexList')), page('/Complex/:id', 'complexes', () => import('./ComplexShow'))],
  // The alternative edition has no realty group: «Будинки» is an item of its own.
  menu: [
    { label: 'app.menu.houses', path: '/complex', area: 'complexes', group: 'realty', order: 30, edition: 'main' },
    { label: 'app.menu.houses', path: '/complex', area: 'complexes', icon: 'realty', order: 30, edition: 'alt' },
  ],
  legacy: [{ path: 'Complex', label: 'app.legacy.pages.complex', target: '/Complex' }],
});
