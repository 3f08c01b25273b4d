import type { DocumentRecord } from '../../../contract/documents';
import { page } from '../../lib/routing';
import { defineModule } from '../module';

/** The resources and screens of documents. */
export default defineModule({
  resources: [{ name: 'documents', recordRepresentation: (r: DocumentRecord) => r.name }],
  routes: [page('/Documents', 'documents', () => import('./DocumentList'))],
  menu: [{ label: 'app.menu.documents', path: '/documents', area: 'documents', icon: 'documents', order: 50 }],
});
