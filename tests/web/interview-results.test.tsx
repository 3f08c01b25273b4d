import { render, screen, within } from '@testing-library/react';
import { AdminContext, memoryStore } from 'react-admin';
import { describe, expect, it } from 'vitest';
import type { Interview } from '../../contract/interview';
import { i18nProvider } from '../../src/i18n';
import { InterviewResults } from '../../src/resources/interview/InterviewResults';

function survey(overrides: Partial<Interview> = {}): Interview {
  return {
    id: 7,
    title: 'Благоустрій двору',
    description: '',
    status: 'active',
    published: true,
    anonymous: false,
    start_at: '2026-03-01T08:00:00.000Z',
    end_at: '2026-03-15T20:00:00.000Z',
    questions_count: 3,
    responses_count: 3,
    complex_ids: [1],
    house_ids: [],
    complexes: [{ id: 1, name: 'ЖК «Липовий гай»' }],
    houses: [],
    created_at: '2026-03-01T08:00:00.000Z',
    updated_at: '2026-03-01T08:00:00.000Z',
    audience_count: 10,
    questions_locked: true,
    questions: [
      {
        id: 1,
        position: 1,
        title: 'Що облаштувати насамперед?',
        kind: 'single',
        scale_max: null,
        answered: 3,
        average: null,
        texts: [],
        options: [
          { id: 11, title: 'Дитячий майданчик', count: 2, percent: 66.7 },
          { id: 12, title: 'Велопарковку', count: 1, percent: 33.3 },
        ],
      },
      {
        id: 2,
        position: 2,
        title: 'Оцініть прибирання',
        kind: 'scale',
        scale_max: 5,
        answered: 3,
        average: 3.67,
        texts: [],
        options: [1, 2, 3, 4, 5].map((v) => ({ id: v, title: String(v), count: v === 4 ? 2 : v === 3 ? 1 : 0, percent: v === 4 ? 66.7 : v === 3 ? 33.3 : 0 })),
      },
      {
        id: 3,
        position: 3,
        title: 'Ваші пропозиції',
        kind: 'text',
        scale_max: null,
        answered: 1,
        average: null,
        options: [],
        texts: [{ text: 'Більше лавок', member: 'Коваленко Олена' }],
      },
    ],
    ...overrides,
  };
}

const renderResults = (s: Interview) =>
  render(
    <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
      <InterviewResults interview={s} />
    </AdminContext>,
  );

describe('survey results view', () => {
  it('shows each option with its count and percent in Ukrainian number format, the scale average and the free-text answers with names', async () => {
    renderResults(survey());
    const q1 = await screen.findByTestId('question-1');
    expect(within(q1).getByText('1. Що облаштувати насамперед?')).toBeTruthy();
    expect(within(q1).getByText('Відповіли на питання: 3')).toBeTruthy();
    expect(within(q1).getByTestId('result-1-Дитячий майданчик').textContent).toBe('Дитячий майданчик2 (66,7 %)');
    expect(within(q1).getByTestId('result-1-Велопарковку').textContent).toBe('Велопарковку1 (33,3 %)');
    const q2 = screen.getByTestId('question-2');
    expect(within(q2).getByText('Шкала 1–5')).toBeTruthy();
    expect(within(q2).getByText('Середня оцінка: 3,67')).toBeTruthy();
    expect(within(q2).getByTestId('result-2-4').textContent).toBe('42 (66,7 %)');
    const q3 = screen.getByTestId('question-3');
    expect(within(q3).getByText('Більше лавок')).toBeTruthy();
    expect(within(q3).getByText('Коваленко Олена')).toBeTruthy();
    expect(screen.queryByText('Анонімне опитування: відповіді показано без імен.')).toBeNull();
  });

  it('an anonymous survey says so and shows free-text answers without names; a question without answers says so', async () => {
    const s = survey({ anonymous: true });
    s.questions[2] = { ...s.questions[2], texts: [{ text: 'Пандус біля під’їзду', member: null }] };
    s.questions.push({ id: 4, position: 4, title: 'Що ще?', kind: 'text', scale_max: null, answered: 0, average: null, options: [], texts: [] });
    renderResults(s);
    expect(await screen.findByText('Анонімне опитування: відповіді показано без імен.')).toBeTruthy();
    const q3 = screen.getByTestId('question-3');
    expect(within(q3).getByText('Пандус біля під’їзду')).toBeTruthy();
    expect(within(q3).queryByText('Коваленко Олена')).toBeNull();
    expect(within(screen.getByTestId('question-4')).getByText('Відповідей ще немає.')).toBeTruthy();
  });
});
