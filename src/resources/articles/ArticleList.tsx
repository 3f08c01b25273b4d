import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Button, Card, Chip, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { DataTable, List, SearchInput, SelectInput, TopToolbar, useTranslate, type Identifier } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { ARTICLE_STATUSES, type Article } from '../../../contract/articles';
import { ContentBulkActions, hasBulkActions, type PublishChange } from '../../components/bulk';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { useComplexFilter } from '../../layout/complexSelection';
import { usePageHeader } from '../../layout/navigation';
import { formatDateTime } from '../../lib/dates';
import { ListExport } from '../generic/ListExport';
import { ArticleStatusChip } from './ArticleStatusChip';
import { useRights } from '../../lib/useRights';

export const articlePath = (id: Identifier) => `/News/${id}`;
const byTitle = (r: Article) => r.title;
/** Publishing the selected news: now, or at their planned time; taking them back makes them drafts. */
const PUBLISH: PublishChange<Article> = { on: { status: 'published' }, off: { status: 'draft' } };

function Empty() {
  const translate = useTranslate();
  return (
    <Card sx={{ p: 4, textAlign: 'center', mt: 2 }}>
      <Typography>{translate('resources.articles.empty')}</Typography>
    </Card>
  );
}

/**
 * /News: the news of the complex (and addresses) chosen in the header, with the export of the
 * current filter (contract/articles.ts declares the API; the list keeps its status chips and audience).
 */
export default function ArticleList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const filter = useComplexFilter();
  const [deleting, setDeleting] = useState<Article | null>(null);
  const { canCreate, canEdit, canDelete } = useRights('articles');
  usePageHeader(translate('resources.articles.title'));

  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.articles.filters.search')} sx={{ minWidth: 280 }} />,
    <SelectInput
      key="status"
      source="status"
      alwaysOn
      label="resources.articles.fields.status"
      emptyText="resources.articles.filters.all_statuses"
      choices={ARTICLE_STATUSES.map((s) => ({ id: s, name: `resources.articles.statuses.${s}` }))}
    />,
  ];

  return (
    <Box>
      <List<Article>
        resource="articles"
        title={false}
        filter={filter}
        filters={filters}
        perPage={10}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50]} />}
        sort={{ field: 'publish_at', order: 'DESC' }}
        exporter={false}
        empty={<Empty />}
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 1 }}>
            <ListExport path="/articles" filter={filter} />
            {canCreate && (
              <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => navigate('/News/create')} data-tour="add">
                {translate('app.actions.add')}
              </Button>
            )}
          </TopToolbar>
        }
      >
        <DataTable<Article>
          rowClick={(id) => articlePath(id)}
          bulkActionButtons={
            hasBulkActions({ publish: PUBLISH, canEdit, canDelete }) ? (
              <ContentBulkActions<Article> name={byTitle} publish={PUBLISH} canEdit={canEdit} canDelete={canDelete} />
            ) : (
              false
            )
          }
        >
          <DataTable.Col
            source="title"
            render={(r) => (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                {r.is_emergency && <Chip size="small" color="error" label={translate('resources.articles.emergency')} />}
                <span>{r.title}</span>
              </Stack>
            )}
          />
          <DataTable.Col source="status" render={(r) => <ArticleStatusChip status={r.status} />} />
          <DataTable.Col source="publish_at" render={(r) => formatDateTime(r.publish_at) || '—'} />
          <DataTable.Col source="complex_ids" disableSort label="app.audience.label" render={(r) => audienceText(r as Article, translate)} />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => (
              <RowActionsMenu
                onOpen={() => navigate(articlePath(r.id))}
                onEdit={canEdit ? () => navigate(`/News/edit/${r.id}`) : undefined}
                onDelete={canDelete ? () => setDeleting(r as Article) : undefined}
              />
            )}
          />
        </DataTable>
      </List>
      <ConfirmDelete
        resource="articles"
        record={deleting}
        name={deleting?.title ?? ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.articles.notifications.deleted"
      />
    </Box>
  );
}

/** «ЖК «Липовий гай»» or «ЖК «Липовий гай»: 2 будинки». */
export function audienceText(r: Pick<Article, 'complexes' | 'houses'>, translate: (key: string, opts?: object) => string): string {
  const names = r.complexes.map((c) => c.name).join(', ');
  return r.houses.length ? `${names}: ${translate('app.audience.houses_count', { smart_count: r.houses.length })}` : names;
}
