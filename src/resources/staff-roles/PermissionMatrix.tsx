import { Checkbox, FormHelperText, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import { useInput, useTranslate } from 'react-admin';
import { ACTIONS, AREAS, canAccess, type Action, type Area, type Rules } from '../../../contract/permissions';

/**
 * The rights of one area after a click: any action but view brings view with it, and taking
 * view away takes everything. Actions stay in canonical order.
 */
export function toggleRight(rules: Rules, area: Area, action: Action, on: boolean): Rules {
  const current = new Set(rules[area] ?? []);
  if (on) {
    current.add(action);
    current.add('view');
  } else if (action === 'view') current.clear();
  else current.delete(action);
  const next = { ...rules };
  const actions = ACTIONS.filter((a) => current.has(a));
  if (actions.length > 0) next[area] = actions;
  else delete next[area];
  return next;
}

/**
 * The permission matrix of a role: rows are the product's areas, columns view / create / edit /
 * delete. `limit` (the editing user's own rules, unless they are an admin) disables the rights
 * they cannot grant, as the API refuses them.
 */
export function PermissionMatrixInput({ source, limit }: { source: string; limit?: Rules }) {
  const translate = useTranslate();
  const { field, fieldState } = useInput<Rules>({ source, defaultValue: {} });
  const rules: Rules = field.value ?? {};
  const grantable = (area: Area, action: Action) => !limit || canAccess(limit, area, action);
  const set = (area: Area, action: Action, on: boolean) => field.onChange(toggleRight(rules, area, action, on));

  return (
    <>
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {translate('resources.staff-roles.fields.permissions')}
      </Typography>
      <Table size="small" aria-label={translate('resources.staff-roles.fields.permissions')} sx={{ '& td, & th': { py: 0.25 } }}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.permissions.area')}</TableCell>
            {ACTIONS.map((a) => (
              <TableCell key={a} align="center">
                {translate(`app.permissions.${a}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {AREAS.map((area) => {
            const areaName = translate(`app.areas.${area}`);
            return (
              <TableRow key={area} hover>
                <TableCell component="th" scope="row">
                  {areaName}
                </TableCell>
                {ACTIONS.map((action) => {
                  const checked = canAccess(rules, area, action);
                  const allowed = grantable(area, action) || checked;
                  const box = (
                    <Checkbox
                      size="small"
                      checked={checked}
                      disabled={!allowed}
                      onChange={(e) => set(area, action, e.target.checked)}
                      slotProps={{ input: { 'aria-label': `${areaName}: ${translate(`app.permissions.${action}`)}` } }}
                    />
                  );
                  return (
                    <TableCell key={action} align="center" padding="checkbox">
                      {allowed ? (
                        box
                      ) : (
                        <Tooltip title={translate('app.permissions.not_yours')}>
                          <span>{box}</span>
                        </Tooltip>
                      )}
                    </TableCell>
                  );
                })}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {fieldState.error?.message && <FormHelperText error>{fieldState.error.message}</FormHelperText>}
    </>
  );
}
