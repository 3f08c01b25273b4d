import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Box, Button, Card, CardContent, Divider, Stack, Typography } from '@mui/material';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import { useGetOne, useTranslate } from 'react-admin';
import type { CommunityEvent } from '../../../contract/events';
import { AuthImage } from '../../components/content/AuthImage';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ErrorPage } from '../../layout/ErrorPage';
import { usePageHeader } from '../../layout/navigation';
import { useMinimumDelay } from '../../lib/useMinimumDelay';
import { audienceText } from '../articles/ArticleList';
import { EventStateChip, eventTime } from './EventList';
import { useRights } from '../../lib/useRights';

/** /Events/{id}: one event of the poster. */
export default function EventShow() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const { data, isPending, error } = useGetOne<CommunityEvent>('events', { id: Number(id) }, { retry: false, enabled: /^\d+$/.test(id) });
  const loading = useMinimumDelay(isPending);
  const [deleting, setDeleting] = useState(false);
  const { canEdit, canDelete } = useRights('events');
  usePageHeader(data?.title ?? translate('resources.events.title'), '/Events');

  if (!/^\d+$/.test(id)) return <ErrorPage status={404} message="" />;
  if (error) return <ErrorPage status={(error as { status?: number }).status ?? 500} message={(error as Error).message} />;
  if (loading || !data) return null;
  return (
    <Box sx={{ maxWidth: 960 }}>
      <Stack direction="row" spacing={1} sx={{ mb: 2, justifyContent: 'flex-end' }}>
        {canEdit && (
          <Button variant="outlined" startIcon={<EditOutlined />} onClick={() => navigate(`/Events/edit/${data.id}`)}>
            {translate('app.actions.edit')}
          </Button>
        )}
        {canDelete && (
          <Button variant="outlined" color="error" startIcon={<DeleteOutline />} onClick={() => setDeleting(true)}>
            {translate('app.actions.delete')}
          </Button>
        )}
      </Stack>
      <Card>
        {data.image_url && <AuthImage src={data.image_url} alt={data.title} sx={{ width: '100%', height: 320 }} />}
        <CardContent>
          <EventStateChip state={data.state} />
          <Typography variant="h5" component="h1" sx={{ my: 1 }}>
            {data.title}
          </Typography>
          <Stack spacing={0.5} sx={{ mb: 2, color: 'text.secondary' }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <ScheduleOutlined fontSize="small" />
              <Typography variant="body2">{eventTime(data)}</Typography>
            </Stack>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <PlaceOutlined fontSize="small" />
              <Typography variant="body2">{data.place}</Typography>
            </Stack>
          </Stack>
          {data.description && <Typography sx={{ whiteSpace: 'pre-wrap' }}>{data.description}</Typography>}
          <Divider sx={{ my: 2 }} />
          <Typography variant="body2" color="text.secondary">
            {translate('app.audience.label')}: {audienceText(data, translate)}
          </Typography>
        </CardContent>
      </Card>
      <ConfirmDelete
        resource="events"
        record={deleting ? data : null}
        name={data.title}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate('/Events')}
        successMessage="resources.events.notifications.deleted"
      />
    </Box>
  );
}
