import { useState } from 'react';
import { Button, Card, CardContent, IconButton, List, ListItem, ListItemText, Stack, TextField, Tooltip, Typography } from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { useCreate, useDelete, useGetList, useNotify, useTranslate, useUpdate } from 'react-admin';
import { departureEntity, type Departure } from '../../../contract/staff';
import { ExportButtons } from '../../components/ExportButtons';
import { useRights } from '../../lib/useRights';
import { useEntityLabels } from '../generic/labels';

/** Departments: add, rename in place, delete (one that holds roles cannot be), export; labels and the API from the declaration (contract/staff.ts). */
export function DepartmentsPanel({ onChanged }: { onChanged: () => void }) {
  const translate = useTranslate();
  const labels = useEntityLabels(departureEntity);
  const notify = useNotify();
  const { data = [] } = useGetList<Departure>('staff-departures', { sort: { field: 'name', order: 'ASC' } });
  const [create] = useCreate();
  const [update] = useUpdate();
  const [remove] = useDelete();
  const { canCreate, canEdit, canDelete } = useRights('staff_roles');
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ id: number; name: string } | null>(null);
  const [error, setError] = useState<string>();

  const failed = (err: unknown) => {
    const body = (err as { body?: { errors?: Record<string, string> } }).body;
    setError(body?.errors?.name ?? (err as Error).message);
  };
  const done = (message: string) => () => {
    setError(undefined);
    onChanged();
    notify(message, { type: 'success' });
  };
  const save = () => {
    if (editing) {
      update(
        'staff-departures',
        { id: editing.id, data: { name: editing.name }, previousData: {} },
        {
          mutationMode: 'pessimistic',
          onSuccess: () => {
            setEditing(null);
            done('resources.staff-departures.notifications.updated')();
          },
          onError: failed,
        },
      );
    } else {
      create(
        'staff-departures',
        { data: { name } },
        {
          onSuccess: () => {
            setName('');
            done('resources.staff-departures.notifications.created')();
          },
          onError: failed,
        },
      );
    }
  };

  return (
    <Card component="section" aria-labelledby="departments-title">
      <CardContent>
        <Typography id="departments-title" variant="h6" component="h2">
          {translate('resources.staff-departures.title')}
        </Typography>
        <List dense>
          {data.map((d) =>
            editing?.id === d.id ? (
              <ListItem key={d.id} disableGutters>
                <TextField
                  size="small"
                  fullWidth
                  autoFocus
                  label={labels.field('name')}
                  value={editing.name}
                  onChange={(e) => setEditing({ id: d.id, name: e.target.value })}
                  error={Boolean(error)}
                  helperText={error}
                />
                <Button onClick={save}>{translate('app.actions.save')}</Button>
                <Button onClick={() => (setEditing(null), setError(undefined))}>{translate('app.actions.cancel')}</Button>
              </ListItem>
            ) : (
              <ListItem
                key={d.id}
                disableGutters
                secondaryAction={
                  <>
                    {canEdit && (
                      <Tooltip title={translate('app.actions.edit')}>
                        <IconButton
                          size="small"
                          aria-label={`${translate('app.actions.edit')}: ${d.name}`}
                          onClick={() => setEditing({ id: d.id, name: d.name })}
                        >
                          <EditOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                    {canDelete && (
                      <Tooltip title={translate('app.actions.delete')}>
                        <IconButton
                          size="small"
                          aria-label={`${translate('app.actions.delete')}: ${d.name}`}
                          onClick={() =>
                            remove(
                              'staff-departures',
                              { id: d.id, previousData: d },
                              {
                                mutationMode: 'pessimistic',
                                onSuccess: done('resources.staff-departures.notifications.deleted'),
                                onError: (err) => notify((err as Error).message, { type: 'error' }),
                              },
                            )
                          }
                        >
                          <DeleteOutline fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                  </>
                }
              >
                <ListItemText primary={d.name} secondary={translate('resources.staff-departures.roles_count', { smart_count: d.roles_count })} />
              </ListItem>
            ),
          )}
        </List>
        {data.length === 0 && <Typography color="text.secondary">{translate('resources.staff-departures.empty')}</Typography>}
        {data.length > 0 && <ExportButtons path={`${departureEntity.path}/export`} filter={{}} />}
        {!editing && canCreate && (
          <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'flex-start' }}>
            <TextField
              size="small"
              fullWidth
              label={labels.field('name')}
              value={name}
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => e.key === 'Enter' && name.trim().length >= 2 && save()}
              error={Boolean(error)}
              helperText={error}
            />
            <Button variant="contained" onClick={save} disabled={name.trim().length < 2}>
              {translate('app.actions.add')}
            </Button>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
