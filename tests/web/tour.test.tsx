import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { AdminContext } from 'react-admin';
import { i18nProvider } from '../../src/i18n';
import { Tour, tourStorageKey, type TourStep } from '../../src/customPages/tours/Tour';
import { ScreenTour } from '../../src/customPages/tours/ScreenTour';
import { HelpMenu } from '../../src/layout/HelpMenu';

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

const quick = { quietMs: 100, maxMs: 2000 };

describe('Tour: steps whose target is not on the page', () => {
  beforeEach(() => localStorage.clear());

  it('leaves out a step whose target is missing: the counter runs 1/2, 2/2 and the last step has «Завершити»', async () => {
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <div id="first">1</div>
        <div id="third">3</div>
        <Tour tourKey="members" steps={steps} settle={quick} />
      </AdminContext>,
    );
    expect((await progress()).textContent).toBe('1/2');
    expect(screen.getByText('Тут список')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Далі' }));
    await waitFor(() => expect(screen.getByTestId('tour-progress').textContent).toBe('2/2'));
    expect(screen.getByText('Тут кнопка')).toBeTruthy();
    expect(screen.queryByText('Тут фільтри')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Завершити' }));
    await waitFor(() => expect(screen.queryByTestId('tour-progress')).toBeNull());
    expect(localStorage.getItem(tourStorageKey('members'))).toBe('done');
  });

  it('waits for a target that comes with the page, and counts it', async () => {
    function Page() {
      const [loaded, setLoaded] = useState(false);
      if (!loaded) setTimeout(() => setLoaded(true), 50);
      return (
        <>
          <div id="first">1</div>
          {loaded && <div id="second">2</div>}
          <div id="third">3</div>
        </>
      );
    }
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <Page />
        <Tour tourKey="members" steps={steps} settle={{ quietMs: 300, maxMs: 2000 }} />
      </AdminContext>,
    );
    expect((await progress()).textContent).toBe('1/3');
  });

  it('waits while the page shows it is loading (placeholder rows), however quiet it is', async () => {
    function Page() {
      const [loaded, setLoaded] = useState(false);
      if (!loaded) setTimeout(() => setLoaded(true), 600);
      return (
        <main>
          <div id="first">1</div>
          {loaded ? <div id="second">2</div> : <span className="MuiSkeleton-root" />}
          <div id="third">3</div>
        </main>
      );
    }
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <Page />
        <Tour tourKey="members" steps={steps} settle={{ quietMs: 100, maxMs: 5000 }} />
      </AdminContext>,
    );
    expect((await screen.findByTestId('tour-progress', {}, { timeout: 3000 })).textContent).toBe('1/3');
  });

  it('shows nothing, and stays unseen, when no target is on the page', async () => {
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <Tour tourKey="members" steps={steps} settle={quick} />
      </AdminContext>,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByTestId('tour-progress')).toBeNull();
    expect(localStorage.getItem(tourStorageKey('members'))).toBeNull();
  });

  it('counts as seen when the screen is left during the tour, not before it showed', async () => {
    const first = renderTour();
    await progress();
    first.unmount();
    expect(localStorage.getItem(tourStorageKey('members'))).toBe('done');

    localStorage.clear();
    const second = render(
      <AdminContext i18nProvider={i18nProvider}>
        <Tour tourKey="members" steps={steps} settle={quick} />
      </AdminContext>,
    );
    second.unmount();
    expect(localStorage.getItem(tourStorageKey('members'))).toBeNull();
  });

  it('is no modal: the dialog says so and the tooltip sits below the header and the sidebar', async () => {
    renderTour();
    const dialog = await screen.findByRole('dialog', { name: 'Перший' });
    expect(dialog.getAttribute('aria-modal')).toBe('false');
    // MUI: app bar 1100, drawer 1200: the tour stays under both.
    const floater = document.querySelector<HTMLElement>('.react-joyride__floater');
    expect(Number(floater?.style.zIndex)).toBeLessThan(1100);
  });
});

/** The list screen's tour targets (src/customPages/tours/ScreenTour.tsx). */
function MembersScreen() {
  return (
    <main>
      <div data-tour="search">
        <input />
      </div>
      <table>
        <tbody>
          <tr>
            <td>
              <button data-tour="row-actions">⋮</button>
            </td>
          </tr>
        </tbody>
      </table>
      <button data-tour="add">Додати</button>
    </main>
  );
}

const renderShell = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <AdminContext i18nProvider={i18nProvider}>
        <HelpMenu />
        <MembersScreen />
        <ScreenTour />
      </AdminContext>
    </MemoryRouter>,
  );

describe('the help menu', () => {
  beforeEach(() => localStorage.clear());

  it('shows a seen tour of the screen again from its first step, counted over the targets the screen has', async () => {
    localStorage.setItem(tourStorageKey('members'), 'done');
    renderShell('/Members');
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByTestId('tour-progress')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Довідка' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Показати підказки до цього екрана' }));
    // No header selection in this screen: four steps of five.
    expect((await screen.findByTestId('tour-progress', {}, { timeout: 4000 })).textContent).toBe('1/4');
    expect(localStorage.getItem(tourStorageKey('members'))).toBeNull();
    for (const n of [2, 3, 4]) {
      fireEvent.click(screen.getByRole('button', { name: 'Далі' }));
      await waitFor(() => expect(screen.getByTestId('tour-progress').textContent).toBe(`${n}/4`));
    }
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Завершити' }));
    });
    await waitFor(() => expect(screen.queryByTestId('tour-progress')).toBeNull());
    expect(localStorage.getItem(tourStorageKey('members'))).toBe('done');
  });

  it('says so on a screen without a tour', async () => {
    renderShell('/Complex');
    fireEvent.click(screen.getByRole('button', { name: 'Довідка' }));
    const item = await screen.findByRole('menuitem', { name: /Показати підказки до цього екрана/ });
    expect(item.getAttribute('aria-disabled')).toBe('true');
    expect(item.textContent).toContain('На цьому екрані підказок немає');
  });
});
