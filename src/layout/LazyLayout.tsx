import { lazy, Suspense, type ReactNode } from 'react';
import { readToken } from '../authStorage';

const load = () => import('./Layout');
const Layout = lazy(() => load().then((m) => ({ default: m.Layout })));

// The sign-in pages do not need the layout (header, menu, complex selection, tours), so it is a
// chunk of its own. With a session it is needed at once: start loading it now, in parallel with the
// rest of the start, instead of when react-admin first renders it.
if (readToken()) void load();

/** The default layout (./Layout), loaded on demand. */
export function LazyLayout({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <Layout>{children}</Layout>
    </Suspense>
  );
}
