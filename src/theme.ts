import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { ukUA } from '@mui/material/locale';
import { deepmerge } from '@mui/utils';

/** Dropdowns never grow taller than this (docs/architecture.md, "Interface conventions"). */
export const DROPDOWN_MAX_HEIGHT = 400;

/**
 * MUI's own words (table pagination, alerts, autocomplete, ratings) in Ukrainian whatever the
 * browser's language: its locale goes first, the product's settings over it.
 */
export const theme: RaThemeOptions = deepmerge(deepmerge(defaultTheme, ukUA), {
  palette: {
    primary: { main: '#1f5fa8' },
    secondary: { main: '#f2b01e' },
    background: { default: '#f5f7fa' },
    // Info and warning chips (request stages, states) need 4.5:1 (WCAG AA), filled with white text
    // and outlined on the page's background: MUI's own #0288d1 gives 3.9:1 and #ed6c02 3.1:1;
    // these give 5.7:1 and 5.0:1 (5.3:1 and 5.0:1 on the background).
    info: { main: '#016ba8' },
    warning: { main: '#b34a00' },
  },
  typography: { fontFamily: 'Roboto, "Helvetica Neue", Arial, sans-serif' },
  shape: { borderRadius: 8 },
  sidebar: { width: 260, closedWidth: 56 },
  components: {
    MuiMenu: { styleOverrides: { paper: { maxHeight: DROPDOWN_MAX_HEIGHT } } },
    MuiAutocomplete: { styleOverrides: { listbox: { maxHeight: DROPDOWN_MAX_HEIGHT } } },
    MuiSelect: { defaultProps: { MenuProps: { slotProps: { paper: { sx: { maxHeight: DROPDOWN_MAX_HEIGHT } } } } } },
    // A checkbox's `aria-label` names its input, not the span around it (react-admin's row
    // checkboxes pass it so): a label on the span is not allowed there and leaves the input nameless.
    // A checkbox that names its input itself (`slotProps.input`) keeps its own.
    MuiCheckbox: {
      defaultProps: {
        slotProps: {
          root: () => ({ 'aria-label': undefined }),
          input: (ownerState: { 'aria-label'?: string }) => (ownerState['aria-label'] ? { 'aria-label': ownerState['aria-label'] } : {}),
        },
      },
    },
  },
});
