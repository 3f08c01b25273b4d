import { Suspense } from 'react';
import { BrowserRouter, Route } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Admin, CustomRoutes, I18nContextProvider, Resource } from 'react-admin';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import { RouteGuard } from './guards';
import { i18nProvider } from './i18n';
import { useRememberLocation } from './lastLocation';
import { NotFoundPage, RouteErrorPage } from './layout/ErrorPage';
import { LazyLayout } from './layout/LazyLayout';
import { LoadingBar } from './layout/LoadingBar';
import { OfflineNotice } from './layout/network';
import { Toaster } from './layout/Toaster';
import LoginPage from './pages/LoginPage';
import { APP_MODULES } from './modules';
import { ROUTES, type AppRoute } from './routes';
import { theme } from './theme';
import { sidebarOpenAtStart } from './layout/breakpoint';
import { retryRead } from './dataProvider/retry';
import { appStore } from './lib/appStore';

function RouteElement({ route }: { route: AppRoute }) {
  useRememberLocation();
  const Component = route.component;
  return (
    <RouteGuard middleware={route.middleware} area={route.area}>
      <Suspense fallback={null}>
        <Component />
      </Suspense>
    </RouteGuard>
  );
}

const guarded = (route: AppRoute) => <Route key={route.path} path={route.path} element={<RouteElement route={route} />} />;

/**
 * react-admin's own store stays in memory but for each user's choices of how lists look (the
 * columns: src/lib/appStore.ts); the session, the selected complex and tours persist. The
 * sidebar starts in the state the window's width calls for, instead of collapsing after the
 * first render and shifting the screen.
 */
const store = appStore({ 'sidebar.open': sidebarOpenAtStart() });
/** Shared with the loading bar, which lives outside <Admin> so that it also shows on the sign-in pages. */
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: retryRead } } });
const muiTheme = createTheme(theme);

export function App() {
  return (
    <BrowserRouter>
      <QueryClientProvider client={queryClient}>
        <I18nContextProvider value={i18nProvider}>
          <ThemeProvider theme={muiTheme}>
            <LoadingBar />
            <OfflineNotice />
          </ThemeProvider>
        </I18nContextProvider>
        <Admin
          title="ЖК Адмін"
          dataProvider={dataProvider}
          authProvider={authProvider}
          i18nProvider={i18nProvider}
          store={store}
          queryClient={queryClient}
          theme={theme}
          layout={LazyLayout}
          loginPage={LoginPage}
          notification={Toaster}
          error={RouteErrorPage}
          catchAll={NotFoundPage}
          disableTelemetry
        >
          {APP_MODULES.flatMap((m) => m.resources).map((r) => (
            <Resource key={r.name} {...r} />
          ))}
          <CustomRoutes noLayout>{ROUTES.filter((r) => r.layout !== 'default').map(guarded)}</CustomRoutes>
          <CustomRoutes>{ROUTES.filter((r) => r.layout === 'default').map(guarded)}</CustomRoutes>
        </Admin>
      </QueryClientProvider>
    </BrowserRouter>
  );
}
