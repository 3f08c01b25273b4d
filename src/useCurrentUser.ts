import { useGetIdentity } from 'react-admin';
import type { CurrentUser } from './types';

/** The signed-in user (`GET /user`), shared through react-admin's identity cache. */
export function useCurrentUser(): { user: CurrentUser | undefined; isPending: boolean; error: unknown; refetch: () => void } {
  const { identity, isPending, error, refetch } = useGetIdentity();
  return { user: identity as unknown as CurrentUser | undefined, isPending, error, refetch };
}
