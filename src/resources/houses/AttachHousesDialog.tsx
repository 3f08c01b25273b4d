import { useState } from 'react';
import { Button, Checkbox, List, ListItemButton, ListItemIcon, ListItemText, Stack, Typography } from '@mui/material';
import { useDataProvider, useGetList, useNotify, useTranslate } from 'react-admin';
import type { House } from '../../../contract/houses';
import { FormDialog } from '../../components/FormDialog';

/** Attach houses that belong to no complex yet. */
export function AttachHousesDialog({
  open,
  complexId,
  onClose,
  onAttached,
}: {
  open: boolean;
  complexId: number;
  onClose: () => void;
  onAttached: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider();
  const { data = [], isPending } = useGetList<House>(
    'houses',
    { filter: { unlinked: 1 }, pagination: { page: 1, perPage: 200 }, sort: { field: 'address', order: 'ASC' } },
    { enabled: open },
  );
  const [chosen, setChosen] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const toggle = (id: number) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));
  const attach = async () => {
    setBusy(true);
    try {
      for (const house of data.filter((h) => chosen.includes(h.id))) {
        await dataProvider.update('houses', { id: house.id, data: { ...house, complex_id: complexId }, previousData: house });
      }
      notify('resources.houses.notifications.attached', { type: 'success', messageArgs: { smart_count: chosen.length } });
      setChosen([]);
      onAttached();
      onClose();
    } catch (err) {
      notify((err as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog open={open} onClose={onClose} title={translate('resources.houses.attach_title')} size="medium">
      {!isPending && data.length === 0 && <Typography color="text.secondary">{translate('resources.houses.attach_empty')}</Typography>}
      <List dense sx={{ maxHeight: 400, overflow: 'auto' }}>
        {data.map((h) => (
          <ListItemButton key={h.id} onClick={() => toggle(h.id)}>
            <ListItemIcon>
              <Checkbox edge="start" checked={chosen.includes(h.id)} tabIndex={-1} disableRipple slotProps={{ input: { 'aria-label': h.address } }} />
            </ListItemIcon>
            <ListItemText primary={h.address} secondary={h.house_type ?? undefined} />
          </ListItemButton>
        ))}
      </List>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 1 }}>
        <Button onClick={onClose}>{translate('app.actions.cancel')}</Button>
        <Button variant="contained" disabled={chosen.length === 0 || busy} onClick={attach}>
          {translate('resources.houses.attach_submit', { smart_count: chosen.length })}
        </Button>
      </Stack>
    </FormDialog>
  );
}
