import { useMemo } from 'react';
import { canAccess, type Area, type Rules } from '../../contract/permissions';
import { useCurrentUser } from '../useCurrentUser';

/** What the user's role allows in one area. `list` and `show` are react-admin's names for `view`. */
export interface Rights {
  canView: boolean;
  canList: boolean;
  canShow: boolean;
  canCreate: boolean;
  canEdit: boolean;
  canDelete: boolean;
}

/** The rights in `area` under `rules` (the `rules` of `GET /user`); none without rules or area. */
export function rightsOf(rules: Rules | undefined | null, area: Area | undefined): Rights {
  const can = (action: 'view' | 'create' | 'edit' | 'delete') => (area ? canAccess(rules, area, action) : false);
  const canView = can('view');
  return { canView, canList: canView, canShow: canView, canCreate: can('create'), canEdit: can('edit'), canDelete: can('delete') };
}

/**
 * What the signed-in user may do in `area`, in one call per screen:
 * `const { canCreate, canEdit, canDelete } = useRights('articles')`.
 *
 * The answer is the one `authProvider.canAccess` gives (`list` and `show` are `view`), read from
 * the same rules: the `rules` of `GET /user`, which the auth provider fetches once per token and
 * answers as both the identity and the permissions. This reads them from react-admin's identity
 * query, which the route guard has loaded before any screen renders, so the answer is there at
 * the first render (no button appears a moment later, none flashes up and goes) and costs no
 * request. Everything is false while the user is not known (`isPending`) and for an `area` of
 * `undefined`. A declared entity's area is `entity.area`. Record-level limits (`can_manage`,
 * answered ballots) are the record's own fields; the API refuses anyway.
 */
export function useRights(area: Area | undefined): Rights & { isPending: boolean } {
  const { user, isPending } = useCurrentUser();
  const rules = user?.rules;
  return useMemo(() => ({ ...rightsOf(rules, area), isPending }), [rules, area, isPending]);
}
