import { canAccess, type Action, type Area } from '../../contract/permissions';
import { useCurrentUser } from '../useCurrentUser';

/**
 * Whether the signed-in user's role allows `action` on `area` (the `rules` of `GET /user`).
 * The one check behind every menu item and action button; false until the user is known, so
 * nothing flashes up and disappears. The API refuses anyway.
 */
export function useCan(area: Area, action: Action = 'view'): boolean {
  const { user } = useCurrentUser();
  return canAccess(user?.rules, area, action);
}
