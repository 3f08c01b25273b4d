import { Card, Chip, LinearProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useGetList, useTranslate } from 'react-admin';
import type { ResidentRole } from '../../../contract/members';
import { usePageHeader } from '../../layout/navigation';

/** /Members/roles: the residents' roles, what each means for ownership and voting, and how many residents hold it. */
export default function ResidentRolesPage() {
  const translate = useTranslate();
  usePageHeader(translate('resources.resident-roles.title'), '/Members');
  const { data, isPending } = useGetList<ResidentRole>('resident-roles', { pagination: { page: 1, perPage: 100 } });
  if (isPending) return <LinearProgress />;
  return (
    <Card sx={{ maxWidth: 796 }}>
      <Table>
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.resident-roles.fields.name')}</TableCell>
            <TableCell>{translate('resources.resident-roles.fields.meaning')}</TableCell>
            <TableCell align="right">{translate('resources.resident-roles.fields.residents_count')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(data ?? []).map((r) => (
            <TableRow key={r.id}>
              <TableCell>
                <Typography sx={{ fontWeight: 500 }}>{r.name}</Typography>
              </TableCell>
              <TableCell>
                {r.holds_share ? (
                  <Chip size="small" color="primary" variant="outlined" label={translate('resources.resident-roles.holds_share')} />
                ) : (
                  <Chip size="small" variant="outlined" label={translate('resources.resident-roles.no_share')} />
                )}
              </TableCell>
              <TableCell align="right">{r.residents_count ?? 0}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
        {translate('resources.resident-roles.hint')}
      </Typography>
    </Card>
  );
}
