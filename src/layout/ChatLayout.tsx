import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** The bare chat layout (docs/architecture.md, "Routes"): a slim bar with the product's name, the page below, phone first. */
export function ChatLayout({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: '#eef2f7' }}>
      <Box component="header" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1, bgcolor: 'primary.main', color: 'primary.contrastText' }}>
        <img src="/logo.svg" alt="" width={28} height={28} />
        <Typography variant="subtitle1" component="div" sx={{ fontWeight: 500 }}>
          {translate('app.name')}
        </Typography>
      </Box>
      <Box component="main" sx={{ flex: 1, width: '100%', maxWidth: 720, mx: 'auto', p: { xs: 1, sm: 2 }, display: 'flex', flexDirection: 'column' }}>
        {children}
      </Box>
    </Box>
  );
}
