import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Button, Chip, IconButton, Paper, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { alpha, type Theme } from '@mui/material/styles';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import Send from '@mui/icons-material/Send';
import { useTranslate } from 'react-admin';
import type { ChatMessage } from '../../../contract/serviceRequests';
import { AuthImage } from '../../components/content/AuthImage';
import { downloadAuthorised } from '../../components/content/media';
import { formatDateTime } from '../../lib/dates';
import { useConfirm } from '../../components/useConfirm';

/** Who reads what is written in the chat: staff only (internal) or the resident too. */
export type ChatAudience = 'staff' | 'resident';

/** Each audience's accent: amber for the internal chat, the primary blue for the resident's. */
const ACCENT: Record<ChatAudience, { line: (t: Theme) => string; ink: (t: Theme) => string; tint: (t: Theme) => string; button: 'warning' | 'primary' }> = {
  staff: { line: (t) => t.palette.secondary.main, ink: (t) => t.palette.warning.main, tint: (t) => alpha(t.palette.secondary.main, 0.14), button: 'warning' },
  resident: { line: (t) => t.palette.primary.main, ink: (t) => t.palette.primary.main, tint: (t) => alpha(t.palette.primary.main, 0.07), button: 'primary' },
};

export interface ChatPanelProps {
  title?: ReactNode;
  /**
   * Who reads the chat: its header, colours, the composer's label, placeholder and send button
   * say so. Without it (the performer's link page) the composer is a plain «Повідомлення…».
   */
  audience?: ChatAudience;
  /** The composer's own label and placeholder instead of the audience's (the resident's words recorded by staff). */
  composer?: { label: string; placeholder: string; send: string };
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

/**
 * A request's chat: messages with their files, edit and delete for their author (never for a
 * resident's message), a composer with attachments as wide as the panel.
 */
export function ChatPanel({
  title,
  audience,
  composer,
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

  const accent = audience ? ACCENT[audience] : undefined;
  const words = audience
    ? {
        label: translate(`resources.service_requests.chat.${audience}_label`),
        placeholder: translate(`resources.service_requests.chat.${audience}_placeholder`),
        send: translate(`resources.service_requests.chat.${audience}_send`),
        ...composer,
      }
    : undefined;

  return (
    <Paper
      variant="outlined"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        height,
        minHeight: 280,
        overflow: 'hidden',
        ...(accent && { borderTop: 4, borderTopColor: accent.line }),
      }}
      data-testid={testId}
    >
      {confirmDialog}
      {(title || audience) && (
        <Box sx={{ px: 2, py: 1.25, borderBottom: 1, borderColor: 'divider', bgcolor: accent?.tint }}>
          <Stack direction="row" spacing={1.25} sx={{ alignItems: 'flex-start' }}>
            {audience && (
              <Box sx={{ color: accent?.ink, display: 'flex', pt: title ? 0.25 : 0 }} aria-hidden>
                {audience === 'staff' ? <LockOutlined /> : <PersonOutline />}
              </Box>
            )}
            <Box sx={{ minWidth: 0 }}>
              {title && (
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, lineHeight: 1.4 }}>
                  {title}
                </Typography>
              )}
              {audience && (
                <Typography variant="body2" sx={{ color: 'text.primary' }} data-testid={testId && `${testId}-audience`}>
                  {translate(`resources.service_requests.chat.${audience}_notice`)}
                </Typography>
              )}
            </Box>
          </Stack>
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
                  {m.can_edit && !resident && editing?.id !== m.id && (onEdit || onDelete) && (
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
          sx={{ borderTop: 1, borderColor: 'divider', p: 1.5, bgcolor: accent?.tint }}
        >
          {files.length > 0 && (
            <Stack direction="row" spacing={0.5} sx={{ mb: 1, flexWrap: 'wrap', rowGap: 0.5 }}>
              {files.map((f, i) => (
                <Chip key={`${f.name}-${i}`} size="small" label={f.name} onDelete={() => setFiles(files.filter((_, k) => k !== i))} />
              ))}
            </Stack>
          )}
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
          <TextField
            size="small"
            fullWidth
            multiline
            minRows={words ? 3 : 2}
            maxRows={8}
            variant="outlined"
            label={words?.label}
            helperText={words && translate('resources.service_requests.chat.enter_hint')}
            placeholder={words?.placeholder ?? translate('resources.service_requests.chat.placeholder')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                void send();
              }
            }}
            sx={{ '& .MuiInputBase-root': { bgcolor: 'background.paper' }, '& .MuiFormHelperText-root': { mx: 0 } }}
            slotProps={{
              inputLabel: { shrink: true },
              htmlInput: { maxLength: 4000, ...(!words && { 'aria-label': translate('resources.service_requests.chat.placeholder') }) },
            }}
          />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 1 }}>
            <Tooltip title={translate('resources.service_requests.chat.attach')}>
              <IconButton aria-label={translate('resources.service_requests.chat.attach')} onClick={() => fileInput.current?.click()}>
                <AttachFile />
              </IconButton>
            </Tooltip>
            <Box sx={{ flex: 1 }} />
            <Button
              type="submit"
              variant="contained"
              color={accent?.button ?? 'primary'}
              disabled={sending || (!text.trim() && files.length === 0)}
              endIcon={<Send />}
              sx={{ flex: 'none' }}
            >
              {words?.send ?? translate('resources.service_requests.chat.send')}
            </Button>
          </Stack>
          {actions && <Box sx={{ mt: 1 }}>{actions}</Box>}
        </Box>
      )}
    </Paper>
  );
}
