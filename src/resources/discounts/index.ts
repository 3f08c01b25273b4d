import type { Discount } from '../../../contract/discounts';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of discounts. */
export default defineModule({
  resources: [{ name: 'discounts', recordRepresentation: (r: Discount) => `${r.partner}: ${r.title}` }],
  routes: [page('/dashboard_old/Disconts', 'discounts', () => import('./DiscountList'))],
});
