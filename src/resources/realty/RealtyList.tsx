import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Box } from '@mui/material';
import { DataTable, List, ReferenceInput, SearchInput, SelectInput, TopToolbar, useTranslate, type Identifier } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { REALTY_TYPES, realtyEntity, type Realty, type RealtyType } from '../../../contract/realty';
import { AddButton } from '../../components/AddButton';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { ErrorPage } from '../../layout/ErrorPage';
import { usePageHeader } from '../../layout/navigation';
import { ListExport } from '../generic/ListExport';
import { useEntityLabels } from '../generic/labels';
import { RealtyFields, realtyTypeChoices } from './RealtyFields';

const areaFormat = new Intl.NumberFormat('uk-UA', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const formatArea = (area: number | null) => (area === null ? '' : `${areaFormat.format(area)} м²`);

/** /Realty (all units) and /Realty/{type}: parking, storage, apartment, commercial. */
export default function RealtyList() {
  const translate = useTranslate();
  const { type: rawType } = useParams();
  const type = rawType?.toLowerCase() as RealtyType | undefined;
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<Realty | null>(null);
  const labels = useEntityLabels(realtyEntity);
  usePageHeader(translate(type ? `resources.realty.titles.${type}` : 'resources.realty.titles.all'));
  if (type && !REALTY_TYPES.includes(type)) return <ErrorPage status={404} message="" />;

  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.realty.filters.search')} sx={{ minWidth: 300 }} />,
    <ReferenceInput key="complex" source="complex_id" reference="complexes" alwaysOn perPage={100} sort={{ field: 'name', order: 'ASC' }}>
      <SelectInput optionText="name" label="resources.realty.filters.complex" emptyText="resources.realty.filters.all_complexes" />
    </ReferenceInput>,
    <ReferenceInput key="house" source="house_id" reference="houses" alwaysOn perPage={200} sort={{ field: 'address', order: 'ASC' }}>
      <SelectInput optionText="address" label="resources.realty.filters.house" emptyText="resources.realty.filters.all_houses" />
    </ReferenceInput>,
    ...(type ? [] : [<SelectInput key="type" source="type" choices={realtyTypeChoices} alwaysOn label={labels.field('type')} />]),
  ];

  return (
    <Box>
      <List<Realty>
        key={type ?? 'all'}
        resource="realty"
        title={false}
        filter={type ? { type } : undefined}
        filters={filters}
        perPage={25}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50, 100]} />}
        sort={{ field: 'house', order: 'ASC' }}
        exporter={false}
        disableSyncWithLocation={false}
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 1 }}>
            <ListExport path={realtyEntity.path} filter={type ? { type } : undefined} />
            <AddButton area="realty" onClick={() => setDialog('create')} />
          </TopToolbar>
        }
      >
        <DataTable<Realty> bulkActionButtons={false} rowClick={false}>
          <DataTable.Col source="number" label={labels.field('number')} />
          {!type && <DataTable.Col source="type" label={labels.field('type')} render={(r) => translate(`resources.realty.types.${r.type}`)} />}
          <DataTable.Col source="house" label={labels.field('address')} render={(r) => r.address} />
          <DataTable.Col source="area" label={labels.field('area')} render={(r) => formatArea(r.area)} />
          <DataTable.Col source="floor" label={labels.field('floor')} />
          <DataTable.Col source="entrance" label={labels.field('entrance')} disableSort />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => <RowActionsMenu area="realty" onEdit={() => setDialog(r.id)} onDelete={() => setDeleting(r as Realty)} />}
          />
        </DataTable>
      </List>
      <ResourceFormDialog<Realty>
        resource="realty"
        target={dialog}
        onClose={() => setDialog(null)}
        defaultValues={{ type: type ?? 'apartment' } as Partial<Realty>}
        title={{ create: 'resources.realty.create_title', edit: 'resources.realty.edit_title' }}
        notifications={{ created: 'resources.realty.notifications.created', updated: 'resources.realty.notifications.updated' }}
      >
        <RealtyFields />
      </ResourceFormDialog>
      <ConfirmDelete
        resource="realty"
        record={deleting}
        name={deleting ? `№ ${deleting.number}` : ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.realty.notifications.deleted"
      />
    </Box>
  );
}
