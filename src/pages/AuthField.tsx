import { TextField, type TextFieldProps } from '@mui/material';

/** A full-width sign-in form field that shows its error message under itself. */
export function AuthField({ error, ...props }: Omit<TextFieldProps, 'error'> & { error?: string }) {
  return <TextField {...props} error={Boolean(error)} helperText={error} fullWidth />;
}
