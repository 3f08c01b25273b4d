import { useId, useMemo, useState } from 'react';
import { Box, Button, Divider, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import CheckBox from '@mui/icons-material/CheckBox';
import CheckBoxOutlineBlank from '@mui/icons-material/CheckBoxOutlineBlank';
import { useTranslate } from 'react-admin';
import { useComplexSelection, type AddressOption } from './ComplexSelectionProvider';
import { dropdownPaperStyle, ellipsisSx, selectorButtonSx } from './styles';

/** 'first address', 'first address (+N)' for N further ones, or null when nothing is selected. */
export function addressLabel(addresses: AddressOption[], selected: readonly number[], more: (name: string, count: number) => string): string | null {
  const chosen = new Set(selected);
  const picked = addresses.filter((a) => chosen.has(a.id));
  if (picked.length === 0) return null;
  return picked.length === 1 ? picked[0].address : more(picked[0].address, picked.length - 1);
}

export interface AddressSelectorProps {
  disabled?: boolean;
}

/** Multi-select of the selected complex's addresses (houses), with "all" and "none" shortcuts. */
export function AddressSelector({ disabled = false }: AddressSelectorProps) {
  const translate = useTranslate();
  const { addresses, addressesPending, houseIds, setHouseIds, complexId } = useComplexSelection();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const baseId = useId();
  const labelId = `${baseId}-label`;
  const buttonId = `${baseId}-button`;
  const menuId = `${baseId}-menu`;

  const selected = useMemo(() => new Set(houseIds ?? []), [houseIds]);
  const canOpen = !disabled && complexId !== undefined && !addressesPending;
  const open = canOpen && anchor !== null;
  const close = () => setAnchor(null);

  const label = addressesPending
    ? translate('app.selector.loading')
    : (addressLabel(addresses, houseIds ?? [], (name, count) => translate('app.selector.more', { name, count })) ?? translate('app.selector.select'));

  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setHouseIds(addresses.filter((a) => next.has(a.id)).map((a) => a.id));
  };

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', minWidth: 0 }}>
      <Box component="span" id={labelId} sx={visuallyHidden}>
        {translate('app.selector.addresses')}
      </Box>
      <Button
        id={buttonId}
        size="small"
        color="inherit"
        disabled={disabled}
        aria-labelledby={`${labelId} ${buttonId}`}
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open}
        aria-disabled={!canOpen || undefined}
        onClick={(event) => {
          if (canOpen) setAnchor(event.currentTarget);
        }}
        endIcon={<ArrowDropDown />}
        sx={selectorButtonSx}
      >
        <Box component="span" sx={ellipsisSx} data-testid="address-selector-label">
          {label}
        </Box>
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={close}
        slotProps={{
          paper: { style: dropdownPaperStyle },
          list: { dense: true, 'aria-labelledby': labelId },
        }}
      >
        {addresses.length === 0 ? (
          <MenuItem disabled>{translate('app.selector.no_addresses')}</MenuItem>
        ) : (
          [
            <MenuItem key="all" onClick={() => setHouseIds(addresses.map((a) => a.id))}>
              {translate('app.selector.all')}
            </MenuItem>,
            <MenuItem key="none" onClick={() => setHouseIds([])}>
              {translate('app.selector.none')}
            </MenuItem>,
            <Divider key="divider" />,
            ...addresses.map((a) => {
              const checked = selected.has(a.id);
              return (
                <MenuItem key={a.id} role="menuitemcheckbox" aria-checked={checked} onClick={() => toggle(a.id)}>
                  <ListItemIcon sx={{ color: checked ? 'primary.main' : undefined }}>
                    {checked ? <CheckBox fontSize="small" /> : <CheckBoxOutlineBlank fontSize="small" />}
                  </ListItemIcon>
                  <ListItemText>{a.address}</ListItemText>
                </MenuItem>
              );
            }),
          ]
        )}
      </Menu>
    </Box>
  );
}
