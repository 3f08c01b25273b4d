import { useId, useState } from 'react';
import { Box, Button, Menu, MenuItem } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import { useTranslate } from 'react-admin';
import { useComplexSelection } from './ComplexSelectionProvider';
import { dropdownPaperStyle, ellipsisSx, selectorButtonSx } from './styles';

export interface ComplexSelectorProps {
  disabled?: boolean;
  readOnly?: boolean;
}

/** The header's complex selector; it does not open with a single complex, or when disabled/read-only. */
export function ComplexSelector({ disabled = false, readOnly = false }: ComplexSelectorProps) {
  const translate = useTranslate();
  const { complexes, complex, selectComplex } = useComplexSelection();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const baseId = useId();
  const labelId = `${baseId}-label`;
  const buttonId = `${baseId}-button`;
  const menuId = `${baseId}-menu`;

  const canOpen = !disabled && !readOnly && complexes.length > 1;
  const open = canOpen && anchor !== null;
  const close = () => setAnchor(null);

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', minWidth: 0 }}>
      <Box component="span" id={labelId} sx={visuallyHidden}>
        {translate('app.selector.complex')}
      </Box>
      <Button
        id={buttonId}
        size="small"
        color="inherit"
        disabled={disabled}
        aria-labelledby={`${labelId} ${buttonId}`}
        aria-haspopup={canOpen ? 'menu' : undefined}
        aria-controls={open ? menuId : undefined}
        aria-expanded={canOpen ? open : undefined}
        aria-disabled={!canOpen || undefined}
        onClick={(event) => {
          if (canOpen) setAnchor(event.currentTarget);
        }}
        endIcon={canOpen ? <ArrowDropDown /> : undefined}
        sx={selectorButtonSx}
      >
        <Box component="span" sx={ellipsisSx}>
          {complex?.name ?? translate('app.selector.select')}
        </Box>
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={close}
        slotProps={{ paper: { style: dropdownPaperStyle }, list: { dense: true, 'aria-labelledby': labelId } }}
      >
        {complexes.map((c) => (
          <MenuItem
            key={c.id}
            role="menuitemradio"
            aria-checked={c.id === complex?.id}
            selected={c.id === complex?.id}
            onClick={() => {
              if (c.id !== complex?.id) selectComplex(c.id);
              close();
            }}
          >
            {c.name}
          </MenuItem>
        ))}
      </Menu>
    </Box>
  );
}
