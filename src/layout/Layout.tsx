import { useEffect, type ReactNode } from 'react';
import { Box, useMediaQuery } from '@mui/material';
import { Layout as RaLayout, useSidebarState } from 'react-admin';
import { LAYOUT_BREAKPOINT } from './breakpoint';
import { ComplexSelectionProvider } from './complexSelection';
import { Footer } from './Footer';
import { Header } from './Header';
import { Menu } from './Menu';
import { NavigationProvider } from './navigation';
import { ScreenTour } from '../customPages/tours/ScreenTour';

function CollapseBelowBreakpoint() {
  const narrow = useMediaQuery(`(max-width:${LAYOUT_BREAKPOINT - 0.05}px)`, { noSsr: true });
  const [, setOpen] = useSidebarState();
  useEffect(() => {
    setOpen(!narrow);
  }, [narrow, setOpen]);
  return null;
}

/** Default layout: sidebar, header, content, footer; the toaster is mounted by <Admin>. The complex selection lives above the routes. */
export function Layout({ children }: { children: ReactNode }) {
  return (
    <NavigationProvider>
      <ComplexSelectionProvider>
        <CollapseBelowBreakpoint />
        <RaLayout
          appBar={Header}
          menu={Menu}
          sx={{ '& .RaLayout-content': { display: 'flex', flexDirection: 'column', minHeight: 'calc(100vh - 48px)', px: { xs: 1, md: 3 }, pt: 2 } }}
        >
          <Box sx={{ flex: 1 }}>{children}</Box>
          <Footer />
          <ScreenTour />
        </RaLayout>
      </ComplexSelectionProvider>
    </NavigationProvider>
  );
}
