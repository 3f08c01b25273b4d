import { useQuery } from '@tanstack/react-query';
import { NumberInput, SelectArrayInput, TextInput, minValue, required } from 'react-admin';
import type { RequestTypeForm } from '../../../contract/staff';
import { apiFetch } from '../../dataProvider/http';

/** Staff and roles to choose from (`GET /service_request-types/form`). */
export function useRequestTypeForm(): RequestTypeForm {
  const { data } = useQuery({
    queryKey: ['service-request-types', 'form'],
    queryFn: ({ signal }) => apiFetch<{ form: RequestTypeForm }>('/service_request-types/form', { signal }).then((r) => r.form),
    staleTime: 30_000,
  });
  return data ?? { staff: [], roles: [] };
}

export function RequestTypeFields() {
  const form = useRequestTypeForm();
  return (
    <>
      <TextInput source="name" label="resources.service-request-types.fields.name" validate={required()} fullWidth />
      <TextInput source="description" label="resources.service-request-types.fields.description" multiline minRows={2} fullWidth />
      <NumberInput
        source="deadline_hours"
        label="resources.service-request-types.fields.deadline_hours"
        helperText="resources.service-request-types.hints.deadline"
        min={1}
        step={1}
        validate={minValue(1)}
        fullWidth
      />
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
