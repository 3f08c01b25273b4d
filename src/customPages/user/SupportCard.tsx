import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Box, Button, Card, CardContent, CardHeader, Divider, Link, Stack, TextField, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { apiFetch } from '../../dataProvider/http';
import { formatDateTime } from '../../lib/dates';
import { errorsOf, ErrorAlert, fieldError, type SettingsErrors } from './CodeDialog';

interface SupportMessage {
  id: number;
  message: string;
  created_at: string;
}

/** Writing to the service's support (POST /chat) and what the user has written before. */
export function SupportCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { data } = useQuery({ queryKey: ['support-chat'], queryFn: () => apiFetch<{ data: SupportMessage[]; support_email: string }>('/chat') });
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const res = await apiFetch<{ message: string }>('/chat', { method: 'POST', body: { message } });
      notify(res.message, { type: 'success' });
      setMessage('');
      setErrors({});
      await queryClient.invalidateQueries({ queryKey: ['support-chat'] });
    } catch (err) {
      setErrors(errorsOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader
        title={translate('app.support.title')}
        subheader={
          data ? (
            <>
              {translate('app.support.hint')} <Link href={`mailto:${data.support_email}`}>{data.support_email}</Link>
            </>
          ) : null
        }
        slotProps={{ title: { variant: 'h6' } }}
      />
      <CardContent>
        <Stack component="form" onSubmit={submit} spacing={1.5} noValidate>
          <TextField
            multiline
            minRows={3}
            name="message"
            label={translate('app.support.message')}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            error={Boolean(fieldError(errors, 'message'))}
            helperText={fieldError(errors, 'message')}
          />
          <ErrorAlert errors={errors} shown={['message']} />
          <Box>
            <Button type="submit" variant="outlined" disabled={busy || message.trim().length < 2}>
              {translate('app.support.send')}
            </Button>
          </Box>
        </Stack>
        {data && data.data.length > 0 && (
          <Stack spacing={1} sx={{ mt: 2 }} divider={<Divider flexItem />}>
            <Typography variant="subtitle2" color="text.secondary">
              {translate('app.support.history')}
            </Typography>
            {data.data.map((m) => (
              <Box key={m.id}>
                <Typography variant="caption" color="text.secondary">
                  {formatDateTime(m.created_at)}
                </Typography>
                <Typography sx={{ whiteSpace: 'pre-wrap' }}>{m.message}</Typography>
              </Box>
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
