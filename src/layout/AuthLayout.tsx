import type { ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Footer } from './Footer';

/** Sign-in pages: logo, a card, the footer (the toaster is mounted by <Admin>). */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: '#eef2f7' }}>
      <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
        <Card sx={{ width: '100%', maxWidth: 437 }} elevation={3}>
          <CardContent sx={{ p: 4 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3 }}>
              <img src="/logo.svg" alt="" width={44} height={44} />
              <Box>
                <Typography variant="h6" component="div" sx={{ lineHeight: 1.2 }}>
                  {translate('app.name')}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {translate('app.tagline')}
                </Typography>
              </Box>
            </Box>
            <Typography variant="h5" component="h1" sx={{ mb: 2, fontSize: 22 }}>
              {title}
            </Typography>
            {children}
          </CardContent>
        </Card>
      </Box>
      <Footer />
    </Box>
  );
}
