import { maxLength, minLength, required, TextInput } from 'react-admin';

const nameRules = [required(), minLength(2), maxLength(150)];
const cityRules = [required(), minLength(2), maxLength(100)];

/** Fields of a complex; the server repeats these checks and its messages show under the fields. */
export function ComplexFields() {
  return (
    <>
      <TextInput source="name" validate={nameRules} fullWidth autoFocus />
      <TextInput source="city" validate={cityRules} fullWidth />
      <TextInput source="address" validate={maxLength(250)} fullWidth />
      <TextInput source="description" validate={maxLength(5000)} fullWidth multiline minRows={3} />
    </>
  );
}
