import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControlLabel,
  IconButton,
  InputAdornment,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Paper,
  Stack,
  Tab,
  Tabs,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import AddPhotoAlternateOutlined from '@mui/icons-material/AddPhotoAlternateOutlined';
import ContentCopy from '@mui/icons-material/ContentCopy';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import LinkIcon from '@mui/icons-material/Link';
import LockOutlined from '@mui/icons-material/LockOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import type { ChatType, RequestStage, ServiceRequestDetail, ServiceRequestForm } from '../../../contract/serviceRequests';
import { AuthImage } from '../../components/content/AuthImage';
import { downloadAuthorised } from '../../components/content/media';
import { usePageHeader } from '../../layout/navigation';
import { formatDateTime } from '../../lib/dates';
import { useRights } from '../../lib/useRights';
import { useLiveEvents } from '../../lib/live';
import { requestApi } from '../../resources/service-requests/api';
import { ChatPanel } from './ChatPanel';
import { STAGE_ICONS, StageChip } from '../../resources/service-requests/StageChip';

const errorText = (err: unknown) => {
  const e = err as { message?: string; body?: { errors?: Record<string, string> } };
  const fields = e.body?.errors ? Object.values(e.body.errors).filter(Boolean) : [];
  return fields.length ? fields.join(' ') : (e.message ?? String(err));
};

function Section({ title, children, action }: { title: string; children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1.5, flexWrap: 'wrap', columnGap: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 500, flex: '1 1 12em' }}>
          {title}
        </Typography>
        {action}
      </Stack>
      {children}
    </Paper>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div">
        {children}
      </Typography>
    </Box>
  );
}

