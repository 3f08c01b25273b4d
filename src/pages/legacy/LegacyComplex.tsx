import { Navigate } from 'react-router-dom';

/** /dashboard_old/complex, where sign-in lands (docs/architecture.md, "Route middleware"), shows the current complexes screen. */
export default function LegacyComplex() {
  return <Navigate to="/Complex" replace />;
}
