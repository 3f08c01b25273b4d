import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Box, Button, Card, CardContent, Chip, Divider, Stack, Typography } from '@mui/material';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useGetOne, useTranslate } from 'react-admin';
import type { Article } from '../../../contract/articles';
import { AuthImage } from '../../components/content/AuthImage';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ErrorPage } from '../../layout/ErrorPage';
import { usePageHeader } from '../../layout/navigation';
import { formatDateTime } from '../../lib/dates';
import { useMinimumDelay } from '../../lib/useMinimumDelay';
import { audienceText } from './ArticleList';
import { ArticleStatusChip } from './ArticleStatusChip';
import { useRights } from '../../lib/useRights';

/** Typography for the stored rich text (sanitised by the API before it was saved). */
export const richTextSx = {
  '& p': { my: 1 },
  '& h1, & h2, & h3, & h4': { mt: 2, mb: 1, lineHeight: 1.3 },
  '& blockquote': { borderLeft: '4px solid', borderColor: 'divider', pl: 2, ml: 0, color: 'text.secondary' },
  '& a': { color: 'primary.main' },
} as const;

/** /News/{id}: one article as residents will read it, with its status and audience. */
export default function ArticleShow() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const { data, isPending, error } = useGetOne<Article>('articles', { id: Number(id) }, { retry: false, enabled: /^\d+$/.test(id) });
  const loading = useMinimumDelay(isPending);
  const [deleting, setDeleting] = useState(false);
  const { canEdit, canDelete } = useRights('articles');
  usePageHeader(data?.title ?? translate('resources.articles.title'), '/News');

  if (!/^\d+$/.test(id)) return <ErrorPage status={404} message="" />;
  if (error) return <ErrorPage status={(error as { status?: number }).status ?? 500} message={(error as Error).message} />;
  if (loading || !data) return null;
  return (
    <Box sx={{ maxWidth: 960 }}>
      <Stack direction="row" spacing={1} sx={{ mb: 2, justifyContent: 'flex-end' }}>
        {canEdit && (
          <Button variant="outlined" startIcon={<EditOutlined />} onClick={() => navigate(`/News/edit/${data.id}`)}>
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
          <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
            <ArticleStatusChip status={data.status} />
            {data.is_emergency && <Chip size="small" color="error" label={translate('resources.articles.emergency')} />}
            <Typography variant="body2" color="text.secondary">
              {data.publish_at ? formatDateTime(data.publish_at) : translate('resources.articles.not_planned')}
            </Typography>
          </Stack>
          <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
            {data.title}
          </Typography>
          <Box data-testid="article-body" sx={richTextSx} dangerouslySetInnerHTML={{ __html: data.body }} />
          <Divider sx={{ my: 2 }} />
          <Typography variant="body2" color="text.secondary">
            {translate('app.audience.label')}: {audienceText(data, translate)}
            {data.houses.length > 0 && ` (${data.houses.map((h) => h.address).join('; ')})`}
          </Typography>
          {data.author && (
            <Typography variant="body2" color="text.secondary">
              {translate('resources.articles.fields.author')}: {data.author}
            </Typography>
          )}
        </CardContent>
      </Card>
      <ConfirmDelete
        resource="articles"
        record={deleting ? data : null}
        name={data.title}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate('/News')}
        successMessage="resources.articles.notifications.deleted"
      />
    </Box>
  );
}
