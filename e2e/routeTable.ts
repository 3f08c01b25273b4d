import { createServer } from 'vite';
import { declaredScreens } from '../vite.config';
import { ROOT } from './server';

export interface ScreenRoute {
  path: string;
  layout: 'default' | 'auth' | 'chat';
  area?: string;
}

/**
 * The SPA's own route table (src/routes.tsx: the shell's pages and every module's screens, the
 * declared entities' included), loaded the way the build sees it: the screens stay lazy, only the
 * table is read.
 */
export async function loadRouteTable(): Promise<ScreenRoute[]> {
  const server = await createServer({
    root: ROOT,
    configFile: false,
    logLevel: 'error',
    plugins: [declaredScreens()],
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const { ROUTES } = (await server.ssrLoadModule('/src/routes.tsx')) as { ROUTES: ScreenRoute[] };
    return ROUTES.map(({ path, layout, area }) => ({ path, layout, area }));
  } finally {
    await server.close();
  }
}
