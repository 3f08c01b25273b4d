import { memo, useReducer, useState, type FocusEvent, type ReactNode, type Ref } from 'react';
import type { SxProps, Theme } from '@mui/material/styles';
import { FieldTitle, InputHelperText, useInput, useTranslate, type Validator } from 'react-admin';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/uk';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { TimePicker } from '@mui/x-date-pickers/TimePicker';
import { ukUA } from '@mui/x-date-pickers/locales';
import { DATE_FORMAT, DATE_TIME_FORMAT } from '../../lib/dates';

/*
 * Date and time inputs that are Ukrainian whatever the browser's or the app's language:
 * DD.MM.YYYY and DD.MM.YYYY HH:mm (24 h), weeks from Monday, Ukrainian month and day names.
 * Each input brings its own localization (dayjs `uk`, MUI X's Ukrainian texts), so the pickers
 * load only with the screens that use them and stay Ukrainian in a dialog, a test or a story.
 *
 * Values keep the API's formats:
 *   date       'YYYY-MM-DD'
 *   date-time  an instant, `toISOString()` (UTC, seconds and milliseconds zero)
 *   time       'HH:mm'
 *   month      'YYYY-MM'
 * and null when empty.
 */

/** Field placeholders in Ukrainian letters (MUI X's Ukrainian texts keep the Latin ones). */
const localeText = {
  ...ukUA.components.MuiLocalizationProvider.defaultProps.localeText,
  fieldYearPlaceholder: (params: { digitAmount: number }) => 'Р'.repeat(params.digitAmount),
  fieldMonthPlaceholder: () => 'ММ',
  fieldDayPlaceholder: () => 'ДД',
  fieldHoursPlaceholder: () => 'гг',
  fieldMinutesPlaceholder: () => 'хх',
};

/** The pickers' localization: dayjs in Ukrainian (Monday first) and MUI X's Ukrainian texts. */
export function UkPickersLocalization({ children }: { children: ReactNode }) {
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="uk" localeText={localeText}>
      {children}
    </LocalizationProvider>
  );
}

/** The calendar's weekday header: 'пн', 'вт'… (MUI's default is one capital letter: П, В, С, Ч, П…). */
const weekdayHeader = (day: Dayjs) => day.locale('uk').format('dd');

/** The bounds the API accepts for dates (contract/audience.ts: 2000–2100). */
const MIN_DATE = dayjs('2000-01-01');
const MAX_DATE = dayjs('2100-12-31');

type Kind = 'date' | 'datetime' | 'time' | 'month';

/** A value the picker shows but that is not a date yet (an unfinished or impossible entry). */
export const INVALID_DATE = 'invalid-date';

const TIME = /^([01]\d|2[0-3]):([0-5]\d)/;

/** The API's value → the picker's. */
function toPicker(kind: Kind, value: unknown): Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  if (kind === 'time' && typeof value === 'string') {
    const m = TIME.exec(value);
    return m ? dayjs().startOf('day').hour(Number(m[1])).minute(Number(m[2])) : dayjs(NaN);
  }
  if (kind === 'month' && typeof value === 'string' && /^\d{4}-\d{2}$/.test(value)) return dayjs(`${value}-01`);
  if (typeof value === 'string' || typeof value === 'number' || value instanceof Date) return dayjs(value);
  return dayjs(NaN);
}

/** The picker's value → the API's: null when empty, INVALID_DATE while unfinished. */
function toApi(kind: Kind, value: Dayjs | null): string | null {
  if (value === null) return null;
  if (!value.isValid()) return INVALID_DATE;
  switch (kind) {
    case 'date':
      return value.format('YYYY-MM-DD');
    case 'month':
      return value.format('YYYY-MM');
    case 'time':
      return value.format('HH:mm');
    case 'datetime':
      return value.second(0).millisecond(0).toISOString();
  }
}

/** Compares outside values by content (a Date is a new object after every reset of a form). */
const valueKey = (value: unknown) => (value instanceof Date ? `date:${value.getTime()}` : value === '' || value === undefined ? null : value);

/**
 * The picker's own value, kept while an entry is unfinished, and set again when the value
 * changes from outside (a form reset, a filter reset).
 *
 * `form`: an unfinished entry goes on as INVALID_DATE (a form's validation refuses it); otherwise
 * it is not passed on and only shown. MUI X passes nothing on while a field that was empty is
 * half typed, so leaving a field with digits in it but no value counts as unfinished too.
 */
