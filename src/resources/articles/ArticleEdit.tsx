import { useNavigate, useParams } from 'react-router-dom';
import { Box, Button, Card } from '@mui/material';
import { CreateBase, EditBase, SaveButton, SimpleForm, Toolbar, useNotify, useTranslate } from 'react-admin';
import type { Article } from '../../../contract/articles';
import { useComplexSelection } from '../../layout/complexSelection';
import { usePageHeader } from '../../layout/navigation';
import { ArticleFields } from './ArticleFields';
import { articlePath } from './ArticleList';

function FormToolbar() {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <Toolbar sx={{ justifyContent: 'flex-end', gap: 1 }}>
      <Button onClick={() => navigate(-1)}>{translate('app.actions.cancel')}</Button>
      <SaveButton label="app.actions.save" />
    </Toolbar>
  );
}

/** /News/create, and /News/edit/{id} — without an id it is the create form too (SPEC.md). */
export default function ArticleEdit() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const notify = useNotify();
  const { id } = useParams();
  const { complexId } = useComplexSelection();
  usePageHeader(translate(id ? 'resources.articles.edit_title' : 'resources.articles.create_title'), '/News');
  const saved = (message: string) => (record: Article) => {
    notify(message, { type: 'success' });
    navigate(articlePath(record.id));
  };
  const form = (
    <Card sx={{ maxWidth: 960 }}>
      <SimpleForm toolbar={<FormToolbar />} defaultValues={id ? undefined : { status: 'published', complex_ids: complexId ? [complexId] : [], house_ids: [], is_emergency: false, image_id: null, publish_at: null }}>
        <ArticleFields />
      </SimpleForm>
    </Card>
  );
  return (
    <Box>
      {id ? (
        <EditBase<Article> resource="articles" id={Number(id)} redirect={false} mutationMode="pessimistic" mutationOptions={{ onSuccess: saved('resources.articles.notifications.updated') }}>
          {form}
        </EditBase>
      ) : (
        <CreateBase<Article> resource="articles" redirect={false} mutationOptions={{ onSuccess: saved('resources.articles.notifications.created') }}>
          {form}
        </CreateBase>
      )}
    </Box>
  );
}
