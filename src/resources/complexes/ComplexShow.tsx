import { useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { Box, Button, Card, CardContent, Divider, Stack, Typography } from '@mui/material';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import ApartmentOutlined from '@mui/icons-material/ApartmentOutlined';
import { useGetOne, useTranslate } from 'react-admin';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ErrorPage } from '../../layout/ErrorPage';
import { formatDateTime } from '../../lib/dates';
import { useMinimumDelay } from '../../lib/useMinimumDelay';
import { usePageHeader } from '../../layout/navigation';
import type { Complex } from '../../types';
import { complexEntity } from '../../../contract/complexes';
import { useEntityLabels } from '../generic/labels';
import { ComplexFormDialog } from './ComplexDialogs';
import { useRights } from '../../lib/useRights';

/** /Complex/{id}: one complex. */
export default function ComplexShow() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const { data, isPending, error } = useGetOne<Complex>('complexes', { id }, { retry: false });
  const loading = useMinimumDelay(isPending);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const labels = useEntityLabels(complexEntity);
  const { canEdit, canDelete } = useRights('complexes');
  usePageHeader(data?.name ?? translate('resources.complexes.title'), '/Complex');

  if (error) {
    const status = (error as { status?: number }).status ?? 500;
    return <ErrorPage status={status} message={(error as Error).message} />;
  }
  if (loading || !data) return null;

  const f = labels.field;
  const rows: [string, string][] = [
    [f('name'), data.name],
    [f('city'), data.city],
    [f('address'), data.address || '—'],
    [f('description'), data.description || '—'],
    [f('created_at'), formatDateTime(data.created_at)],
    [f('updated_at'), formatDateTime(data.updated_at)],
  ];
  return (
    <Box sx={{ maxWidth: 960 }}>
      <Stack direction="row" spacing={1} sx={{ mb: 2, justifyContent: 'flex-end' }}>
        <Button variant="contained" startIcon={<ApartmentOutlined />} component={RouterLink} to={`/Complex/${data.id}/houses`}>
          {translate('resources.houses.open_houses')}
        </Button>
        {canEdit && (
          <Button variant="outlined" startIcon={<EditOutlined />} onClick={() => setEditing(true)}>
            {translate('app.actions.edit')}
          </Button>
        )}
        {canDelete && (
          <Button variant="outlined" color="error" startIcon={<DeleteOutline />} onClick={() => setDeleting(true)}>
            {translate('app.actions.delete')}
          </Button>
        )}
      </Stack>
      {data.counts && (
        <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }}>
          {(['houses', 'apartment', 'parking', 'storage', 'commercial', 'residents'] as const).map((k) => (
            <Card key={k} sx={{ minWidth: 140, flex: '1 1 140px' }}>
              <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
                <Typography variant="h5" component="div" data-testid={`count-${k}`}>
                  {data.counts?.[k] ?? 0}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {translate(`resources.houses.counts.${k}`)}
                </Typography>
              </CardContent>
            </Card>
          ))}
        </Stack>
      )}
      <Card>
        <CardContent>
          <Stack divider={<Divider flexItem />} spacing={1.5}>
            {rows.map(([label, value]) => (
              <Stack key={label} direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                <Typography sx={{ width: 200, flexShrink: 0, color: 'text.secondary' }}>{label}</Typography>
                <Typography sx={{ whiteSpace: 'pre-wrap' }}>{value}</Typography>
              </Stack>
            ))}
          </Stack>
        </CardContent>
      </Card>
      <ComplexFormDialog target={editing ? data.id : null} onClose={() => setEditing(false)} />
      <ConfirmDelete
        resource="complexes"
        record={deleting ? data : null}
        name={data.name}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate('/Complex')}
        successMessage="resources.complexes.notifications.deleted"
      />
    </Box>
  );
}
