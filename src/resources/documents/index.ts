import type { DocumentRecord } from '../../../contract/documents';

/** react-admin resource declaration; the screens are mounted by the route table (src/routes.tsx). */
export default { name: 'documents', recordRepresentation: (r: DocumentRecord) => r.name };
