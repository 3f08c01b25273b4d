import { Box } from '@mui/material';
import { useLocation } from 'react-router-dom';
import { EDITION, type Edition } from '../../edition';
import { AddressSelector } from './AddressSelector';
import { ComplexSelector, type ComplexSelectorProps } from './ComplexSelector';
import { selectionShown } from './sections';

export interface HeaderSelectorsProps extends ComplexSelectorProps {
  /** Defaults to the build's edition; the selectors never show in the alternative one. */
  edition?: Edition;
}

/**
 * Complex and address selectors for the header: only on News, Requests, Members, Announcements,
 * Voting and Events (and their sub-pages), and never in the alternative edition.
 */
export function HeaderSelectors({ edition = EDITION, disabled, readOnly }: HeaderSelectorsProps) {
  const { pathname } = useLocation();
  if (!selectionShown(pathname, edition)) return null;
  return (
    <Box data-testid="header-selectors" sx={{ display: 'flex', alignItems: 'center', gap: 1, mx: 1, minWidth: 0, flexShrink: 1 }}>
      <ComplexSelector disabled={disabled} readOnly={readOnly} />
      <AddressSelector disabled={disabled} />
    </Box>
  );
}
