import type { SxProps, Theme } from '@mui/material/styles';
import { DROPDOWN_MAX_HEIGHT } from '../../theme';

/** A compact, white text button that sits on the blue app bar. */
export const selectorButtonSx: SxProps<Theme> = {
  color: 'inherit',
  textTransform: 'none',
  fontWeight: 500,
  fontSize: 14,
  lineHeight: 1.4,
  px: 1,
  py: 0.25,
  minWidth: 0,
  maxWidth: { xs: 140, sm: 220, lg: 280 },
  border: '1px solid rgba(255, 255, 255, 0.5)',
  '&:hover': { borderColor: '#fff', backgroundColor: 'rgba(255, 255, 255, 0.12)' },
  '&:focus-visible': { outline: '2px solid #fff', outlineOffset: 2 },
  '&.Mui-disabled, &[aria-disabled="true"]': { color: 'rgba(255, 255, 255, 0.75)', borderColor: 'rgba(255, 255, 255, 0.3)', cursor: 'default' },
  '&[aria-disabled="true"]:hover': { backgroundColor: 'transparent' },
  '& .MuiButton-endIcon': { ml: 0.25 },
};

export const ellipsisSx: SxProps<Theme> = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' };

/** Inline, so that the cap holds whatever theme the menu is rendered with. */
export const dropdownPaperStyle = { maxHeight: DROPDOWN_MAX_HEIGHT } as const;
