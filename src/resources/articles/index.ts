import type { Article } from '../../../contract/articles';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of articles. */
export default defineModule({
  resources: [{ name: 'articles', recordRepresentation: (r: Article) => r.title }],
  routes: [
    page('/News', 'articles', () => import('./ArticleList')),
    page('/News/create', 'articles', () => import('./ArticleEdit')),
    page('/News/edit/:id?', 'articles', () => import('./ArticleEdit')),
    page('/News/:id', 'articles', () => import('./ArticleShow')),
  ],
});
