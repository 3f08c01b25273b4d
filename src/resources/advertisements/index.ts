import type { Advertisement } from '../../../contract/advertisements';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of advertisements. */
export default defineModule({
  resources: [{ name: 'advertisements', recordRepresentation: (r: Advertisement) => r.name }],
  routes: [
    page('/Advertisements', 'advertisements', () => import('./AdvertisementList')),
    page('/Advertisements/create', 'advertisements', () => import('./AdvertisementEdit')),
    page('/Advertisements/:id', 'advertisements', () => import('./AdvertisementEdit')),
  ],
  legacy: [{ path: 'Ads', label: 'app.legacy.pages.ads', target: '/Advertisements' }],
});
