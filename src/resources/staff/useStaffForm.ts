import { useQuery } from '@tanstack/react-query';
import type { StaffForm } from '../../../contract/staff';
import { apiFetch } from '../../dataProvider/http';

/** The roles this user may assign and the departments: the `form` that `GET /staff` answers beside the list. */
export function useStaffForm(): StaffForm {
  const { data } = useQuery({
    queryKey: ['staff', 'form'],
    queryFn: ({ signal }) => apiFetch<{ form: StaffForm }>('/staff', { query: { per_page: 1 }, signal }).then((r) => r.form),
    staleTime: 30_000,
  });
  return data ?? { roles: [], departures: [] };
}
