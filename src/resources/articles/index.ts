import type { Article } from '../../../contract/articles';

/** react-admin resource declaration; the screens are mounted by the route table (src/routes.tsx). */
export default { name: 'articles', recordRepresentation: (r: Article) => r.title };