function usePickerValue(kind: Kind, outside: unknown, emit: (value: string | null) => void, form: boolean) {
  const [state, setState] = useState(() => ({ outside: valueKey(outside), value: toPicker(kind, outside), halfTyped: false }));
  if (state.outside !== valueKey(outside)) setState({ outside: valueKey(outside), value: toPicker(kind, outside), halfTyped: false });
  const onChange = (value: Dayjs | null) => {
    const next = toApi(kind, value);
    if (next === INVALID_DATE && !form) {
      setState((s) => ({ ...s, value, halfTyped: false }));
      return;
    }
    setState({ outside: valueKey(next), value, halfTyped: false });
    emit(next);
  };
  const onBlur = (text: string) => {
    if (state.value !== null) return;
    const halfTyped = /\d/.test(text);
    const next = halfTyped ? INVALID_DATE : null;
    if (!form) setState((s) => ({ ...s, halfTyped }));
    else if (valueKey(next) !== state.outside) {
      setState({ outside: valueKey(next), value: null, halfTyped });
      emit(next);
    }
  };
  const unfinished = state.halfTyped || (state.value !== null && !state.value.isValid());
  return { value: state.value, onChange, onBlur, unfinished };
}

interface PickerProps {
  kind: Kind;
  value: Dayjs | null;
  onChange: (value: Dayjs | null) => void;
  onBlur?: (event: FocusEvent<HTMLInputElement>) => void;
  label?: ReactNode;
  helperText?: ReactNode;
  error?: boolean;
  id?: string;
  name?: string;
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  fullWidth?: boolean;
  size?: 'small' | 'medium';
  margin?: 'none' | 'dense' | 'normal';
  sx?: SxProps<Theme>;
  minDate?: string;
  maxDate?: string;
  /** A button that empties the field (for inputs that may be empty). */
  clearable?: boolean;
}

/** One MUI X picker with a plain text field: digits are typed section by section, the calendar opens from the icon. */
function UkPicker({
  kind,
  value,
  onChange,
  onBlur,
  label,
  helperText,
  error,
  id,
  name,
  inputRef,
  className,
  required,
  clearable = !required,
  disabled,
  readOnly,
  fullWidth,
  size = 'small',
  margin,
  sx,
  minDate,
  maxDate,
}: PickerProps) {
  // A click into the section that is already selected (in a field focused by Tab, or by the form
  // after a refused save) leaves the browser's caret there, and MUI X, whose selection has not
  // changed, neither renders nor selects the section again: typing then goes nowhere. A render
  // after every click lets it put the section's selection back.
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const common = {
    value,
    onChange,
    label,
    name,
    inputRef,
    disabled,
    readOnly,
    enableAccessibleFieldDOMStructure: false as const,
    slotProps: {
      field: { clearable: clearable && !disabled && !readOnly },
      textField: {
        id,
        className,
        required,
        fullWidth,
        size,
        margin,
        sx,
        onBlur,
        onClick: rerender,
        ...(error !== undefined ? { error } : {}),
        ...(helperText !== undefined ? { helperText } : {}),
      },
    },
  };
  const calendar = { minDate: minDate ? dayjs(minDate) : MIN_DATE, maxDate: maxDate ? dayjs(maxDate) : MAX_DATE, dayOfWeekFormatter: weekdayHeader };
  return (
    <UkPickersLocalization>
      {kind === 'date' && <DatePicker {...common} {...calendar} format={DATE_FORMAT} />}
      {kind === 'month' && <DatePicker {...common} {...calendar} format="MM.YYYY" views={['year', 'month']} openTo="month" />}
      {kind === 'datetime' && <DateTimePicker {...common} {...calendar} format={DATE_TIME_FORMAT} ampm={false} />}
      {kind === 'time' && <TimePicker {...common} format="HH:mm" ampm={false} />}
    </UkPickersLocalization>
  );
}

// ---------------------------------------------------------------------------------------------
// react-admin inputs

/** Refuses an unfinished or impossible entry (the picker shows it, the form has no date). */
const validDate: Validator = (value) => (value === INVALID_DATE ? 'app.dates.invalid' : undefined);

export interface UkInputProps {
  source: string;
  /** A translation key or text; false for none. Default: react-admin's field label. */
  label?: string | false;
  validate?: Validator | Validator[];
  /** A translation key or text; false for no helper line. */
  helperText?: string | false;
  defaultValue?: unknown;
  fullWidth?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  resource?: string;
  className?: string;
  margin?: 'none' | 'dense' | 'normal';
  sx?: SxProps<Theme>;
  /** 'YYYY-MM-DD' (date-time inputs too); the calendar offers no day outside. */
  minDate?: string;
  maxDate?: string;
}

