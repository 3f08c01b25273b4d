import { describe, expect, it } from 'vitest';
import { i18nProvider } from '../../src/i18n';
import { formatNumber } from '../../src/lib/numbers';

const plain = (s: string) => s.replace(/\s/g, ' ');

describe('numbers and plural forms in Ukrainian, whatever the browser', () => {
  it('writes a decimal comma and spaces between thousands', () => {
    expect(formatNumber(69.2)).toBe('69,2');
    expect(plain(formatNumber(1234567.891))).toBe('1 234 567,89');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(null)).toBe('');
  });

  it('a meeting answer counts co-owners with the right plural form', () => {
    const counts = (n: number) => i18nProvider.translate('resources.voting.show.counts', { smart_count: n, area: '45,5', percent: '69,2' });
    expect(counts(1)).toBe('1 співвласник · 45,5 м² · 69,2 %');
    expect(counts(2)).toBe('2 співвласники · 45,5 м² · 69,2 %');
    expect(counts(5)).toBe('5 співвласників · 45,5 м² · 69,2 %');
    expect(counts(21)).toBe('21 співвласник · 45,5 м² · 69,2 %');
  });
});
