import type { Discount } from '../../../contract/discounts';

/** react-admin resource declaration; the screen is mounted by the route table (src/routes.tsx). */
export default { name: 'discounts', recordRepresentation: (r: Discount) => `${r.partner}: ${r.title}` };
