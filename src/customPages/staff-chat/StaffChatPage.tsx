import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { Alert, AlertTitle, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import { useTranslate } from 'react-admin';
import type { LinkChat } from '../../../contract/serviceRequests';
import { ChatLayout } from '../../layout/ChatLayout';
import { formatDateTime } from '../../lib/dates';
import { linkChatApi } from '../../resources/service-requests/api';
import { ChatPanel } from '../request/ChatPanel';
import { StageChip } from '../../resources/service-requests/StageChip';
import { useConfirm } from '../../components/useConfirm';

const POLL_MS = 5000;

/**
 * /Chat/{token}: a performer's view of one request's staff chat by link — the request, the chat,
 * a photo and «Роботу виконано». An invalid or expired link shows the error state (the chat error flag).
 */
export default function StaffChatPage() {
  const { token } = useParams();
  const translate = useTranslate();
  const [ask, confirmDialog] = useConfirm();
  const [chat, setChat] = useState<LinkChat | null>(null);
  const [error, setError] = useState(false);
  const [finished, setFinished] = useState(false);

  const load = useCallback(() => {
    if (!token) return;
    linkChatApi.get(token).then(
      (c) => {
        setChat(c);
        setError(false);
      },
      (err: { status?: number }) => {
        // Only a refused link is the error state; a dropped connection keeps what is shown.
        if (err.status === 404 || err.status === 422) setError(true);
      },
    );
  }, [token]);

  useEffect(() => {
    load();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') load();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [load]);

  if (!token || error) {
    return (
      <ChatLayout>
        <Alert severity="error" data-testid="chat-error" sx={{ mt: 2 }}>
          <AlertTitle>{translate(token ? 'app.staff_chat.invalid' : 'app.staff_chat.no_token')}</AlertTitle>
          {translate('app.staff_chat.invalid_hint')}
        </Alert>
      </ChatLayout>
    );
  }
  if (!chat) {
    return (
      <ChatLayout>
        <CircularProgress sx={{ m: 'auto' }} aria-label={translate('ra.page.loading')} />
      </ChatLayout>
    );
  }
  const r = chat.request;
  const send = async (message: string, files: File[], done = false) => {
    try {
      setChat(await linkChatApi.post(token, message, files[0] ?? null, done));
    } catch (err) {
      if ((err as { status?: number }).status === 404) setError(true);
      throw err;
    }
  };
  return (
    <ChatLayout>
      {confirmDialog}
      <Stack spacing={1.5} sx={{ flex: 1 }}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap', rowGap: 1 }}>
            <Typography variant="h6" component="h1" sx={{ fontSize: 18 }}>
              {translate('app.staff_chat.title', { number: r.number })}
            </Typography>
            <StageChip stage={r.stage} data-testid="link-chat-stage" />
          </Stack>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {r.type ?? ''} · {r.address}
            {r.realty_number ? `, кв. ${r.realty_number}` : ''}
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-wrap' }}>
            {r.text}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
            {r.deadline ? `${translate('resources.service_requests.fields.deadline')}: ${formatDateTime(r.deadline)} · ` : ''}
            {translate('app.staff_chat.responsible')}: {chat.responsible.map((s) => s.name).join(', ') || '—'} · {translate('app.staff_chat.performer')}:{' '}
            {chat.performer.map((s) => s.name).join(', ') || '—'}
          </Typography>
        </Paper>
        {finished && <Alert severity="success">{translate('app.staff_chat.finished')}</Alert>}
        <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column' }}>
          <ChatPanel
            messages={chat.messages}
            accept="image/jpeg,image/png,image/webp,image/gif"
            single
            height="calc(100dvh - 260px)"
            onSend={(message, files) => send(message, files)}
            actions={
              chat.can_finish && (
                <Button
                  fullWidth
                  color="success"
                  variant="outlined"
                  startIcon={<TaskAltOutlined />}
                  onClick={async () => {
                    if (await ask({ title: translate('app.staff_chat.finish_confirm'), confirm: translate('app.staff_chat.finish') }))
                      void send('', [], true).then(() => setFinished(true));
                  }}
                >
                  {translate('app.staff_chat.finish')}
                </Button>
              )
            }
          />
          <Typography variant="caption" color="text.secondary" sx={{ mt: 1, textAlign: 'center' }}>
            {translate('app.staff_chat.link_expires', { date: formatDateTime(chat.expires_at) })}
          </Typography>
        </Box>
      </Stack>
    </ChatLayout>
  );
}
