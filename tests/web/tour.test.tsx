import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { i18nProvider } from '../../src/i18n';
import { Tour, tourStorageKey, type TourStep } from '../../src/customPages/tours/Tour';

const steps: TourStep[] = [
  { target: '#first', title: 'Перший', content: 'Тут список' },
  { target: '#second', title: 'Другий', content: 'Тут фільтри' },
  { target: '#third', title: 'Третій', content: 'Тут кнопка' },
];

function renderTour(props: Partial<Parameters<typeof Tour>[0]> = {}) {
  return render(
    <AdminContext i18nProvider={i18nProvider}>
      <div id="first">1</div>
      <div id="second">2</div>
      <div id="third">3</div>
      <Tour tourKey="members" steps={steps} {...props} />
    </AdminContext>,
  );
}

const progress = () => screen.findByTestId('tour-progress');

describe('Tour', () => {
  beforeEach(() => localStorage.clear());

  it('numbers the steps n/total and moves with «Далі» and the arrows', async () => {
    renderTour();
    expect((await progress()).textContent).toBe('1/3');
    expect(screen.getByText('Тут список')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Назад' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Далі' }));
    await waitFor(() => expect(screen.getByTestId('tour-progress').textContent).toBe('2/3'));
    fireEvent.click(screen.getByRole('button', { name: 'Вперед' }));
    await waitFor(() => expect(screen.getByTestId('tour-progress').textContent).toBe('3/3'));
    fireEvent.click(screen.getByRole('button', { name: 'Назад' }));
    await waitFor(() => expect(screen.getByTestId('tour-progress').textContent).toBe('2/3'));
  });

  it('shows «Завершити» on the last step; finishing remembers the tour', async () => {
    renderTour();
    await progress();
    fireEvent.click(screen.getByRole('button', { name: 'Далі' }));
    await waitFor(() => expect(screen.getByTestId('tour-progress').textContent).toBe('2/3'));
    fireEvent.click(screen.getByRole('button', { name: 'Далі' }));
    await waitFor(() => expect(screen.getByTestId('tour-progress').textContent).toBe('3/3'));
    expect(screen.queryByRole('button', { name: 'Далі' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Завершити' }));
    await waitFor(() => expect(screen.queryByTestId('tour-progress')).toBeNull());
    expect(localStorage.getItem(tourStorageKey('members'))).toBe('done');
  });

  it('shows once per key: a seen tour does not open again, another key does', async () => {
    localStorage.setItem(tourStorageKey('members'), 'done');
    const { unmount } = renderTour();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('tour-progress')).toBeNull();
    unmount();
    renderTour({ tourKey: 'news' });
    expect((await progress()).textContent).toBe('1/3');
  });

  it('closes on Esc and is remembered', async () => {
    renderTour();
    await progress();
    fireEvent.keyDown(document.body, { key: 'Escape', code: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('tour-progress')).toBeNull());
    expect(localStorage.getItem(tourStorageKey('members'))).toBe('done');
  });

  it('stays open when the overlay is clicked', async () => {
    renderTour();
    await progress();
    const overlay = document.querySelector('.react-joyride__overlay');
    expect(overlay).not.toBeNull();
    fireEvent.click(overlay!);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('tour-progress').textContent).toBe('1/3');
    expect(localStorage.getItem(tourStorageKey('members'))).toBeNull();
  });

  it('«Зрозуміло», when offered, ends the tour at once', async () => {
    renderTour({ understood: true });
    await progress();
    fireEvent.click(screen.getByRole('button', { name: 'Зрозуміло' }));
    await waitFor(() => expect(screen.queryByTestId('tour-progress')).toBeNull());
    expect(localStorage.getItem(tourStorageKey('members'))).toBe('done');
  });
});
