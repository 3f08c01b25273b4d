import { Card, CardContent, Chip, Divider, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { usePageHeader } from '../layout/navigation';
import { useCurrentUser } from '../useCurrentUser';

/** Personal data of the signed-in user, from GET /user. */
export default function UserPage() {
  const translate = useTranslate();
  const { user } = useCurrentUser();
  usePageHeader(translate('app.user.title'));
  if (!user) return null;
  const rows: [string, string][] = [
    [translate('app.user.name'), user.name],
    [translate('app.user.email'), user.email],
    [translate('app.user.phone'), user.phone ?? translate('app.user.not_set')],
    [translate('app.user.role'), translate(user.is_admin ? 'app.user.admin' : 'app.user.staff')],
    [
      translate('app.user.two_factor'),
      translate(user.two_factor ? `app.user.two_factor_${user.two_factor}` : 'app.user.two_factor_off'),
    ],
  ];
  return (
    <Card sx={{ maxWidth: 796 }}>
      <CardContent>
        <Stack divider={<Divider flexItem />} spacing={1.5}>
          {rows.map(([label, value]) => (
            <Stack key={label} direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <Typography sx={{ width: 220, color: 'text.secondary' }}>{label}</Typography>
              <Typography>{value}</Typography>
            </Stack>
          ))}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <Typography sx={{ width: 220, color: 'text.secondary' }}>{translate('app.user.complexes')}</Typography>
            {user.is_admin ? (
              <Typography>{translate('app.user.all_complexes')}</Typography>
            ) : (
              <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
                {user.complexes.map((c) => (
                  <Chip key={c.id} label={c.name} size="small" />
                ))}
              </Stack>
            )}
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
