import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { residentRoleEntity } from '../../../contract/residentRoles';
import { usePageHeader } from '../../layout/navigation';
import { EntityList } from '../generic/EntityList';

/** /Members/roles: the residents' roles (the generic list of their declaration), with what a share means for voting. */
export default function ResidentRolesPage() {
  const translate = useTranslate();
  usePageHeader(translate('resources.resident-roles.title'), '/Members');
  return (
    <>
      <EntityList entity={residentRoleEntity} embedded />
      <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
        {translate('resources.resident-roles.hint')}
      </Typography>
    </>
  );
}
