import { lazy, Suspense, type ReactNode } from 'react';
import { readToken } from '../authStorage';
import { findRoute } from '../routes';

const load = () => import('./Layout');
const Layout = lazy(() => load().then((m) => ({ default: m.Layout })));

// The sign-in pages do not need the layout (header, menu, complex selection, tours), so it is a
// chunk of its own. With a session it is needed at once: start loading it now, together with the
// screen of the address being opened, in parallel with the session check instead of after it.
// (Failures are left to the lazy components, which load again when they render.)
if (readToken()) {
  load().catch(() => undefined);
  findRoute(window.location.pathname)
    ?.load()
    .catch(() => undefined);
}

/** The default layout (./Layout), loaded on demand. */
export function LazyLayout({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <Layout>{children}</Layout>
    </Suspense>
  );
}
