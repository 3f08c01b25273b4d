import { useQuery } from '@tanstack/react-query';
import { SelectArrayInput } from 'react-admin';
import { requestTypeEntity, type RequestTypeForm } from '../../../contract/staff';
import { apiFetch } from '../../dataProvider/http';
import { EntityInput } from '../generic/EntityInputs';

/** Staff and roles to choose from (`GET /service_request-types/form`). */
export function useRequestTypeForm(): RequestTypeForm {
  const { data } = useQuery({
    queryKey: ['service-request-types', 'form'],
    queryFn: ({ signal }) => apiFetch<{ form: RequestTypeForm }>('/service_request-types/form', { signal }).then((r) => r.form),
    staleTime: 30_000,
  });
  return data ?? { staff: [], roles: [] };
}

/** The declared inputs (name, description, deadline), then roles and default staff from the form's choices. */
export function RequestTypeFields() {
  const form = useRequestTypeForm();
  return (
    <>
      {(['name', 'description', 'deadline_hours'] as const).map((source) => (
        <EntityInput key={source} entity={requestTypeEntity} source={source} field={requestTypeEntity.fields[source]} />
      ))}
      <SelectArrayInput source="role_ids" label="resources.service-request-types.fields.role_ids" choices={form.roles} fullWidth />
      <SelectArrayInput
        source="staff_ids"
        label="resources.service-request-types.fields.staff_ids"
        choices={form.staff}
        helperText="resources.service-request-types.hints.staff"
        fullWidth
      />
    </>
  );
}
