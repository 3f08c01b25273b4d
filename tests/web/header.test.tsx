import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { I18nContextProvider } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../src/i18n';
import { HeaderTitle } from '../../src/layout/Header';
import { NavigationProvider, usePageHeader } from '../../src/layout/navigation';

function Page({ title, back }: { title?: string; back?: string }) {
  usePageHeader(title, back);
  return null;
}

function renderHeader(page: React.ReactNode) {
  return render(
    <MemoryRouter>
      <I18nContextProvider value={i18nProvider}>
        <NavigationProvider>
          <HeaderTitle />
          {page}
        </NavigationProvider>
      </I18nContextProvider>
    </MemoryRouter>,
  );
}

describe('header title and back arrow', () => {
  it('defaults to "Список" with no back arrow', () => {
    renderHeader(null);
    expect(screen.getByTestId('header-title').textContent).toBe('Список');
    expect(screen.queryByRole('link', { name: 'Назад' })).toBeNull();
  });

  it('shows the page title and a back arrow to the target the page set', () => {
    renderHeader(<Page title="ЖК «Липовий гай»" back="/Complex" />);
    expect(screen.getByTestId('header-title').textContent).toBe('ЖК «Липовий гай»');
    expect(screen.getByRole('link', { name: 'Назад' }).getAttribute('href')).toBe('/Complex');
  });

  it('resets to the default when the page goes away', () => {
    const { rerender } = renderHeader(<Page title="Деталі" back="/Complex" />);
    rerender(
      <MemoryRouter>
        <I18nContextProvider value={i18nProvider}>
          <NavigationProvider>
            <HeaderTitle />
          </NavigationProvider>
        </I18nContextProvider>
      </MemoryRouter>,
    );
    expect(screen.getByTestId('header-title').textContent).toBe('Список');
  });
});

describe('navigation state', () => {
  it('settles after a page sets its header (no render loop)', () => {
    const onRender = vi.fn();
    function Counting() {
      onRender();
      usePageHeader('Сторінка', '/x');
      return null;
    }
    renderHeader(<Counting />);
    expect(screen.getByTestId('header-title').textContent).toBe('Сторінка');
    expect(onRender.mock.calls.length).toBeLessThan(6);
  });
});
