import { useState } from 'react';
import { Box, Button, IconButton, List, ListItem, ListItemText, Stack, TextField, Tooltip, Typography } from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { useCreate, useDelete, useGetList, useNotify, useTranslate, useUpdate } from 'react-admin';
import { houseTypeEntity, type HouseType } from '../../../contract/houses';
import { ExportButtons } from '../../components/ExportButtons';
import { FormDialog } from '../../components/FormDialog';
import { useRights } from '../../lib/useRights';
import { useEntityLabels } from '../generic/labels';

/**
 * House types are managed next to the houses: add, rename, delete (a type in use cannot be
 * deleted), export. A dialog of its own over the houses list; labels and the API come from the
 * declaration (contract/houses.ts).
 */
export function HouseTypesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const labels = useEntityLabels(houseTypeEntity);
  const notify = useNotify();
  const { data = [], refetch } = useGetList<HouseType>(
    'house-types',
    { pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } },
    { enabled: open },
  );
  const [create] = useCreate();
  const [update] = useUpdate();
  const [remove] = useDelete();
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ id: number; name: string } | null>(null);
  const [error, setError] = useState<string>();
  const { canCreate, canEdit, canDelete } = useRights('houses');

  const failed = (err: unknown) => {
    const body = (err as { body?: { errors?: Record<string, string> } }).body;
    setError(body?.errors?.name ?? (err as Error).message);
  };
  const save = () => {
    setError(undefined);
    if (editing) {
      update(
        'house-types',
        { id: editing.id, data: { name: editing.name }, previousData: {} },
        {
          mutationMode: 'pessimistic',
          onSuccess: () => {
            setEditing(null);
            refetch();
          },
          onError: failed,
        },
      );
    } else {
      create(
        'house-types',
        { data: { name } },
        {
          onSuccess: () => {
            setName('');
            refetch();
            notify('resources.house-types.notifications.created', { type: 'success' });
          },
          onError: failed,
        },
      );
    }
  };

  return (
    <FormDialog open={open} onClose={onClose} title={translate('resources.house-types.title')} size="small">
      <List dense>
        {data.map((t) =>
          editing?.id === t.id ? (
            <ListItem key={t.id} disableGutters>
              <TextField
                size="small"
                fullWidth
                autoFocus
                value={editing.name}
                onChange={(e) => setEditing({ id: t.id, name: e.target.value })}
                error={Boolean(error)}
                helperText={error}
              />
              <Button onClick={save}>{translate('app.actions.save')}</Button>
            </ListItem>
          ) : (
            <ListItem
              key={t.id}
              disableGutters
              secondaryAction={
                <>
                  {canEdit && (
                    <Tooltip title={translate('app.actions.edit')}>
                      <IconButton
                        size="small"
                        aria-label={`${translate('app.actions.edit')}: ${t.name}`}
                        onClick={() => setEditing({ id: t.id, name: t.name })}
                      >
                        <EditOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  {canDelete && (
                    <Tooltip title={translate('app.actions.delete')}>
                      <IconButton
                        size="small"
                        aria-label={`${translate('app.actions.delete')}: ${t.name}`}
                        onClick={() =>
                          remove(
                            'house-types',
                            { id: t.id, previousData: t },
                            {
                              mutationMode: 'pessimistic',
                              onSuccess: () => refetch(),
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
              <ListItemText primary={t.name} secondary={translate('resources.house-types.houses_count', { smart_count: t.houses_count })} />
            </ListItem>
          ),
        )}
      </List>
      {data.length === 0 && <Typography color="text.secondary">{translate('resources.house-types.empty')}</Typography>}
      {!editing && canCreate && (
        <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'flex-start' }}>
          <TextField
            size="small"
            fullWidth
            label={labels.field('name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={Boolean(error)}
            helperText={error}
          />
          <Button variant="contained" onClick={save} disabled={name.trim().length < 2}>
            {translate('app.actions.add')}
          </Button>
        </Stack>
      )}
      {data.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <ExportButtons path={`${houseTypeEntity.path}/export`} filter={{}} />
        </Box>
      )}
      <Box sx={{ height: 8 }} />
    </FormDialog>
  );
}
