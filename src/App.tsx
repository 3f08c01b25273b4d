import { Suspense } from 'react';
import { BrowserRouter, Route } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Admin, CustomRoutes, I18nContextProvider, memoryStore, Resource } from 'react-admin';
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
import complexes from './resources/complexes';
import { houses, houseTypes } from './resources/houses';
import realty from './resources/realty';
import requestTypes from './resources/request-types';
import staff from './resources/staff';
import { staffDepartures, staffRoles } from './resources/staff-roles';
import { members, residentRoles, residents, vehicles } from './resources/members';
import advertisements from './resources/advertisements';
import announcements from './resources/announcements';
import articles from './resources/articles';
import { contactGroups, contacts, contactSections } from './resources/contacts';
import cameras from './resources/cameras';
import discounts from './resources/discounts';
import documents from './resources/documents';
import events from './resources/events';
import voting from './resources/voting';
import serviceRequests from './resources/service-requests';
import interview from './resources/interview';
import { ROUTES, type AppRoute } from './routes';
import { theme } from './theme';
import { sidebarOpenAtStart } from './layout/breakpoint';
import { retryRead } from './dataProvider/retry';

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
 * react-admin's own store stays in memory: only the session, the selected complex and tours persist.
 * The sidebar starts in the state the window's width calls for, instead of collapsing after the
 * first render and shifting the screen.
 */
const store = memoryStore({ 'sidebar.open': sidebarOpenAtStart() });
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
        <Resource {...complexes} />
        <Resource {...houses} />
        <Resource {...houseTypes} />
        <Resource {...realty} />
        <Resource {...staff} />
        <Resource {...staffRoles} />
        <Resource {...staffDepartures} />
        <Resource {...requestTypes} />
        <Resource {...members} />
        <Resource {...residents} />
        <Resource {...residentRoles} />
        <Resource {...vehicles} />
        <Resource {...articles} />
        <Resource {...announcements} />
        <Resource {...events} />
        <Resource {...advertisements} />
        <Resource {...documents} />
        <Resource {...contacts} />
        <Resource {...contactGroups} />
        <Resource {...contactSections} />
        <Resource {...discounts} />
        <Resource {...cameras} />
        <Resource {...voting} />
        <Resource {...serviceRequests} />
        <Resource {...interview} />
        <CustomRoutes noLayout>{ROUTES.filter((r) => r.layout !== 'default').map(guarded)}</CustomRoutes>
        <CustomRoutes>{ROUTES.filter((r) => r.layout === 'default').map(guarded)}</CustomRoutes>
      </Admin>
    </QueryClientProvider>
    </BrowserRouter>
  );
}
