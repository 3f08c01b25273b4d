import { useState } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, Form, memoryStore, required, useTranslate } from 'react-admin';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UkDateField, UkDateInput, UkDateTimeInput, UkMonthField, UkTimeInput } from '../../src/components/inputs/DateInputs';
import { i18nProvider } from '../../src/i18n';
import { theme } from '../../src/theme';

// The app in English, in a browser that speaks American English: the date inputs stay Ukrainian.
beforeAll(async () => {
  localStorage.setItem('locale', 'en');
  await i18nProvider.changeLocale('en');
});
// The provider is one object: the next test file of this worker finds it in Ukrainian again.
afterAll(async () => {
  localStorage.removeItem('locale');
  await i18nProvider.changeLocale('uk');
});

/** 14:30 local time on 5 March 2026, as the API has it (an instant). */
const AT = new Date(2026, 2, 5, 14, 30).toISOString();

function SaveLabel() {
  const translate = useTranslate();
  return <button type="submit">{translate('ra.action.save')}</button>;
}

function renderForm(defaultValues: Record<string, unknown>, onSubmit = vi.fn()) {
  render(
    <AdminContext theme={theme} i18nProvider={i18nProvider} store={memoryStore()}>
      <Form defaultValues={defaultValues} onSubmit={onSubmit}>
        <UkDateInput source="day" label="Day" validate={required()} />
        <UkDateTimeInput source="at" label="At" />
        <UkTimeInput source="time" label="Time" />
        <SaveLabel />
      </Form>
    </AdminContext>,
  );
  return onSubmit;
}

const input = (label: string) => screen.getByRole('textbox', { name: label }) as HTMLInputElement;
const submitted = (onSubmit: ReturnType<typeof vi.fn>) => onSubmit.mock.calls[0][0] as Record<string, unknown>;

describe('date inputs in an English app and browser', () => {
  it('run in English otherwise', async () => {
    expect(navigator.language).toBe('en-US');
    renderForm({});
    expect(await screen.findByRole('button', { name: 'Save' })).toBeTruthy();
  });

  it('show DD.MM.YYYY, DD.MM.YYYY HH:mm and a 24-hour time, and submit the values unchanged', async () => {
    const onSubmit = renderForm({ day: '2026-03-05', at: AT, time: '18:30' });
    expect(input('Day').value).toBe('05.03.2026');
    expect(input('At').value).toBe('05.03.2026 14:30');
    expect(input('Time').value).toBe('18:30');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(submitted(onSubmit)).toMatchObject({ day: '2026-03-05', at: AT, time: '18:30' });
  });

  it('take typed digits and submit the API formats: YYYY-MM-DD, an ISO instant, HH:mm', async () => {
    const user = userEvent.setup();
    const onSubmit = renderForm({ day: null, at: null, time: null });
    await user.click(input('Day'));
    await user.keyboard('05032026');
    expect(input('Day').value).toBe('05.03.2026');
    await user.click(input('At'));
    await user.keyboard('050320261430');
    expect(input('At').value).toBe('05.03.2026 14:30');
    await user.click(input('Time'));
    await user.keyboard('0915');
    expect(input('Time').value).toBe('09:15');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(submitted(onSubmit)).toMatchObject({ day: '2026-03-05', at: AT, time: '09:15' });
  });

  it('show Ukrainian placeholders and give null for an emptied input', async () => {
    const user = userEvent.setup();
    const onSubmit = renderForm({ day: '2026-03-05', at: AT });
    const at = input('At').closest('.MuiFormControl-root') as HTMLElement;
    await user.click(within(at).getByRole('button', { name: 'Очистити дані' }));
    await user.click(input('At'));
    expect(input('At').value).toBe('ДД.ММ.РРРР гг:хх');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(submitted(onSubmit)).toMatchObject({ day: '2026-03-05', at: null });
  });

  it('refuse an unfinished date, and an empty required one', async () => {
    const user = userEvent.setup();
    const onSubmit = renderForm({ day: null, at: AT });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Required')).toBeTruthy();
    // The form has put the focus on the empty date; a click into it, then typing, still enters digits.
    expect(document.activeElement).toBe(input('Day'));
    await user.click(input('Day'));
    await user.keyboard('0503');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a complete date (DD.MM.YYYY).')).toBeTruthy();
    // A section deleted from a complete date-time.
    await user.click(input('At'));
    await user.keyboard('{Backspace}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getAllByText('Enter a complete date (DD.MM.YYYY).')).toHaveLength(2));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('open a Ukrainian calendar: the month in Ukrainian, weeks from Monday (пн … нд)', async () => {
    const user = userEvent.setup();
    renderForm({ day: '2026-03-05' });
    await user.click(screen.getByRole('button', { name: /Оберіть дату, обрана дата\s+5 бер 2026 р\./ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('березень 2026')).toBeTruthy();
    const weekdays = within(dialog)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(weekdays).toEqual(['пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'нд']);
    // 1 March 2026 is a Sunday: the first week's row ends with it.
    const firstWeek = within(dialog).getAllByRole('row')[1];
    expect(within(firstWeek).getAllByRole('gridcell').at(-1)?.textContent).toBe('1');
    await user.click(within(dialog).getByRole('gridcell', { name: '17' }));
    expect(input('Day').value).toBe('17.03.2026');
  });

  it('open the date-time picker with a 24-hour clock', async () => {
    const user = userEvent.setup();
    renderForm({ at: AT });
    await user.click(screen.getByRole('button', { name: /Оберіть дату, обрана дата\s+5 бер 2026 р\./ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByRole('columnheader')[0].textContent).toBe('пн');
    expect(within(dialog).getByRole('option', { name: '23 годин' })).toBeTruthy();
    expect(within(dialog).queryByText('PM')).toBeNull();
  });
});

describe('plain date fields', () => {
  function Filter({ onChange }: { onChange: (v: string | null) => void }) {
    const [from, setFrom] = useState('');
    const [period, setPeriod] = useState('2026-03');
    return (
      <AdminContext theme={theme} i18nProvider={i18nProvider} store={memoryStore()}>
        <UkDateField
          label="From"
          value={from}
          onChange={(v) => {
            setFrom(v ?? '');
            onChange(v);
          }}
        />
        <UkMonthField label="Period" value={period} onChange={(v) => setPeriod(v ?? '')} />
        <span data-testid="period">{period}</span>
        <button type="button" onClick={() => setFrom('')}>
          reset
        </button>
      </AdminContext>
    );
  }

  it('pass on complete dates only, and follow a reset from outside', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Filter onChange={onChange} />);
    await user.click(input('From'));
    await user.keyboard('0503');
    await user.tab();
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText('Enter a complete date (DD.MM.YYYY).')).toBeTruthy();
    await user.click(input('From'));
    await user.keyboard('05032026');
    expect(onChange).toHaveBeenLastCalledWith('2026-03-05');
    expect(screen.queryByText('Enter a complete date (DD.MM.YYYY).')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'reset' }));
    expect(input('From').value).toBe('');
  });

  it('show a month as MM.YYYY and give YYYY-MM', async () => {
    const user = userEvent.setup();
    render(<Filter onChange={vi.fn()} />);
    expect(input('Period').value).toBe('03.2026');
    await user.click(input('Period'));
    await user.keyboard('112025');
    expect(screen.getByTestId('period').textContent).toBe('2025-11');
  });
});
