import { useState } from 'react';
import { Alert, Button, Chip, MenuItem, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useQuery } from '@tanstack/react-query';
import { HttpError, useGetList, useNotify, useTranslate } from 'react-admin';
import type { Bill, Resident } from '../../../contract/members';
import { FormDialog } from '../../components/FormDialog';
import { UkMonthField } from '../../components/inputs/DateInputs';
import { unitLabel } from '../../lib/unitLabel';
import { getBills, updateBills, type BillChange } from './api';
import { formatMoney, toKopiyky } from './money';
import { LoadError } from '../../components/LoadError';
import { useRights } from '../../lib/useRights';

type Editing = { kind: 'pay' | 'correct'; bill: Bill } | { kind: 'add' } | null;

const periodLabel = (period: string) => `${period.slice(5, 7)}.${period.slice(0, 4)}`;
const STATUS_COLOR = { paid: 'success', partial: 'warning', unpaid: 'error' } as const;

/** Bills tab: the monthly charges of the member's units, with payments and corrections. */
export function MemberBillsTab({ memberId }: { memberId: number }) {
  const translate = useTranslate();
  const { canEdit } = useRights('members');
  const { data, isPending, error, refetch } = useQuery({ queryKey: ['bills', memberId], queryFn: () => getBills({ resident_id: memberId, per_page: 120 }) });
  const [editing, setEditing] = useState<Editing>(null);
  const bills = data?.data ?? [];
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {data &&
            translate('resources.bills.totals', {
              amount: formatMoney(data.totals.amount),
              paid: formatMoney(data.totals.paid),
              debt: formatMoney(data.totals.debt),
            })}
        </Typography>
        {canEdit && (
          <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ kind: 'add' })}>
            {translate('resources.bills.add')}
          </Button>
        )}
      </Stack>
      {error ? <LoadError error={error} onRetry={() => void refetch()} /> : null}
      {!isPending && bills.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ py: 2 }}>
          {translate('resources.bills.empty')}
        </Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              {(['period', 'realty', 'service', 'amount', 'paid', 'debt', 'status'] as const).map((f) => (
                <TableCell key={f} align={['amount', 'paid', 'debt'].includes(f) ? 'right' : 'left'}>
                  {translate(`resources.bills.fields.${f}`)}
                </TableCell>
              ))}
              {canEdit && <TableCell />}
            </TableRow>
          </TableHead>
          <TableBody>
            {bills.map((b) => (
              <TableRow key={b.id}>
                <TableCell>{periodLabel(b.period)}</TableCell>
                <TableCell>№ {b.realty_number}</TableCell>
                <TableCell>{b.service}</TableCell>
                <TableCell align="right">{formatMoney(b.amount)}</TableCell>
                <TableCell align="right">{formatMoney(b.paid)}</TableCell>
                <TableCell align="right">{formatMoney(b.debt)}</TableCell>
                <TableCell>
                  <Chip size="small" color={STATUS_COLOR[b.status]} variant="outlined" label={translate(`resources.bills.statuses.${b.status}`)} />
                </TableCell>
                {canEdit && (
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Button size="small" onClick={() => setEditing({ kind: 'pay', bill: b })}>
                      {translate('resources.bills.pay')}
                    </Button>
                    <Button size="small" onClick={() => setEditing({ kind: 'correct', bill: b })}>
                      {translate('resources.bills.correct')}
                    </Button>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {editing && <BillDialog memberId={memberId} editing={editing} onClose={() => setEditing(null)} onSaved={() => void refetch()} />}
    </>
  );
}

function BillDialog({ memberId, editing, onClose, onSaved }: { memberId: number; editing: NonNullable<Editing>; onClose: () => void; onSaved: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const bill = editing.kind === 'add' ? null : editing.bill;
  const { data: units = [] } = useGetList<Resident>(
    'residents',
    { filter: { resident_id: memberId }, pagination: { page: 1, perPage: 100 } },
    { enabled: editing.kind === 'add' },
  );
  const [values, setValues] = useState({
    payment: '',
    amount: bill ? (bill.amount / 100).toFixed(2) : '',
    paid: bill ? (bill.paid / 100).toFixed(2) : '',
    realty_id: '' as number | '',
    period: new Date().toISOString().slice(0, 7),
    service: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const money = (field: 'payment' | 'amount' | 'paid') => {
    const k = toKopiyky(values[field]);
    if (k === null) setErrors((e) => ({ ...e, [field]: translate('ra.validation.number') }));
    return k;
  };

  const save = async () => {
    setErrors({});
    let change: BillChange | null = null;
    if (editing.kind === 'pay') {
      const payment = money('payment');
      if (payment !== null) change = { id: editing.bill.id, payment };
    } else if (editing.kind === 'correct') {
      const amount = money('amount');
      const paid = money('paid');
      if (amount !== null && paid !== null) change = { id: editing.bill.id, amount, paid };
    } else {
      const amount = money('amount');
      if (amount !== null)
        change = { realty_id: values.realty_id === '' ? undefined : values.realty_id, period: values.period, service: values.service.trim(), amount };
    }
    if (!change) return;
    setSaving(true);
    try {
      await updateBills([change]);
      notify('resources.bills.notifications.saved', { type: 'success' });
      onSaved();
      onClose();
    } catch (err) {
      const fieldErrors = err instanceof HttpError ? ((err.body as { errors?: Record<string, string> })?.errors ?? {}) : {};
      const mapped = Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k.replace(/^bills\.0\./, ''), v]));
      setErrors(mapped);
      if (Object.keys(mapped).length === 0) notify((err as Error).message, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const title =
    editing.kind === 'add'
      ? translate('resources.bills.add_title')
      : translate(`resources.bills.${editing.kind}_title`, { service: editing.bill.service, period: periodLabel(editing.bill.period) });
  const field = (name: keyof typeof values, label: string, extra: object = {}) => (
    <TextField
      label={label}
      value={values[name]}
      onChange={set(name)}
      error={Boolean(errors[name])}
      helperText={errors[name]}
      size="small"
      fullWidth
      {...extra}
    />
  );
  return (
    <FormDialog open onClose={onClose} title={title} size="small">
      <Stack spacing={2} sx={{ pt: 1 }}>
        {editing.kind === 'pay' && field('payment', translate('resources.bills.payment'), { autoFocus: true, inputMode: 'decimal' })}
        {editing.kind === 'add' && (
          <>
            <TextField
              select
              label={translate('resources.bills.fields.realty')}
              value={values.realty_id}
              onChange={set('realty_id')}
              error={Boolean(errors.realty_id)}
              helperText={errors.realty_id}
              size="small"
              fullWidth
            >
              {units.map((u) => (
                <MenuItem key={u.realty_id} value={u.realty_id}>
                  {unitLabel(u, translate)}
                </MenuItem>
              ))}
            </TextField>
            <UkMonthField
              label={translate('resources.bills.fields.period')}
              value={values.period}
              onChange={(v) => setValues((prev) => ({ ...prev, period: v ?? '' }))}
              error={Boolean(errors.period)}
              helperText={errors.period}
              fullWidth
            />
            {field('service', translate('resources.bills.fields.service'))}
          </>
        )}
        {editing.kind !== 'pay' && field('amount', translate('resources.bills.amount_uah'), { inputMode: 'decimal' })}
        {editing.kind === 'correct' && field('paid', translate('resources.bills.paid_uah'), { inputMode: 'decimal' })}
        {errors.id && <Alert severity="error">{errors.id}</Alert>}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{translate('app.actions.cancel')}</Button>
          <Button variant="contained" onClick={save} disabled={saving}>
            {translate('app.actions.save')}
          </Button>
        </Stack>
      </Stack>
    </FormDialog>
  );
}
