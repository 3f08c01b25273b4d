import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';

type Tone = 'default' | 'info' | 'success' | 'warning';

/** A small status label: `label` is an i18n key, `tone` its colour. */
export function StateChip({ label, tone }: { label: string; tone: Tone }) {
  const translate = useTranslate();
  return <Chip size="small" color={tone} variant={tone === 'default' ? 'outlined' : 'filled'} label={translate(label)} />;
}
