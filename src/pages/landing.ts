import { canAccess, type Area } from '../../contract/permissions';
import type { CurrentUser } from '../types';

/** Areas of the request desk. */
const REQUEST_DESK: Area[] = ['service_requests', 'service_request_types'];

/**
 * Where a person's work is (docs/decisions.md, "Navigation"): «З чого почати?» while an admin's
 * setup is not complete (a clean install); the request list for a role that only handles
 * requests — whatever else it may change is in the request desk (viewing complexes or houses
 * is only what requests need); otherwise the dashboard («Огляд»).
 */
export function landingPath(user: Pick<CurrentUser, 'rules' | 'is_admin' | 'tutorial_completed'>): string {
  if (user.is_admin && !user.tutorial_completed) return '/setup';
  const works = (Object.entries(user.rules) as [Area, string[]][]).filter(([, actions]) => actions.some((a) => a !== 'view')).map(([area]) => area);
  if (canAccess(user.rules, 'service_requests') && !user.is_admin && works.every((a) => REQUEST_DESK.includes(a))) return '/requests';
  return '/dashboard';
}
