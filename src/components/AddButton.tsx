import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useTranslate } from 'react-admin';
import type { Area } from '../../contract/permissions';
import { useRights } from '../lib/useRights';

/** The «Додати» button of a list toolbar; absent when the user's role may not create in `area`. */
export function AddButton({ area, onClick, label = 'app.actions.add' }: { area: Area; onClick: () => void; label?: string }) {
  const translate = useTranslate();
  const { canCreate } = useRights(area);
  if (!canCreate) return null;
  return (
    <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={onClick} data-testid="add-button">
      {translate(label)}
    </Button>
  );
}
