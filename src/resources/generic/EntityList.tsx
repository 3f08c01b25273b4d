import { useState, type ReactElement } from 'react';
import { Box, Button, Card, Chip, Link, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import {
  AutocompleteInput,
  DataTable,
  List,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  SelectInput,
  TextField,
  TopToolbar,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { ListPagination } from '../../components/ListPagination';
import { listFields, type EntityDeclaration, type FieldDeclaration } from '../../../contract/entity';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { usePageHeader } from '../../layout/navigation';
import { formatDate, formatDateTime } from '../../lib/dates';
import { formatNumber } from '../../lib/numbers';
import { EntityInputs } from './EntityInputs';
import { useEntityLabels } from './labels';
import { ListExport } from './ListExport';
import { useRights } from '../../lib/useRights';

/** A cell by the field's type: links, Ukrainian dates and numbers, option labels, «—» for nothing. */
export function Cell({ entity, source, field, record }: { entity: EntityDeclaration; source: string; field: FieldDeclaration; record: RaRecord }) {
  const translate = useTranslate();
  const labels = useEntityLabels(entity);
  const value = record[source];
  // A field with a display of its own shows that record field (a formatted phone, a referenced record's name).
  const shown = field.display ? record[field.display] : undefined;
  if (field.type === 'phone' && value)
    return (
      <Link href={`tel:${String(value)}`} onClick={(e) => e.stopPropagation()}>
        {String(shown ?? value)}
      </Link>
    );
  if (field.display) return <>{shown === null || shown === undefined || shown === '' ? '—' : String(shown)}</>;
  if (field.type === 'reference')
    return (
      <ReferenceField source={source} reference={field.reference!} link={false} emptyText="—">
        <TextField source={field.optionText ?? 'name'} />
      </ReferenceField>
    );
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return <>—</>;
  switch (field.type) {
    case 'richtext': {
      // The text a reader sees, without the markup (the server keeps only sanitised HTML).
      const text = new DOMParser().parseFromString(String(value), 'text/html').body.textContent ?? '';
      return <>{text.length > 160 ? `${text.slice(0, 160)}…` : text}</>;
    }
    case 'url':
      return (
        <Link href={String(value)} target="_blank" rel="noopener noreferrer" onClick={(e) => e.stopPropagation()} sx={{ wordBreak: 'break-all' }}>
          {String(value)}
        </Link>
      );
    case 'date':
      return <>{formatDate(value as string)}</>;
    case 'datetime':
      return <>{formatDateTime(value as string)}</>;
    case 'number':
      return <>{formatNumber(Number(value))}</>;
    case 'boolean':
      return <>{translate(value ? 'ra.boolean.true' : 'ra.boolean.false')}</>;
    case 'enum':
      return <>{labels.option(source, String(value))}</>;
    case 'tags':
      return (
        <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {(value as { id: number; name: string }[]).map((t) => (
            <Chip key={t.id} size="small" label={t.name} />
          ))}
        </Stack>
      );
    default:
      // One record ({ id, name }: a request's performer): its shown field.
      if (typeof value === 'object') return <>{String((value as Record<string, unknown>)[field.optionText ?? 'name'] ?? '—')}</>;
      return <>{String(value)}</>;
  }
}

/** The list's filters: a search box when the entity is searchable, then one input per declared filter. */
function filterInputs(
  entity: EntityDeclaration,
  translate: (key: string, opts?: object) => string,
  labels: ReturnType<typeof useEntityLabels>,
): ReactElement[] {
  const inputs: ReactElement[] = [];
  if (entity.search.length > 0) inputs.push(<SearchInput key="q" source="q" alwaysOn placeholder={translate('app.list.search')} sx={{ minWidth: 260 }} />);
  for (const f of entity.filters) {
    const label = labels.field(f.source);
    if (f.type === 'reference')
      inputs.push(
        <ReferenceInput key={f.source} source={f.source} reference={f.reference!} alwaysOn perPage={50} sort={{ field: f.optionText ?? 'name', order: 'ASC' }}>
          <AutocompleteInput optionText={f.optionText ?? 'name'} label={label} filterToQuery={(q) => ({ q })} sx={{ minWidth: 260 }} />
        </ReferenceInput>,
      );
    else {
      const options = f.type === 'boolean' ? ['1', '0'] : (f.options ?? entity.fields[f.source]?.options ?? []);
      const name = (id: string) => (f.type === 'boolean' ? translate(id === '1' ? 'ra.boolean.true' : 'ra.boolean.false') : labels.option(f.source, id));
      inputs.push(<SelectInput key={f.source} source={f.source} label={label} alwaysOn choices={options.map((id) => ({ id, name: name(id) }))} />);
    }
  }
  return inputs;
}

/** The page's header: the entity's title (not when the list is a part of another page). */
function EntityPageHeader({ entity }: { entity: EntityDeclaration }) {
  usePageHeader(useEntityLabels(entity).text('title'));
  return null;
}

export interface EntityListProps {
  entity: EntityDeclaration;
  /** A part of a page of its own (e.g. a tab): the page sets the header. */
  embedded?: boolean;
  /** `form: 'page'`: where the form pages are (`<pagePath>/create`, `<pagePath>/<id>`). */
  pagePath?: string;
}

/**
 * The screen of a declared entity: its columns, filters (kept in the address, so reload, Back
 * and a shared link keep them), sort, pages, export of the current filter, and add, edit and
 * delete as the user's role allows, in a dialog over the list (or on a page of its own).
 */
export function EntityList({ entity, embedded, pagePath }: EntityListProps) {
  const translate = useTranslate();
  const labels = useEntityLabels(entity);
  const name = entity.name;
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<RaRecord | null>(null);
  const { canCreate, canEdit, canDelete } = useRights(entity.area);
  const navigate = useNavigate();
  /** Opens the form: the dialog, or the page of `form: 'page'` entities. */
  const open = (target: Identifier | 'create') => (entity.form === 'page' && pagePath ? navigate(`${pagePath}/${target}`) : setDialog(target));
  const sortable = new Set([
    'id',
    ...Object.entries(entity.fields)
      .filter(([, f]) => f.sortable)
      .map(([k]) => k),
  ]);
  const add = (variant: 'contained', size?: 'small') =>
    canCreate && (
      <Button variant={variant} size={size} startIcon={<AddIcon />} onClick={() => open('create')}>
        {translate('app.actions.add')}
      </Button>
    );
  const representation = (r: RaRecord) => String(r[Object.keys(entity.fields)[0]] ?? r.id);
  return (
    <Box>
      {!embedded && <EntityPageHeader entity={entity} />}
      <List
        resource={name}
        title={false}
        filters={filterInputs(entity, translate, labels)}
        perPage={25}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50, 100]} />}
        sort={{ field: entity.sort.field, order: entity.sort.order === 'desc' ? 'DESC' : 'ASC' }}
        exporter={false}
        empty={
          <Card sx={{ p: 4, textAlign: 'center', mt: 2 }}>
            <Typography sx={{ mb: 2 }}>{labels.text('empty')}</Typography>
            {add('contained')}
          </Card>
        }
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 1 }}>
            <ListExport path={entity.path} />
            {add('contained', 'small')}
          </TopToolbar>
        }
      >
        <DataTable rowClick={entity.form === 'page' && pagePath ? (id) => `${pagePath}/${id}` : false} bulkActionButtons={false}>
          {listFields(entity).map(([source, field]) => (
            <DataTable.Col
              key={source}
              source={source}
              label={labels.field(source)}
              disableSort={!sortable.has(source)}
              sx={field.wide ? { minWidth: 240 } : undefined}
              render={(r: RaRecord) => <Cell entity={entity} source={source} field={field} record={r} />}
            />
          ))}
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r: RaRecord) => <RowActionsMenu onEdit={canEdit ? () => open(r.id) : undefined} onDelete={canDelete ? () => setDeleting(r) : undefined} />}
          />
        </DataTable>
      </List>
      <ResourceFormDialog
        resource={name}
        target={dialog}
        onClose={() => setDialog(null)}
        title={{ create: labels.text('create_title'), edit: labels.text('edit_title') }}
        notifications={{ created: labels.text('created'), updated: 'app.list.saved' }}
      >
        <EntityInputs entity={entity} />
      </ResourceFormDialog>
      <ConfirmDelete
        resource={name}
        record={deleting}
        name={deleting ? representation(deleting) : ''}
        onClose={() => setDeleting(null)}
        successMessage={entity.messages.deleted}
      />
    </Box>
  );
}
