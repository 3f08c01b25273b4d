import { Stack } from '@mui/material';
import { email, maxLength, ReferenceInput, required, SelectInput, TextInput } from 'react-admin';
import { MEMBER_STATUSES } from '../../../contract/members';
import type { EntityDeclaration } from '../../../contract/entity';
import { EntityInput } from '../generic/EntityInputs';
import { useEntityLabels } from '../generic/labels';
import { UnitInput } from './UnitInput';

export { UnitInput };

export const memberStatusChoices = MEMBER_STATUSES.map((s) => ({ id: s, name: `resources.members.statuses.${s}` }));

/** The role select: the organization's resident roles (owner, co-owner, tenant, family member). */
export function RoleInput({ source = 'role_id', label }: { source?: string; label: string }) {
  return (
    <ReferenceInput source={source} reference="resident-roles" perPage={50}>
      <SelectInput label={label} optionText="name" validate={required()} fullWidth />
    </ReferenceInput>
  );
}

/** A member's own fields; when creating, also the first unit with a role and share. */
export function MemberFields({ creating = false }: { creating?: boolean }) {
  return (
    <>
      <TextInput source="name" label="resources.members.fields.name" validate={[required(), maxLength(150)]} fullWidth />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ width: '100%' }}>
        <TextInput source="phone" label="resources.members.fields.phone" placeholder="+380 67 123 45 67" validate={maxLength(40)} sx={{ flex: 1 }} />
        <TextInput source="email" label="resources.members.fields.email" type="email" validate={[email(), maxLength(254)]} sx={{ flex: 1 }} />
      </Stack>
      <SelectInput source="status" label="resources.members.fields.status" choices={memberStatusChoices} validate={required()} fullWidth />
      <TextInput source="note" label="resources.members.fields.note" multiline minRows={2} validate={maxLength(2000)} fullWidth />
      {creating && (
        <>
          <UnitInput source="realty_id" label="resources.members.helpers.first_unit" />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ width: '100%' }}>
            <ReferenceInput source="role_id" reference="resident-roles" perPage={50}>
              <SelectInput label="resources.members.fields.role_id" optionText="name" sx={{ flex: 1 }} />
            </ReferenceInput>
            <TextInput
              source="ownership_share"
              label="resources.members.fields.ownership_share"
              helperText="resources.members.helpers.share"
              sx={{ flex: 1 }}
            />
          </Stack>
        </>
      )}
    </>
  );
}

/** A member↔unit link: the unit, the role and, for owners, the share. */
export function ResidentFields() {
  return (
    <>
      <UnitInput source="realty_id" label="resources.residents.fields.realty_id" required />
      <RoleInput label="resources.residents.fields.role_id" />
      <TextInput source="ownership_share" label="resources.residents.fields.ownership_share" helperText="resources.members.helpers.share" fullWidth />
    </>
  );
}

export function VehicleFields({ entity }: { entity: EntityDeclaration }) {
  const labels = useEntityLabels(entity);
  const input = (source: string) => <EntityInput entity={entity} source={source} field={entity.fields[source]} />;
  return (
    <>
      {input('plate')}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ width: '100%' }}>
        {input('brand')}
        {input('model')}
        {input('color')}
      </Stack>
      <UnitInput source="realty_id" type="parking" label={labels.field('realty_id')} />
    </>
  );
}
