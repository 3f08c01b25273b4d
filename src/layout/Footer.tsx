import { Box, Link, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatDate } from '../lib/dates';

/** Support address: the server writes SUPPORT_EMAIL into index.html's meta tag. */
export function supportEmail(doc: Document = document): string {
  return doc.querySelector('meta[name="support-email"]')?.getAttribute('content') || 'support@demo.ua';
}

export function Footer() {
  const translate = useTranslate();
  const email = supportEmail();
  return (
    <Box
      component="footer"
      sx={{
        mt: 'auto',
        py: 2,
        px: 3,
        display: 'flex',
        flexWrap: 'wrap',
        gap: 2,
        justifyContent: 'space-between',
        color: 'text.secondary',
        fontSize: 13,
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <Typography variant="caption" data-testid="footer-version">
        {translate('app.footer.version', { version: __APP_VERSION__, date: formatDate(__BUILD_DATE__) })}
      </Typography>
      <Typography variant="caption">
        {translate('app.footer.support')}: <Link href={`mailto:${email}`}>{email}</Link>
      </Typography>
      <Typography variant="caption">{translate('app.footer.copyright', { year: new Date().getFullYear() })}</Typography>
      <Typography variant="caption" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
        <svg width="18" height="12" viewBox="0 0 3 2" aria-hidden="true">
          <rect width="3" height="1" fill="#0057b7" />
          <rect y="1" width="3" height="1" fill="#ffd700" />
        </svg>
        {translate('app.footer.made_in_ukraine')}
      </Typography>
    </Box>
  );
}
