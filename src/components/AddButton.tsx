import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useTranslate } from 'react-admin';
import type { Area } from '../../contract/permissions';
import { useCan } from '../lib/useCan';

/** The «Додати» button of a list toolbar; absent when the user's role may not create in `area`. */
export function AddButton({ area, onClick, label = 'app.actions.add' }: { area: Area; onClick: () => void; label?: string }) {
  const translate = useTranslate();
  const allowed = useCan(area, 'create');
  if (!allowed) return null;
  return (
    <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={onClick} data-testid="add-button">
      {translate(label)}
    </Button>
  );
}
