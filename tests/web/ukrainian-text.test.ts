import { describe, expect, it } from 'vitest';
import { ENTITIES } from '../../contract/entities';
import type { EntityDeclaration } from '../../contract/entity';
import { raUkrainian } from '../../src/i18n/ra-uk';
import { richTextUk } from '../../src/i18n/richText';
import { uk } from '../../src/i18n/uk';
import { layoutMessagesUk } from '../../src/layout/messages';
import { foreignFragments } from '../fixtures/ukrainianText';

/** Every string of a catalogue, by its dotted key. */
function strings(tree: unknown, prefix = ''): [string, string][] {
  if (typeof tree === 'string') return [[prefix, tree]];
  if (!tree || typeof tree !== 'object') return [];
  return Object.entries(tree).flatMap(([k, v]) => strings(v, prefix ? `${prefix}.${k}` : k));
}

describe('foreign leftovers in Ukrainian text', () => {
  it('are English words, decimal points and American dates', () => {
    expect(foreignFragments('Rows per page: 25')).toEqual(['Rows', 'per', 'page']);
    expect(foreignFragments('1–10 of 42')).toEqual(['of']);
    expect(foreignFragments('проголосували 9 з 13 (69.2 %)')).toEqual(['69.2']);
    expect(foreignFragments('11/25/2026 06:30 PM')).toEqual(['PM', '11/25/2026']);
    expect(foreignFragments('Nov 25, 2026, Tuesday')).toEqual(['Nov', 'Tuesday']);
    expect(foreignFragments('app.errors.network')).toEqual(['app', 'errors', 'network']);
    expect(foreignFragments('площа 7.4 м²')).toEqual(['7.4']);
  });

  it('are not the Latin a Ukrainian screen legitimately shows', () => {
    for (const text of [
      'Експорт CSV',
      'Файл CSV або Excel (XLSX)',
      'E-mail: andrii.bondarenko65@ukr.net',
      'Сайт: https://example.com/page',
      '25.11.2026 14:43 · 69,2 %',
      'Нараховано за 03.2026',
      '14.11',
      'ОСББ — Закон № 2866-III',
      'Промокод ZATYSHOK15, номер AA1234BB',
      'Версія 0.1.0',
      'кв. 10 · 47,1 м² · 1/2',
      'більше 60 % голосів (п. 7.4 статуту)',
      'Стара адреса: /dashboard_old/Occupant-role',
    ])
      expect(foreignFragments(text), text).toEqual([]);
  });
});

describe('the Ukrainian catalogue', () => {
  it('has no English word, decimal point or American date (placeholders aside)', () => {
    const wrong = strings({ ...raUkrainian, richText: richTextUk, layout: layoutMessagesUk, ...uk })
      .map(([key, text]) => [key, foreignFragments(text.replace(/%\{\w+\}/g, ''))] as const)
      .filter(([, found]) => found.length > 0)
      .map(([key, found]) => `${key}: ${found.join(', ')}`);
    expect(wrong).toEqual([]);
  });

  it("nor do the declared entities' Ukrainian words (labels, options, hints, texts)", () => {
    const wrong: string[] = [];
    for (const e of ENTITIES as readonly EntityDeclaration[]) {
      const texts: [string, unknown][] = [
        ['texts', e.texts],
        ['messages', e.messages],
        ['exportName', e.exportName],
        ...Object.entries(e.fields).flatMap(([name, f]) => [
          [`${name}.label`, f.label],
          [`${name}.hint`, typeof f.hint === 'string' ? f.hint : undefined],
          [`${name}.options`, f.optionLabels],
        ]),
      ] as [string, unknown][];
      for (const [where, value] of texts)
        for (const [key, text] of strings(value)) {
          const found = foreignFragments(text.replace(/%\{\w+\}/g, ''));
          if (found.length) wrong.push(`${e.name} ${where}${key ? `.${key}` : ''}: ${found.join(', ')}`);
        }
    }
    expect(wrong).toEqual([]);
  });
});
