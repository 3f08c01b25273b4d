import { describe, expect, it } from 'vitest';
import englishMessages from 'ra-language-english';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import raUkrainian from '../../src/i18n/ra-uk';

type Tree = { [key: string]: Tree | string | undefined };

/** Flattens a nested catalogue into `{ 'ra.action.add': 'Add', ... }`. */
const flatten = (tree: Tree, prefix = ''): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') {
      Object.assign(out, flatten(value, path));
    } else {
      out[path] = value;
    }
  }
  return out;
};

const placeholders = (text: string): string[] => [...new Set([...text.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]))].sort();

const PLURAL_SEPARATOR = ' |||| ';

/**
 * Values allowed to stay identical to the English source, because they contain
 * no translatable word:
 * - `ra.boolean.null` is a single blank, shown for null booleans;
 * - the list / edit / show page titles are only placeholders (resource name and
 *   record representation), which are localised elsewhere.
 */
const SAME_AS_ENGLISH = new Set(['ra.boolean.null', 'ra.page.list', 'ra.page.edit', 'ra.page.show']);

/**
 * Plurals whose "one" form is also the single-record message: <UpdateWithConfirmButton>
 * calls them with smart_count 1 and %{recordRepresentation}, so (as in English)
 * that form names the record instead of a count.
 */
const SINGLE_RECORD_ONE_FORM = new Set(['ra.message.bulk_update_title', 'ra.message.bulk_update_content']);

const en = flatten(englishMessages as Tree);
const uk = flatten(raUkrainian as Tree);
const enKeys = Object.keys(en).sort();
const ukKeys = Object.keys(uk).sort();

describe('react-admin Ukrainian catalogue (src/i18n/ra-uk.ts)', () => {
  it('has exactly the keys of ra-language-english', () => {
    expect(enKeys.length).toBeGreaterThan(100); // sanity: really loaded
    expect(ukKeys.filter((k) => !(k in en))).toEqual([]); // no extra key
    expect(enKeys.filter((k) => !(k in uk))).toEqual([]); // no missing key
    expect(ukKeys).toEqual(enKeys);
  });

  it.each(enKeys)('%s is a non-empty string', (key) => {
    const value = uk[key];
    expect(typeof value).toBe('string');
    expect((value as string).length).toBeGreaterThan(0);
    if (key !== 'ra.boolean.null') {
      expect((value as string).trim()).not.toBe('');
    }
  });

  it.each(enKeys)('%s keeps the English placeholders', (key) => {
    expect(placeholders(uk[key] as string)).toEqual(placeholders(en[key] as string));
  });

  it('translates every value (except the justified allow-list)', () => {
    const untranslated = enKeys.filter((key) => uk[key] === en[key] && !SAME_AS_ENGLISH.has(key));
    expect(untranslated).toEqual([]);
    // The allow-list must not hide anything: each entry really has no words.
    for (const key of SAME_AS_ENGLISH) {
      expect(en[key]).toBeDefined();
      expect((en[key] as string).replace(/%\{\w+\}/g, '')).toMatch(/^\s*$/);
    }
  });

  it('uses the three Ukrainian plural forms wherever there is a plural', () => {
    const plurals = ukKeys.filter((key) => (uk[key] as string).includes('||||'));
    // Every English plural is translated as a plural, and vice versa.
    expect(plurals).toEqual(enKeys.filter((key) => (en[key] as string).includes('||||')));
    for (const key of plurals) {
      const forms = (uk[key] as string).split(PLURAL_SEPARATOR);
      expect(forms, key).toHaveLength(3);
      for (const form of forms) {
        expect(form.trim(), key).not.toBe('');
        expect(form, key).not.toContain('||||');
      }
      // The "one" form also serves 21, 31…: it must show the number,
      // except where that form is the single-record message.
      if (!SINGLE_RECORD_ONE_FORM.has(key)) {
        expect(forms[0], key).toContain('%{smart_count}');
      }
    }
  });

  it('uses the plain apostrophe (U+0027) consistently', () => {
    const typographic = ukKeys.filter((key) => /[\u02BC\u2019]/.test(uk[key] as string));
    expect(typographic).toEqual([]);
    // and the words that need one do have it
    expect(uk['ra.validation.required']).toContain("'");
  });

  it('pluralises correctly through ra-i18n-polyglot with the uk locale', () => {
    const i18n = polyglotI18nProvider(() => raUkrainian, 'uk');
    const deleted = (n: number) => i18n.translate('ra.notification.deleted', { smart_count: n });
    expect(deleted(1)).toBe('1 запис видалено');
    expect(deleted(3)).toBe('3 записи видалено');
    expect(deleted(5)).toBe('5 записів видалено');
    expect(deleted(11)).toBe('11 записів видалено');
    expect(deleted(21)).toBe('21 запис видалено');
    expect(deleted(22)).toBe('22 записи видалено');
    expect(
      i18n.translate('ra.navigation.page_range_info', {
        offsetBegin: 1,
        offsetEnd: 25,
        total: 120,
      }),
    ).toBe('1–25 з 120');
  });
});
