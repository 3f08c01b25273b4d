import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Button, Chip, IconButton, Paper, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import Send from '@mui/icons-material/Send';
import { useTranslate } from 'react-admin';
import type { ChatMessage } from '../../../contract/serviceRequests';
import { AuthImage } from '../../components/content/AuthImage';
import { downloadAuthorised } from '../../components/content/media';
import { formatDateTime } from '../../lib/dates';
import { useConfirm } from '../../components/useConfirm';

export interface ChatPanelProps {
  title?: ReactNode;
  messages: ChatMessage[];
  /** Sends a message with files; rejects with an Error whose message is shown. */
  onSend?: (message: string, files: File[]) => Promise<unknown>;
  onEdit?: (id: number, message: string) => Promise<unknown>;
  onDelete?: (id: number) => Promise<unknown>;
  /** Accepted attachments; one file only when `single`. */
  accept?: string;
  single?: boolean;
  /** Extra controls beside the send button (the link chat's «Роботу виконано»). */
  actions?: ReactNode;
  height?: number | string;
  testId?: string;
}

/** A request's chat: messages with their files, edit and delete for their author, a composer with attachments. */
export function ChatPanel({
  title,
  messages,
  onSend,
  onEdit,
  onDelete,
  accept = 'image/jpeg,image/png,image/webp,image/gif,application/pdf',
  single,
  actions,
  height = 420,
  testId,
}: ChatPanelProps) {
  const translate = useTranslate();
  const [ask, confirmDialog] = useConfirm();
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ id: number; text: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const bottom = useRef<HTMLDivElement>(null);

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'nearest' });
  }, [messages.length]);

  const send = async () => {
    if (!onSend || sending || (!text.trim() && files.length === 0)) return;
    setSending(true);
    setError(null);
    try {
      await onSend(text.trim(), files);
      setText('');
      setFiles([]);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setSending(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ display: 'flex', flexDirection: 'column', height, minHeight: 280 }} data-testid={testId}>
      {confirmDialog}
      {title && (
        <Box sx={{ px: 2, py: 1.25, borderBottom: 1, borderColor: 'divider' }}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 500 }}>
            {title}
          </Typography>
        </Box>
      )}
      <Box sx={{ flex: 1, overflowY: 'auto', px: 2, py: 1.5, bgcolor: 'grey.50' }} role="log" aria-live="polite">
        {messages.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', mt: 4 }}>
            {translate('resources.service_requests.chat.empty')}
          </Typography>
        )}
        <Stack spacing={1.25}>
          {messages.map((m) => {
            const resident = m.author.kind === 'resident';
            return (
              <Box key={m.id} sx={{ alignSelf: resident ? 'flex-start' : 'flex-end', maxWidth: '88%' }} data-testid="chat-message">
                <Paper
                  elevation={0}
                  sx={{
                    px: 1.5,
                    py: 1,
                    bgcolor: (t) => (resident ? t.palette.background.paper : alpha(t.palette.primary.main, 0.08)),
                    border: 1,
                    borderColor: (t) => (resident ? t.palette.divider : alpha(t.palette.primary.main, 0.2)),
                    borderRadius: 2,
                  }}
                >
                  <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'baseline', mb: 0.25, flexWrap: 'wrap', columnGap: 1, rowGap: 0 }}>
                    <Typography variant="caption" sx={{ fontWeight: 600 }}>
                      {m.author.name}
                    </Typography>
                    {(resident || m.author.via_link) && (
                      <Typography variant="caption" color="text.secondary">
                        {translate(resident ? 'resources.service_requests.chat.resident' : 'resources.service_requests.chat.via_link')}
                      </Typography>
                    )}
                    <Typography variant="caption" color="text.secondary" sx={{ ml: 'auto', whiteSpace: 'nowrap' }}>
                      {formatDateTime(m.created_at)}
                      {m.edited_at ? ` · ${translate('resources.service_requests.chat.edited')}` : ''}
                    </Typography>
                  </Stack>
                  {editing?.id === m.id ? (
                    <Stack spacing={1}>
                      <TextField size="small" multiline autoFocus value={editing.text} onChange={(e) => setEditing({ id: m.id, text: e.target.value })} />
                      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                        <Button size="small" onClick={() => setEditing(null)}>
                          {translate('resources.service_requests.chat.cancel')}
                        </Button>
                        <Button
                          size="small"
                          variant="contained"
                          disabled={!editing.text.trim()}
                          onClick={() => {
                            onEdit?.(m.id, editing.text.trim()).then(
                              () => setEditing(null),
                              (err: Error) => setError(err.message),
                            );
                          }}
                        >
                          {translate('resources.service_requests.chat.save')}
                        </Button>
                      </Stack>
                    </Stack>
                  ) : (
                    m.message && (
                      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                        {m.message}
                      </Typography>
                    )
                  )}
                  {m.files.length > 0 && (
                    <Stack direction="row" spacing={1} sx={{ mt: 0.75, flexWrap: 'wrap', rowGap: 1 }}>
                      {m.files.map((f) =>
                        f.kind === 'image' ? (
                          <Box
                            key={f.id}
                            component="button"
                            type="button"
                            onClick={() => void downloadAuthorised(f.url, f.name)}
                            sx={{ p: 0, border: 0, cursor: 'pointer', bgcolor: 'transparent' }}
                            aria-label={f.name}
                          >
                            <AuthImage src={f.url} alt={f.name} sx={{ width: 96, height: 72, borderRadius: 1 }} />
                          </Box>
                        ) : (
                          <Chip key={f.id} icon={<PictureAsPdfOutlined />} label={f.name} size="small" onClick={() => void downloadAuthorised(f.url, f.name)} />
                        ),
                      )}
                    </Stack>
                  )}
                  {m.can_edit && editing?.id !== m.id && (onEdit || onDelete) && (
                    <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 0.25, mb: -0.5 }}>
                      {onEdit && m.message && (
                        <Tooltip title={translate('resources.service_requests.chat.edit')}>
                          <IconButton
                            size="small"
                            aria-label={translate('resources.service_requests.chat.edit')}
                            onClick={() => setEditing({ id: m.id, text: m.message })}
                          >
                            <EditOutlined sx={{ fontSize: 16 }} />
                          </IconButton>
                        </Tooltip>
                      )}
                      {onDelete && (
                        <Tooltip title={translate('resources.service_requests.chat.delete')}>
                          <IconButton
                            size="small"
                            aria-label={translate('resources.service_requests.chat.delete')}
                            onClick={async () => {
                              if (await ask({ title: translate('resources.service_requests.chat.confirm_delete'), confirm: translate('app.actions.delete') }))
                                onDelete(m.id).catch((err: Error) => setError(err.message));
                            }}
                          >
                            <DeleteOutline sx={{ fontSize: 16 }} />
                          </IconButton>
                        </Tooltip>
                      )}
                    </Stack>
                  )}
                </Paper>
              </Box>
            );
          })}
        </Stack>
        <div ref={bottom} />
      </Box>
      {error && (
        <Alert severity="error" onClose={() => setError(null)} sx={{ borderRadius: 0 }}>
          {error}
        </Alert>
      )}
      {onSend && (
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
          sx={{ borderTop: 1, borderColor: 'divider', p: 1 }}
        >
          {files.length > 0 && (
            <Stack direction="row" spacing={0.5} sx={{ mb: 1, flexWrap: 'wrap', rowGap: 0.5 }}>
              {files.map((f, i) => (
                <Chip key={`${f.name}-${i}`} size="small" label={f.name} onDelete={() => setFiles(files.filter((_, k) => k !== i))} />
              ))}
            </Stack>
          )}
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-end' }}>
            <input
              ref={fileInput}
              type="file"
              hidden
              accept={accept}
              multiple={!single}
              data-testid="chat-file-input"
              onChange={(e) => {
                const picked = Array.from(e.target.files ?? []);
                setFiles(single ? picked.slice(0, 1) : [...files, ...picked].slice(0, 5));
                e.target.value = '';
              }}
            />
            <Tooltip title={translate('resources.service_requests.chat.attach')}>
              <IconButton aria-label={translate('resources.service_requests.chat.attach')} onClick={() => fileInput.current?.click()}>
                <AttachFile />
              </IconButton>
            </Tooltip>
            <TextField
              size="small"
              fullWidth
              multiline
              maxRows={5}
              placeholder={translate('resources.service_requests.chat.placeholder')}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  void send();
                }
              }}
              slotProps={{ htmlInput: { 'aria-label': translate('resources.service_requests.chat.placeholder'), maxLength: 4000 } }}
            />
            <Button type="submit" variant="contained" disabled={sending || (!text.trim() && files.length === 0)} endIcon={<Send />} sx={{ flex: 'none' }}>
              {translate('resources.service_requests.chat.send')}
            </Button>
          </Stack>
          {actions && <Box sx={{ mt: 1 }}>{actions}</Box>}
        </Box>
      )}
    </Paper>
  );
}
