import type { Discount } from '../../../contract/discounts';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of discounts. */
export default defineModule({
  resources: [{ name: 'discounts', recordRepresentation: (r: Discount) => `${r.partner}: ${r.title}` }],
  // A screen of its own at the old address, with no other route.
  routes: [page('/dashboard_old/Disconts', 'discounts', () => import('./DiscountList'))],
  legacy: [{ path: 'Disconts', label: 'app.legacy.pages.discounts' }],
});
