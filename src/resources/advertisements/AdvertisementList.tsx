import { useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Button, Card, Switch, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useMutation } from '@tanstack/react-query';
import { DataTable, List, SearchInput, SelectInput, TopToolbar, useDataProvider, useNotify, useRefresh, useTranslate, type Identifier } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import type { Advertisement } from '../../../contract/advertisements';
import { ContentBulkActions, hasBulkActions, type PublishChange } from '../../components/bulk';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import type { AppDataProvider } from '../../dataProvider';
import { usePageHeader } from '../../layout/navigation';
import { formatDate } from '../../lib/dates';
import { ListExport } from '../generic/ListExport';
import { useRights } from '../../lib/useRights';

export const advertisementPath = (id: Identifier) => `/Advertisements/${id}`;
const byName = (r: Advertisement) => r.name;
/** The published switch of the selected advertisements. */
const PUBLISH: PublishChange<Advertisement> = { on: { published: 1 }, off: { published: 0 }, offLabel: 'app.bulk.hide', offMessage: 'app.bulk.hidden' };

/** The published switch of a row: POST /advertisement/{id} with published 0/1. */
function PublishedSwitch({ record, disabled }: { record: Advertisement; disabled: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [shown, setShown] = useState<boolean | null>(null);
  const { mutate, isPending } = useMutation({
    mutationFn: (published: boolean) => dataProvider.setAdvertisementPublished(record.id, published),
    onSuccess: (_res, published) => {
      notify(published ? 'resources.advertisements.notifications.published' : 'resources.advertisements.notifications.hidden', { type: 'success' });
      refresh();
    },
    onError: (err) => {
      setShown(null);
      notify((err as Error).message, { type: 'error' });
    },
  });
  const checked = shown ?? record.published === 1;
  return (
    <Switch
      checked={checked}
      disabled={disabled || isPending}
      onClick={(e: MouseEvent) => e.stopPropagation()}
      onChange={(_e, value) => {
        setShown(value);
        mutate(value);
      }}
      slotProps={{ input: { 'aria-label': translate('resources.advertisements.published_switch', { name: record.name }) } }}
    />
  );
}

/** /Advertisements: residents' advertisements, each with its published switch. */
export default function AdvertisementList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState<Advertisement | null>(null);
  const { canCreate, canEdit, canDelete } = useRights('advertisements');
  usePageHeader(translate('resources.advertisements.title'));
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.advertisements.filters.search')} sx={{ minWidth: 280 }} />,
    <SelectInput
      key="published"
      source="published"
      alwaysOn
      label="resources.advertisements.fields.published"
      emptyText="resources.advertisements.filters.all"
      choices={[
        { id: '1', name: 'resources.advertisements.filters.published' },
        { id: '0', name: 'resources.advertisements.filters.hidden' },
      ]}
    />,
  ];
  return (
    <Box>
      <List<Advertisement>
        resource="advertisements"
        title={false}
        filters={filters}
        perPage={10}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50]} />}
        sort={{ field: 'created_at', order: 'DESC' }}
        exporter={false}
        empty={
          <Card sx={{ p: 4, textAlign: 'center', mt: 2 }}>
            <Typography>{translate('resources.advertisements.empty')}</Typography>
          </Card>
        }
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 1 }}>
            <ListExport path="/advertisement" />
            {canCreate && (
              <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => navigate('/Advertisements/create')}>
                {translate('app.actions.add')}
              </Button>
            )}
          </TopToolbar>
        }
      >
        <DataTable<Advertisement>
          rowClick={(id) => advertisementPath(id)}
          bulkActionButtons={
            hasBulkActions({ publish: PUBLISH, canEdit, canDelete }) ? (
              <ContentBulkActions<Advertisement> name={byName} publish={PUBLISH} canEdit={canEdit} canDelete={canDelete} />
            ) : (
              false
            )
          }
        >
          <DataTable.Col source="name" />
          <DataTable.Col source="address" disableSort />
          <DataTable.Col source="created_at" render={(r) => formatDate(r.created_at)} />
          <DataTable.Col source="published" render={(r) => <PublishedSwitch record={r as Advertisement} disabled={!canEdit} />} />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => (
              <RowActionsMenu onOpen={() => navigate(advertisementPath(r.id))} onDelete={canDelete ? () => setDeleting(r as Advertisement) : undefined} />
            )}
          />
        </DataTable>
      </List>
      <ConfirmDelete
        resource="advertisements"
        record={deleting}
        name={deleting?.name ?? ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.advertisements.notifications.deleted"
      />
    </Box>
  );
}
