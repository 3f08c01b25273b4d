import { useParams } from 'react-router-dom';
import type { Article } from '../../../contract/articles';
import { ContentFormPage } from '../../components/content/ContentFormPage';
import { useComplexSelection } from '../../layout/complexSelection';
import { ArticleFields } from './ArticleFields';
import { articlePath } from './ArticleList';

/** /News/create, and /News/edit/{id} — without an id it is the create form too (docs/architecture.md, "Routes"). */
export default function ArticleEdit() {
  const { id } = useParams();
  const { complexId } = useComplexSelection();
  return (
    <ContentFormPage<Article>
      resource="articles"
      id={id}
      titles={{ create: 'resources.articles.create_title', edit: 'resources.articles.edit_title' }}
      notifications={{ created: 'resources.articles.notifications.created', updated: 'resources.articles.notifications.updated' }}
      backTo="/News"
      afterSave={(r) => articlePath(r.id)}
      createDefaults={{ status: 'published', complex_ids: complexId ? [complexId] : [], house_ids: [], is_emergency: false, image_id: null, publish_at: null }}
    >
      <ArticleFields />
    </ContentFormPage>
  );
}
