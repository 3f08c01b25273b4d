import { useEffect, useState } from 'react';
import { Box, Skeleton, type SxProps, type Theme } from '@mui/material';
import BrokenImageOutlined from '@mui/icons-material/BrokenImageOutlined';
import { fetchAuthorised } from './media';

/** An image served by an authorised route: fetched with the token, shown from a blob URL. */
export function AuthImage({ src, alt, sx }: { src: string | null | undefined; alt: string; sx?: SxProps<Theme> }) {
  const [state, setState] = useState<{ src: string; url?: string; failed?: boolean } | null>(null);
  useEffect(() => {
    if (!src) return;
    const controller = new AbortController();
    let url: string | undefined;
    fetchAuthorised(src, controller.signal)
      .then((blob) => {
        url = URL.createObjectURL(blob);
        setState({ src, url });
      })
      .catch(() => !controller.signal.aborted && setState({ src, failed: true }));
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [src]);
  if (!src) return null;
  const current = state?.src === src ? state : null;
  if (current?.failed) {
    return (
      <Box
        sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'action.hover', color: 'text.disabled', ...sx }}
        role="img"
        aria-label={alt}
      >
        <BrokenImageOutlined />
      </Box>
    );
  }
  if (!current?.url) return <Skeleton variant="rectangular" sx={sx} />;
  return <Box component="img" src={current.url} alt={alt} sx={{ objectFit: 'cover', display: 'block', ...sx }} />;
}
