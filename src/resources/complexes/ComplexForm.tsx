import { maxLength, minLength, required, SaveButton, SimpleForm, TextInput, Toolbar, useTranslate } from 'react-admin';
import { Button } from '@mui/material';

const nameRules = [required(), minLength(2), maxLength(150)];
const cityRules = [required(), minLength(2), maxLength(100)];

/** Fields of a complex; the server repeats these checks and its messages show under the fields. */
export function ComplexForm({ onCancel }: { onCancel: () => void }) {
  const translate = useTranslate();
  return (
    <SimpleForm
      toolbar={
        <Toolbar sx={{ justifyContent: 'flex-end', gap: 1, px: 0, bgcolor: 'transparent' }}>
          <Button onClick={onCancel}>{translate('app.actions.cancel')}</Button>
          <SaveButton label="app.actions.save" />
        </Toolbar>
      }
    >
      <TextInput source="name" validate={nameRules} fullWidth autoFocus />
      <TextInput source="city" validate={cityRules} fullWidth />
      <TextInput source="address" validate={maxLength(250)} fullWidth />
      <TextInput source="description" validate={maxLength(5000)} fullWidth multiline minRows={3} />
    </SimpleForm>
  );
}
