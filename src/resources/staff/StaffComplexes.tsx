import { Chip, Stack } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Staff } from '../../../contract/staff';

/** An admin works in every complex; a staff member in the ones listed. */
export function StaffComplexes({ staff }: { staff: Staff }) {
  const translate = useTranslate();
  if (staff.is_admin) return <Chip size="small" color="primary" variant="outlined" label={translate('resources.staff.all_complexes')} />;
  if (staff.complexes.length === 0) return <>—</>;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {staff.complexes.map((c) => (
        <Chip key={c.id} size="small" label={c.name} />
      ))}
    </Stack>
  );
}
