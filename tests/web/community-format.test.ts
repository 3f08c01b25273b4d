import { describe, expect, it } from 'vitest';
import { audienceText } from '../../src/resources/articles/ArticleList';
import { eventTime } from '../../src/resources/events/EventList';
import { formatFileSize } from '../../src/resources/documents/fileSize';

const translate = (key: string, opts?: { smart_count?: number }) => `${key}:${opts?.smart_count ?? ''}`;

describe('community content formatting', () => {
  it('names the audience: complexes, and how many houses when single houses were chosen', () => {
    const complexes = [
      { id: 1, name: 'ЖК «Липовий гай»' },
      { id: 2, name: 'ЖК «Сонячна гавань»' },
    ];
    expect(audienceText({ complexes, houses: [] }, translate)).toBe('ЖК «Липовий гай», ЖК «Сонячна гавань»');
    expect(
      audienceText(
        {
          complexes: complexes.slice(0, 1),
          houses: [
            { id: 5, address: 'x' },
            { id: 6, address: 'y' },
          ],
        },
        translate,
      ),
    ).toBe('ЖК «Липовий гай»: app.audience.houses_count:2');
  });

  it('writes an event time on one day as a range of hours, across days in full (DD.MM.YYYY HH:mm)', () => {
    const start = new Date(2026, 4, 9, 10, 0).toISOString();
    expect(eventTime({ starts_at: start, ends_at: new Date(2026, 4, 9, 13, 30).toISOString() })).toBe('09.05.2026 10:00 – 13:30');
    expect(eventTime({ starts_at: start, ends_at: new Date(2026, 4, 10, 9, 0).toISOString() })).toBe('09.05.2026 10:00 – 10.05.2026 09:00');
    expect(eventTime({ starts_at: start, ends_at: null })).toBe('09.05.2026 10:00');
  });

  it('shows file sizes in Ukrainian units', () => {
    expect(formatFileSize(512)).toBe('512 Б');
    expect(formatFileSize(1536)).toBe('1,5 КБ');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5 МБ');
  });
});
