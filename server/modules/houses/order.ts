/**
 * The natural order helpers live in server/lib/order.ts; this re-export stays only while
 * server/modules/cameras/routes.ts still imports them from here.
 */
export { leadingDigits, naturalKeys, ordered } from '../../lib/order.ts';
