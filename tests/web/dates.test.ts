import { describe, expect, it } from 'vitest';
import { DATE_FORMAT, formatDate, formatDateTime } from '../../src/lib/dates';

describe('formatDate', () => {
  it('formats as DD.MM.YYYY by default', () => {
    expect(DATE_FORMAT).toBe('DD.MM.YYYY');
    expect(formatDate('2026-03-05')).toBe('05.03.2026');
    expect(formatDate(new Date(2026, 11, 31, 23, 59))).toBe('31.12.2026');
    expect(formatDate(new Date(2026, 0, 2).getTime())).toBe('02.01.2026');
  });

  it('accepts custom patterns', () => {
    expect(formatDate('2026-03-05', 'DD:MM:YY')).toBe('05:03:26');
    expect(formatDate('2026-03-05T08:09:10', 'YYYY/MM/DD HH-mm-ss')).toBe('2026/03/05 08-09-10');
  });

  it('uses the Ukrainian locale for names', () => {
    expect(formatDate('2026-03-05', 'D MMMM YYYY')).toBe('5 березня 2026');
    expect(formatDate('2026-03-05', 'dddd')).toBe('четвер');
  });

  it('gives an empty string for empty or invalid input', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('   ')).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDate(new Date('invalid'))).toBe('');
    expect(formatDate(Number.NaN)).toBe('');
  });
});

describe('formatDateTime', () => {
  it('formats as DD.MM.YYYY HH:mm', () => {
    expect(formatDateTime('2026-03-05T14:07:59')).toBe('05.03.2026 14:07');
    expect(formatDateTime(new Date(2026, 0, 9, 9, 5))).toBe('09.01.2026 09:05');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('garbage')).toBe('');
  });
});
