import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Box, Button, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import LinkIcon from '@mui/icons-material/AddLink';
import CategoryOutlined from '@mui/icons-material/CategoryOutlined';
import { Confirm, DataTable, List, SearchInput, TopToolbar, useGetOne, useNotify, useRefresh, useTranslate, type Identifier } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import type { House } from '../../../contract/houses';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { apiFetch } from '../../dataProvider/http';
import { usePageHeader } from '../../layout/navigation';
import type { Complex } from '../../types';
import { HouseTypesDialog } from '../house-types/HouseTypesDialog';
import { AttachHousesDialog } from './AttachHousesDialog';
import { HouseFormDialog } from './HouseFormDialog';
import { useRights } from '../../lib/useRights';

/** /Complex/{id}/houses: the complex's houses — create, attach existing, edit, unlink, delete. */
export default function ComplexHouses() {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { id = '' } = useParams();
  const complexId = Number(id);
  const { data: complex } = useGetOne<Complex>('complexes', { id: complexId }, { enabled: Number.isInteger(complexId) });
  usePageHeader(complex ? `${complex.name}: ${translate('resources.houses.title')}` : translate('resources.houses.title'), `/Complex/${id}`);
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [attaching, setAttaching] = useState(false);
  const [types, setTypes] = useState(false);
  const [unlinking, setUnlinking] = useState<House | null>(null);
  const [deleting, setDeleting] = useState<House | null>(null);
  const { canCreate, canEdit } = useRights('houses');

  const unlink = async (house: House) => {
    try {
      await apiFetch('/houses/unlink', { method: 'POST', body: { house_ids: [house.id] } });
      notify('resources.houses.notifications.unlinked', { type: 'success' });
      refresh();
    } catch (err) {
      notify((err as Error).message, { type: 'error' });
    } finally {
      setUnlinking(null);
    }
  };

  return (
    <Box>
      <List<House>
        resource="houses"
        title={false}
        filter={{ complex_id: complexId }}
        perPage={25}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50, 100]} />}
        sort={{ field: 'address', order: 'ASC' }}
        filters={[<SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.houses.filters.search')} sx={{ minWidth: 320 }} />]}
        exporter={false}
        empty={false}
        actions={
          <TopToolbar>
            {canEdit && (
              <Button size="small" startIcon={<CategoryOutlined />} onClick={() => setTypes(true)}>
                {translate('resources.house-types.title')}
              </Button>
            )}
            {canEdit && (
              <Button size="small" startIcon={<LinkIcon />} onClick={() => setAttaching(true)}>
                {translate('resources.houses.attach')}
              </Button>
            )}
            {canCreate && (
              <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => setDialog('create')}>
                {translate('resources.houses.add')}
              </Button>
            )}
          </TopToolbar>
        }
      >
        <DataTable<House> bulkActionButtons={false} rowClick={false}>
          <DataTable.Col source="address" />
          <DataTable.Col source="house_type" disableSort />
          <DataTable.Col source="floors" disableSort />
          <DataTable.Col source="entrances" disableSort />
          <DataTable.Col label="resources.houses.fields.apartments" disableSort render={(h) => h.realty_counts.apartment} />
          <DataTable.Col label="resources.houses.fields.parkings" disableSort render={(h) => h.realty_counts.parking} />
          <DataTable.Col label="resources.houses.fields.storages" disableSort render={(h) => h.realty_counts.storage} />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(h) => (
              <Stack direction="row">
                <RowActionsMenu
                  area="houses"
                  onEdit={() => setDialog(h.id)}
                  onDelete={() => setDeleting(h as House)}
                  extra={canEdit ? [{ label: 'resources.houses.unlink', onClick: () => setUnlinking(h as House) }] : undefined}
                />
              </Stack>
            )}
          />
        </DataTable>
      </List>
      <HouseFormDialog target={dialog} complexId={complexId} onClose={() => setDialog(null)} />
      <AttachHousesDialog open={attaching} complexId={complexId} onClose={() => setAttaching(false)} onAttached={refresh} />
      <HouseTypesDialog open={types} onClose={() => setTypes(false)} />
      <Confirm
        isOpen={Boolean(unlinking)}
        title={translate('resources.houses.unlink_title', { name: unlinking?.address ?? '' })}
        content={translate('resources.houses.unlink_text')}
        confirm={translate('resources.houses.unlink')}
        cancel={translate('app.actions.cancel')}
        onClose={() => setUnlinking(null)}
        onConfirm={() => unlinking && unlink(unlinking)}
      />
      <ConfirmDelete
        resource="houses"
        record={deleting}
        name={deleting?.address ?? ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.houses.notifications.deleted"
      />
    </Box>
  );
}
