import type { Article } from '../../../contract/articles';
import { page } from '../../lib/routing';
import { entityModule } from '../generic/entityModule';

/** News: declared in contract/articles.ts; the list, the page form and the article's page are their own. */
export default entityModule({
  name: 'articles',
  area: 'articles',
  path: '/News',
  load: () => import('../../../contract/articles').then((m) => m.articleEntity),
  list: () => import('./ArticleList'),
  recordRepresentation: (r: Article) => r.title,
  routes: [
    page('/News/create', 'articles', () => import('./ArticleEdit')),
    page('/News/edit/:id?', 'articles', () => import('./ArticleEdit')),
    page('/News/:id', 'articles', () => import('./ArticleShow')),
  ],
  menu: [{ label: 'app.menu.news', path: '/news', area: 'articles', group: 'community', order: 20 }],
  legacy: [
    { path: 'AddNews', label: 'app.legacy.pages.add_news', target: '/News/create' },
    { path: 'News-advices', label: 'app.legacy.pages.news_advices', target: '/News' },
  ],
});
