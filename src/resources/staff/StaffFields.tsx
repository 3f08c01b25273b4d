import { Alert } from '@mui/material';
import { BooleanInput, FormDataConsumer, SelectArrayInput, SelectInput, TextInput, required, useRecordContext, useTranslate } from 'react-admin';
import type { Staff } from '../../../contract/staff';
import { useCurrentUser } from '../../useCurrentUser';
import { useStaffForm } from './useStaffForm';

/**
 * Whether the sign-in e-mail and phone may be edited here, and the hint under them. Anyone
 * creating a colleague types them; afterwards only an admin changes a colleague's (the API
 * answers 403 otherwise), and nobody their own: that is the personal settings' code-confirmed
 * change.
 */
function signInContacts(creating: boolean, self: boolean, admin: boolean): { locked: boolean; hint?: string } {
  if (creating) return { locked: false };
  if (self) return { locked: true, hint: 'resources.staff.own_contacts_hint' };
  if (!admin) return { locked: true, hint: 'resources.staff.contacts_admin_only' };
  return { locked: false, hint: 'resources.staff.contacts_change_hint' };
}

/**
 * The fields of a staff member. Only an admin may make an admin; roles are those the user may
 * assign (with their department), complexes those the user sees — both as the API allows.
 */
export function StaffFields({ creating }: { creating: boolean }) {
  const translate = useTranslate();
  const { user } = useCurrentUser();
  const form = useStaffForm();
  const departure = (id: number | null) => form.departures.find((d) => d.id === id)?.name;
  const roleChoices = form.roles.map((r) => ({ id: r.id, name: departure(r.departure_id) ? `${r.name} · ${departure(r.departure_id)}` : r.name }));
  const record = useRecordContext<Staff>();
  const contacts = signInContacts(creating, record?.id === user?.id, user?.is_admin === true);
  return (
    <>
      {creating && (
        <Alert severity="info" sx={{ mb: 2, width: '100%' }}>
          {translate('resources.staff.invite_hint')}
        </Alert>
      )}
      <TextInput source="name" label="resources.staff.fields.name" validate={required()} fullWidth />
      <TextInput
        source="email"
        label="resources.staff.fields.email"
        type="email"
        validate={required()}
        fullWidth
        readOnly={contacts.locked}
        helperText={contacts.hint}
      />
      <TextInput
        source="phone"
        label="resources.staff.fields.phone"
        fullWidth
        parse={(v: string) => v || null}
        readOnly={contacts.locked}
        helperText={contacts.hint}
      />
      {user?.is_admin && <BooleanInput source="is_admin" label="resources.staff.fields.is_admin" />}
      <FormDataConsumer<{ is_admin?: boolean }>>
        {({ formData }) =>
          formData.is_admin ? null : (
            <>
              <SelectInput source="role_id" label="resources.staff.fields.role_id" choices={roleChoices} validate={required()} fullWidth emptyText="" />
              <SelectArrayInput source="complex_ids" label="resources.staff.fields.complex_ids" choices={user?.complexes ?? []} fullWidth />
            </>
          )
        }
      </FormDataConsumer>
    </>
  );
}
