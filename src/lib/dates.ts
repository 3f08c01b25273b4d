import dayjs from 'dayjs';
import 'dayjs/locale/uk';

/** The app's date format. */
export const DATE_FORMAT = 'DD.MM.YYYY';
/** The app's date-time format. */
export const DATE_TIME_FORMAT = 'DD.MM.YYYY HH:mm';

export type DateInput = string | number | Date | null | undefined;

/**
 * The single date formatter of the app (dayjs, Ukrainian locale, local time).
 * Empty or invalid input gives ''.
 *
 * @example formatDate('2026-03-05') // '05.03.2026'
 * @example formatDate('2026-03-05', 'DD:MM:YY') // '05:03:26'
 * @example formatDate('2026-03-05', 'D MMMM YYYY') // '5 березня 2026'
 */
export const formatDate = (value: DateInput, pattern: string = DATE_FORMAT): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' && value.trim() === '') return '';
  if (typeof value === 'number' && !Number.isFinite(value)) return '';
  const date = dayjs(typeof value === 'string' ? value.trim() : value);
  if (!date.isValid()) return '';
  return date.locale('uk').format(pattern);
};

/** Date and time: 'DD.MM.YYYY HH:mm'. */
export const formatDateTime = (value: DateInput): string => formatDate(value, DATE_TIME_FORMAT);