function UkInput({
  kind,
  source,
  label,
  validate,
  helperText,
  defaultValue,
  fullWidth,
  disabled,
  readOnly,
  resource,
  className,
  margin,
  sx,
  minDate,
  maxDate,
}: UkInputProps & { kind: Kind }) {
  const validators = [validDate, ...(validate === undefined ? [] : Array.isArray(validate) ? validate : [validate])];
  const { field, fieldState, id, isRequired } = useInput({
    source,
    resource,
    defaultValue,
    validate: validators,
    disabled,
    readOnly,
    // The value stays as the API has it; the picker converts it.
    format: (v: unknown) => v,
    parse: (v: unknown) => v,
  });
  const picker = usePickerValue(kind, field.value, field.onChange, true);
  const { error, invalid } = fieldState;
  return (
    <UkPicker
      kind={kind}
      value={picker.value}
      onChange={picker.onChange}
      onBlur={(event) => {
        picker.onBlur(event.target.value);
        field.onBlur();
      }}
      id={id}
      name={field.name}
      inputRef={field.ref}
      className={['ra-input', `ra-input-${source}`, className].filter(Boolean).join(' ')}
      label={label === false || label === '' ? undefined : <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} />}
      error={invalid}
      helperText={helperText === false && !invalid ? undefined : <InputHelperText error={error?.message} helperText={helperText} />}
      clearable={!isRequired}
      disabled={disabled}
      readOnly={readOnly}
      fullWidth={fullWidth}
      margin={margin}
      sx={sx}
      minDate={minDate}
      maxDate={maxDate}
    />
  );
}

/** A react-admin date input: shows DD.MM.YYYY, the form value is 'YYYY-MM-DD' (null when empty). */
export const UkDateInput = (props: UkInputProps) => <UkInput kind="date" {...props} />;

/** A react-admin date-time input: shows DD.MM.YYYY HH:mm, the form value is an ISO instant (`toISOString()`, null when empty). */
export const UkDateTimeInput = (props: UkInputProps) => <UkInput kind="datetime" {...props} />;

/** A react-admin time input: 24 h HH:mm, the form value is 'HH:mm' (null when empty). */
export const UkTimeInput = (props: Omit<UkInputProps, 'minDate' | 'maxDate'>) => <UkInput kind="time" {...props} />;

// ---------------------------------------------------------------------------------------------
// Plain fields, for screens with their own state (filters, dialogs)

export interface UkFieldProps {
  /** The API's format ('' and null are empty). */
  value: string | null | undefined;
  /** Called with a complete value or null; an unfinished entry is shown as an error and not passed on. */
  onChange: (value: string | null) => void;
  label: string;
  helperText?: ReactNode;
  error?: boolean;
  required?: boolean;
  disabled?: boolean;
  fullWidth?: boolean;
  size?: 'small' | 'medium';
  sx?: SxProps<Theme>;
  minDate?: string;
  maxDate?: string;
}

function UkField({ kind, value, onChange, label, helperText, error, ...rest }: UkFieldProps & { kind: Kind }) {
  const translate = useTranslate();
  const picker = usePickerValue(kind, value, onChange, false);
  const unfinished = picker.unfinished;
  return (
    <UkPicker
      kind={kind}
      value={picker.value}
      onChange={picker.onChange}
      onBlur={(event) => picker.onBlur(event.target.value)}
      label={label}
      error={Boolean(error) || unfinished}
      helperText={unfinished && !error ? translate('app.dates.invalid') : helperText}
      {...rest}
    />
  );
}

// The plain fields are memoized: a picker costs a lot to render, and a screen with filters renders
// often. With a stable `onChange` (and `sx`), a field renders again only when its own props change.

/** A date field: DD.MM.YYYY on screen, 'YYYY-MM-DD' or null in `onChange`. */
export const UkDateField = memo((props: UkFieldProps) => <UkField kind="date" {...props} />);

/** A date-time field: DD.MM.YYYY HH:mm on screen, an ISO instant or null in `onChange`. */
export const UkDateTimeField = memo((props: UkFieldProps) => <UkField kind="datetime" {...props} />);

/** A month field: MM.YYYY on screen, 'YYYY-MM' or null in `onChange`. */
export const UkMonthField = memo((props: UkFieldProps) => <UkField kind="month" {...props} />);
