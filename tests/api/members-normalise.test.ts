import { describe, expect, it } from 'vitest';
import { normalisePlate, PLATE_PATTERN } from '../../contract/plate.ts';
import { addShares, formatShare, parseShare } from '../../contract/share.ts';
import { normalisePhone, phoneSearchDigits } from '../../server/lib/phone.ts';

describe('normalisePhone', () => {
  it('writes Ukrainian numbers as people type them in E.164', () => {
    for (const typed of ['067 123 45 67', '(067) 123-45-67', '0671234567', '+380671234567', '380671234567', '+38 067 123 45 67']) {
      expect(normalisePhone(typed), typed).toBe('+380671234567');
    }
    expect(normalisePhone('+48 601 234 567')).toBe('+48601234567');
  });
  it('answers null for what is not a phone number', () => {
    for (const bad of ['', '12345', 'abc', '067 123 45 6', '+380 00 000 00 00', '0671234567; drop', '1'.repeat(50)])
      expect(normalisePhone(bad), bad).toBeNull();
  });
  it('gives search digits without the trunk 0', () => {
    expect(phoneSearchDigits('067 123')).toBe('67123');
    expect(phoneSearchDigits('+380 67')).toBe('38067');
    expect(phoneSearchDigits('Петренко')).toBe('');
  });
});

describe('normalisePlate', () => {
  it('folds Cyrillic look-alikes, case, spaces and dashes to one form', () => {
    expect(normalisePlate('аа 1234 вх')).toBe('AA1234BX');
    expect(normalisePlate('AA-1234-BX')).toBe('AA1234BX');
    expect(normalisePlate('АА1234ВХ')).toBe('AA1234BX');
    expect(normalisePlate('Ка 0001 ім')).toBe('KA0001IM');
    // Letters without a Latin twin stay Cyrillic (personal plates).
    expect(normalisePlate('Ґанок 1')).toBe('ҐAHOK1');
    expect(PLATE_PATTERN.test(normalisePlate('аа 1234 вх'))).toBe(true);
    expect(PLATE_PATTERN.test(normalisePlate('a!'))).toBe(false);
  });
});

describe('shares', () => {
  it('parses fractions, decimals with either separator and percentages, reduced', () => {
    expect(parseShare('1/3')).toEqual({ numerator: 1, denominator: 3 });
    expect(parseShare('2/6')).toEqual({ numerator: 1, denominator: 3 });
    expect(parseShare('0,5')).toEqual({ numerator: 1, denominator: 2 });
    expect(parseShare('0.25')).toEqual({ numerator: 1, denominator: 4 });
    expect(parseShare('50%')).toEqual({ numerator: 1, denominator: 2 });
    expect(parseShare(1)).toEqual({ numerator: 1, denominator: 1 });
    expect(parseShare('12,5 %')).toEqual({ numerator: 1, denominator: 8 });
  });
  it('refuses zero, more than one and nonsense', () => {
    for (const bad of ['0', '0/5', '3/2', '1/0', '150%', 'abc', '-1/2', '1/3/4', '']) expect(parseShare(bad), bad).toBeNull();
  });
  it('adds exactly', () => {
    const sum = addShares([
      { numerator: 1, denominator: 3 },
      { numerator: 1, denominator: 2 },
      { numerator: 1, denominator: 6 },
    ]);
    expect(sum).toEqual({ numerator: 1n, denominator: 1n });
    expect(formatShare({ numerator: 3, denominator: 3 })).toBe('1');
  });
});