/** /Requests/{id}: details, stage actions, assignment, media, the two chats, chat links and history — live. */
export default function RequestShow() {
  const { id } = useParams();
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('lg'));
  const { canEdit, canDelete } = useRights('service_requests');
  const [request, setRequest] = useState<ServiceRequestDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<ServiceRequestForm | null>(null);
  const [moving, setMoving] = useState<RequestStage | null>(null);
  const [comment, setComment] = useState('');
  const [performerId, setPerformerId] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const [tab, setTab] = useState<ChatType>('staff_chat');
  const [deleting, setDeleting] = useState(false);
  const [newLink, setNewLink] = useState<string | null>(null);
  const [asResident, setAsResident] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  usePageHeader(
    request ? translate('resources.service_requests.show_title', { number: request.number }) : translate('resources.service_requests.name', { smart_count: 1 }),
    '/Requests',
  );

  const load = useCallback(() => {
    if (!id) return;
    requestApi.get(id).then(
      (r) => {
        setRequest(r);
        setError(null);
      },
      (err: { status?: number; message?: string }) => setError(err.message ?? String(err)),
    );
  }, [id]);
  useEffect(load, [load]);
  useEffect(() => {
    requestApi.form().then(setForm, () => setForm(null));
  }, []);
  useLiveEvents((type, data) => {
    if (type !== 'notification' && (data.request_id === null || String(data.request_id) === id)) load();
  });

  if (error && !request)
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {error}
      </Alert>
    );
  if (!request) return <CircularProgress sx={{ m: 4 }} aria-label={translate('ra.page.loading')} />;

  const staffHere = (form?.responsible ?? []).filter(
    (s) => s.complex_ids === null || (request.complex_id !== null && s.complex_ids.includes(request.complex_id)),
  );
  const save = async (body: Parameters<typeof requestApi.update>[1], message = 'resources.service_requests.notifications.updated') => {
    setBusy(true);
    try {
      setRequest(await requestApi.update(request.id, body));
      notify(message, { type: 'success' });
    } catch (err) {
      notify(errorText(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const actionLabel = (to: RequestStage) =>
    translate(`resources.service_requests.stage_actions.${to === 'underReview' && request.stage !== 'new' ? 'reopen' : to}`);
  const confirmMove = async () => {
    if (!moving) return;
    setBusy(true);
    try {
      setRequest(await requestApi.move(request.id, moving, comment.trim(), moving === 'executor' && performerId ? Number(performerId) : undefined));
      notify('resources.service_requests.notifications.moved', { type: 'success' });
      setMoving(null);
    } catch (err) {
      notify(errorText(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const addFiles = async (files: File[]) => {
    setBusy(true);
    try {
      const uploaded = [];
      for (const f of files) uploaded.push(await requestApi.upload(f));
      setRequest(await requestApi.update(request.id, { media_ids: [...request.media_ids, ...uploaded.map((u) => u.id)] }));
    } catch (err) {
      notify(errorText(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const chat = (type: ChatType) => (
    <ChatPanel
      testId={type}
      title={narrow ? undefined : translate(`resources.service_requests.chat.${type}`)}
      audience={type === 'staff_chat' ? 'staff' : 'resident'}
      composer={
        type === 'member_chat' && asResident
          ? {
              label: translate('resources.service_requests.chat.recorded_label', { name: request.member_name ?? '' }),
              placeholder: translate('resources.service_requests.chat.recorded_placeholder'),
              send: translate('resources.service_requests.chat.recorded_send'),
            }
          : undefined
      }
      messages={request[type]}
      onSend={
        canEdit
          ? async (message, files) => {
              try {
                await requestApi.post(request.id, type, message, files, type === 'member_chat' && asResident);
              } catch (err) {
                throw new Error(errorText(err));
              }
              load();
            }
          : undefined
      }
      onEdit={async (commentId, message) => {
        await requestApi.editComment(commentId, message);
        load();
      }}
      onDelete={async (commentId) => {
        await requestApi.deleteComment(commentId);
        load();
      }}
      height={narrow ? 600 : 640}
      actions={
        type === 'member_chat' &&
        canEdit &&
        request.member_id !== null && (
          <FormControlLabel
            control={<Checkbox size="small" checked={asResident} onChange={(e) => setAsResident(e.target.checked)} />}
            label={<Typography variant="body2">{translate('resources.service_requests.chat.as_resident', { name: request.member_name ?? '' })}</Typography>}
          />
        )
      }
    />
  );
  const staffPicker = (field: 'responsible_id' | 'performer_id') => (
    <TextField
      select
      size="small"
      fullWidth
      disabled={!canEdit || busy}
      label={translate(`resources.service_requests.fields.${field}`)}
      value={request[field] === null ? '' : String(request[field])}
      onChange={(e) => void save({ [field]: e.target.value === '' ? null : Number(e.target.value) })}
    >
      <MenuItem value="">{translate('resources.service_requests.nobody')}</MenuItem>
      {staffHere.map((s) => (
        <MenuItem key={s.id} value={String(s.id)}>
          {s.name}
        </MenuItem>
      ))}
      {request[field] !== null && !staffHere.some((s) => s.id === request[field]) && (
        <MenuItem value={String(request[field])}>{(field === 'responsible_id' ? request.responsible : request.performer)?.name ?? '—'}</MenuItem>
      )}
    </TextField>
  );

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)' }}>
      {busy && <Box sx={{ position: 'fixed', top: 0, left: 0, right: 0, height: 2, bgcolor: 'primary.main', zIndex: 2000 }} />}
      <Stack spacing={2}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, flex: 1 }}>
              <Typography variant="h6" component="h2" sx={{ mr: 1 }}>
                №{request.number}
              </Typography>
              <StageChip stage={request.stage} size="medium" data-testid="request-stage" />
              <Chip
                size="small"
                label={translate(`resources.service_requests.priorities.${request.priority}`)}
                color={request.priority === 'urgent' ? 'error' : request.priority === 'high' ? 'warning' : 'default'}
                variant="outlined"
              />
              {request.overdue && <Chip size="small" color="error" label={translate('resources.service_requests.overdue')} />}
            </Stack>
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
              {canEdit &&
                request.transitions.map((to) => (
                  <Button
                    key={to}
                    variant={to === 'underReview' && request.stage !== 'new' ? 'outlined' : 'contained'}
                    startIcon={STAGE_ICONS[to]}
                    onClick={() => {
                      setComment('');
                      setPerformerId(request.performer_id ? String(request.performer_id) : '');
                      setMoving(to);
                    }}
                  >
                    {actionLabel(to)}
                  </Button>
                ))}
              {canDelete && (
                <Tooltip title={translate('app.actions.delete')}>
                  <IconButton aria-label={translate('app.actions.delete')} onClick={() => setDeleting(true)}>
                    <DeleteOutline />
                  </IconButton>
                </Tooltip>
              )}
            </Stack>
          </Stack>
        </Paper>

        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(300px, 340px) minmax(0, 1fr)' }, alignItems: 'start' }}>
          <Stack spacing={2}>
            <Section title={translate('resources.service_requests.sections.details')}>
              <Stack spacing={1.5}>
                <Field label={translate('resources.service_requests.fields.text')}>
                  <Box sx={{ whiteSpace: 'pre-wrap' }}>{request.text}</Box>
                </Field>
                <Field label={translate('resources.service_requests.fields.type_id')}>{request.type ?? '—'}</Field>
                <Field label={translate('resources.service_requests.fields.house_id')}>
                  {request.address}
                  {request.realty_number ? `, кв. ${request.realty_number}` : ''}
                  {request.complex_name ? ` · ${request.complex_name}` : ''}
                </Field>
                <Field label={translate('resources.service_requests.fields.member_id')}>
                  {request.member_name ? `${request.member_name}${request.member_phone ? `, ${request.member_phone}` : ''}` : '—'}
                </Field>
                <Stack direction="row" spacing={3}>
                  <Field label={translate('resources.service_requests.fields.created_at')}>{formatDateTime(request.created_at)}</Field>
                  <Field label={translate('resources.service_requests.fields.deadline')}>
                    <Box component="span" sx={{ color: request.overdue ? 'error.main' : undefined }}>
                      {request.deadline ? formatDateTime(request.deadline) : '—'}
                    </Box>
                  </Field>
                </Stack>
                <Divider />
                {staffPicker('responsible_id')}
                {staffPicker('performer_id')}
              </Stack>
            </Section>
            <Section
              title={translate('resources.service_requests.sections.media')}
              action={
                canEdit && (
                  <>
                    <input
                      ref={fileInput}
                      type="file"
                      hidden
                      multiple
                      accept="image/jpeg,image/png,image/webp,image/gif,application/pdf"
                      data-testid="gallery-file-input"
                      onChange={(e) => {
                        const files = Array.from(e.target.files ?? []);
                        e.target.value = '';
                        if (files.length) void addFiles(files);
                      }}
                    />
                    <Tooltip title={translate('resources.service_requests.add_files')}>
                      <IconButton aria-label={translate('resources.service_requests.add_files')} onClick={() => fileInput.current?.click()}>
                        <AddPhotoAlternateOutlined />
                      </IconButton>
                    </Tooltip>
                  </>
                )
              }
            >
              {request.media.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  {translate('resources.service_requests.no_media')}
                </Typography>
              ) : (
                <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(96px, 1fr))', gap: 1 }}>
                  {request.media.map((f) =>
                    f.kind === 'image' ? (
                      <Box
                        key={f.id}
                        component="button"
                        type="button"
                        onClick={() => void downloadAuthorised(f.url, f.name)}
                        sx={{ p: 0, border: 0, bgcolor: 'transparent', cursor: 'pointer' }}
                        aria-label={f.name}
                      >
                        <AuthImage src={f.url} alt={f.name} sx={{ width: '100%', height: 80, borderRadius: 1 }} />
                      </Box>
                    ) : (
                      <Chip
                        key={f.id}
                        icon={<PictureAsPdfOutlined />}
                        label={f.name}
                        onClick={() => void downloadAuthorised(f.url, f.name)}
                        sx={{ height: 80, borderRadius: 1 }}
                      />
                    ),
                  )}
                </Box>
              )}
            </Section>
            {canEdit && (
              <Section
                title={translate('resources.service_requests.sections.links')}
                action={
                  <Button
                    size="small"
                    startIcon={<LinkIcon />}
                    disabled={request.performer_id === null}
                    onClick={() =>
                      requestApi.createLink(request.id).then(
                        (link) => {
                          setNewLink(link.url);
                          load();
                        },
                        (err) => notify(errorText(err), { type: 'error' }),
                      )
                    }
                  >
                    {translate('resources.service_requests.links.create')}
                  </Button>
                }
              >
                {newLink && (
                  <Alert severity="success" sx={{ mb: 1 }} onClose={() => setNewLink(null)}>
                    {translate('resources.service_requests.links.created')}
                    <TextField
                      size="small"
                      fullWidth
                      value={newLink}
                      sx={{ mt: 1 }}
                      slotProps={{
                        htmlInput: { readOnly: true, 'data-testid': 'chat-link-url' },
                        input: {
                          endAdornment: (
                            <InputAdornment position="end">
                              <IconButton
                                size="small"
                                aria-label={translate('resources.service_requests.links.copy')}
                                onClick={() =>
                                  void navigator.clipboard?.writeText(newLink).then(() => notify('resources.service_requests.links.copied', { type: 'info' }))
                                }
                              >
                                <ContentCopy fontSize="small" />
                              </IconButton>
                            </InputAdornment>
                          ),
                        },
                      }}
                    />
                  </Alert>
                )}
                {request.chat_links.length === 0 ? (
                  <Typography variant="body2" color="text.secondary">
                    {translate('resources.service_requests.links.none')}
                  </Typography>
                ) : (
                  <List dense disablePadding>
                    {request.chat_links.map((l) => (
                      <ListItem
                        key={l.id}
                        disableGutters
                        secondaryAction={
                          l.active && (
                            <Button
                              size="small"
                              color="warning"
                              onClick={() => requestApi.revokeLink(request.id, l.id).then(load, (err) => notify(errorText(err), { type: 'error' }))}
                            >
                              {translate('resources.service_requests.links.revoke')}
                            </Button>
                          )
                        }
                      >
                        <ListItemText
                          primary={l.user_name}
                          secondary={
                            l.revoked_at
                              ? translate('resources.service_requests.links.revoked')
                              : l.active
                                ? translate('resources.service_requests.links.active_until', { date: formatDateTime(l.expires_at) })
                                : translate('resources.service_requests.links.expired')
                          }
                        />
                      </ListItem>
                    ))}
                  </List>
                )}
              </Section>
            )}
            <Section title={translate('resources.service_requests.sections.history')}>
              <List dense disablePadding data-testid="request-history">
                {request.history.map((h) => (
                  <ListItem key={h.id} disableGutters alignItems="flex-start">
                    <ListItemText
                      primary={
                        h.kind === 'stage'
                          ? h.from === null
                            ? `${h.user_name} ${translate('resources.service_requests.history_created')}`
                            : `${h.user_name}: ${translate('resources.service_requests.history_stage', {
                                from: translate(`resources.service_requests.stages.${h.from}`),
                                to: translate(`resources.service_requests.stages.${h.to}`),
                              })}`
                          : `${h.user_name}: ${h.comment}`
                      }
                      secondary={`${formatDateTime(h.created_at)}${h.kind === 'stage' && h.from !== null && h.comment ? ` · ${h.comment}` : ''}`}
                    />
                  </ListItem>
                ))}
              </List>
            </Section>
          </Stack>
          <Box>
            {narrow ? (
              <Paper variant="outlined">
                <Tabs value={tab} onChange={(_, v: ChatType) => setTab(v)} variant="fullWidth">
                  <Tab
                    value="staff_chat"
                    icon={<LockOutlined fontSize="small" />}
                    iconPosition="start"
                    sx={{ minHeight: 48 }}
                    label={`${translate('resources.service_requests.chat.staff_chat')} (${request.staff_chat.length})`}
                  />
                  <Tab
                    value="member_chat"
                    icon={<PersonOutline fontSize="small" />}
                    iconPosition="start"
                    sx={{ minHeight: 48 }}
                    label={`${translate('resources.service_requests.chat.member_chat')} (${request.member_chat.length})`}
                  />
                </Tabs>
                {chat(tab)}
              </Paper>
            ) : (
              // Side by side while each keeps room to write; one above the other when the column is narrower.
              <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 340px), 1fr))', gap: 2 }}>
                {chat('staff_chat')}
                {chat('member_chat')}
              </Box>
            )}
          </Box>
        </Box>
      </Stack>

      <Dialog open={moving !== null} onClose={() => setMoving(null)} maxWidth="sm" fullWidth>
        <DialogTitle>{moving ? actionLabel(moving) : ''}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {moving === 'executor' && (
              <TextField
                select
                label={translate('resources.service_requests.fields.performer_id')}
                value={performerId}
                onChange={(e) => setPerformerId(e.target.value)}
                required
              >
                {staffHere.map((s) => (
                  <MenuItem key={s.id} value={String(s.id)}>
                    {s.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <TextField
              label={translate('resources.service_requests.fields.comment')}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              multiline
              minRows={2}
              slotProps={{ htmlInput: { maxLength: 1000 } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setMoving(null)}>{translate('app.actions.cancel')}</Button>
          <Button variant="contained" onClick={() => void confirmMove()} disabled={busy || (moving === 'executor' && !performerId)}>
            {translate('resources.service_requests.move_dialog.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
      <Confirm
        isOpen={deleting}
        title={translate('app.actions.delete')}
        content={translate('resources.service_requests.confirm_delete', { number: request.number })}
        confirm={translate('app.actions.delete')}
        cancel={translate('app.actions.cancel')}
        confirmColor="warning"
        onClose={() => setDeleting(false)}
        onConfirm={() =>
          requestApi.remove(request.id).then(
            () => {
              notify('resources.service_requests.notifications.deleted', { type: 'success' });
              navigate('/Requests');
            },
            (err) => notify(errorText(err), { type: 'error' }),
          )
        }
      />
    </Box>
  );
}
