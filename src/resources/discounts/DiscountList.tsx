import { useState } from 'react';
import { Box, Button, Card, Chip, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { DataTable, List, SearchInput, SelectInput, TopToolbar, useTranslate, type Identifier } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { discountEntity, type Discount } from '../../../contract/discounts';
import { AudienceInputs } from '../../components/content/AudienceInputs';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { useComplexSelection } from '../../layout/complexSelection';
import { usePageHeader } from '../../layout/navigation';
import { formatDate } from '../../lib/dates';
import { UkDateTimeInput } from '../../components/inputs/DateInputs';
import { formatNumber } from '../../lib/numbers';
import { EntityInput } from '../generic/EntityInputs';
import { ListExport } from '../generic/ListExport';
import { useEntityLabels } from '../generic/labels';
import { useRights } from '../../lib/useRights';

const entity = discountEntity;

/** A declared input, taking `flex` parts of its row. */
const Input = ({ source, flex = 1 }: { source: keyof typeof entity.fields; flex?: number }) => (
  <Box sx={{ flex }}>
    <EntityInput entity={entity} source={source} field={entity.fields[source]} />
  </Box>
);

/**
 * /dashboard_old/Disconts: partner discounts for residents (the legacy area's own screen). Labels,
 * inputs and the export of the current filter come from the declaration (contract/discounts.ts);
 * the offer column (percent chip), the expiry, the state filter and the audience inputs stay the
 * screen's own.
 */
export default function DiscountList() {
  const translate = useTranslate();
  const labels = useEntityLabels(entity);
  const { complexId } = useComplexSelection();
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<Discount | null>(null);
  const { canCreate, canEdit, canDelete } = useRights('discounts');
  usePageHeader(translate('resources.discounts.title'));
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.discounts.filters.search')} sx={{ minWidth: 280 }} />,
    <SelectInput
      key="active"
      source="active"
      alwaysOn
      label="resources.discounts.filters.state"
      emptyText="resources.discounts.filters.all"
      choices={[
        { id: '1', name: 'resources.discounts.filters.active' },
        { id: '0', name: 'resources.discounts.filters.expired' },
      ]}
    />,
  ];
  return (
    <Box>
      <List<Discount>
        resource="discounts"
        title={false}
        filters={filters}
        perPage={10}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50]} />}
        sort={{ field: 'created_at', order: 'DESC' }}
        exporter={false}
        empty={
          <Card sx={{ p: 4, textAlign: 'center', mt: 2 }}>
            <Typography sx={{ mb: 2 }}>{translate('resources.discounts.empty')}</Typography>
            {canCreate && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog('create')}>
                {translate('app.actions.add')}
              </Button>
            )}
          </Card>
        }
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 1 }}>
            <ListExport path={entity.path} />
            {canCreate && (
              <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => setDialog('create')}>
                {translate('app.actions.add')}
              </Button>
            )}
          </TopToolbar>
        }
      >
        <DataTable<Discount> rowClick={false} bulkActionButtons={false}>
          <DataTable.Col source="partner" label={labels.field('partner')} />
          <DataTable.Col
            source="title"
            label={labels.field('title')}
            disableSort
            render={(r) => (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                {r.percent !== null && <Chip size="small" color="secondary" label={`−${formatNumber(r.percent)} %`} />}
                <span>{r.title}</span>
              </Stack>
            )}
          />
          <DataTable.Col source="promo_code" label={labels.field('promo_code')} disableSort render={(r) => r.promo_code ?? '—'} />
          <DataTable.Col
            source="valid_until"
            label={labels.field('valid_until')}
            render={(r) =>
              r.valid_until
                ? `${formatDate(r.valid_until)}${r.expired ? ` (${translate('resources.discounts.expired')})` : ''}`
                : translate('resources.discounts.no_end')
            }
          />
          <DataTable.Col source="complex_ids" disableSort label="app.audience.label" render={(r) => (r as Discount).complexes.map((c) => c.name).join(', ')} />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => (
              <RowActionsMenu onEdit={canEdit ? () => setDialog(r.id) : undefined} onDelete={canDelete ? () => setDeleting(r as Discount) : undefined} />
            )}
          />
        </DataTable>
      </List>
      <ResourceFormDialog<Discount>
        resource="discounts"
        target={dialog}
        onClose={() => setDialog(null)}
        size="large"
        defaultValues={{ complex_ids: complexId ? [complexId] : [], house_ids: [] } as Partial<Discount>}
        title={{ create: 'resources.discounts.create_title', edit: 'resources.discounts.edit_title' }}
        notifications={{ created: 'resources.discounts.notifications.created', updated: 'resources.discounts.notifications.updated' }}
      >
        <Stack direction="row" spacing={2} sx={{ width: '100%' }}>
          <Input source="partner" flex={2} />
          <Input source="percent" />
        </Stack>
        <Input source="title" />
        <Input source="description" />
        <Stack direction="row" spacing={2} sx={{ width: '100%' }}>
          <Input source="promo_code" />
          <Box sx={{ flex: 1 }}>
            <UkDateTimeInput source="valid_until" label={labels.field('valid_until')} fullWidth />
          </Box>
        </Stack>
        <Input source="address" />
        <Stack direction="row" spacing={2} sx={{ width: '100%' }}>
          <Input source="phone" />
          <Input source="link" />
        </Stack>
        <AudienceInputs houses={false} />
      </ResourceFormDialog>
      <ConfirmDelete
        resource="discounts"
        record={deleting}
        name={deleting?.partner ?? ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.discounts.notifications.deleted"
      />
    </Box>
  );
}
