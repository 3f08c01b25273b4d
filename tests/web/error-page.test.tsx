import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { AdminContext, I18nContext, TestMemoryRouter, type I18nProvider } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { ERROR_PAGE_FALLBACK_TEXT, ErrorPage, ErrorPageBoundary, NotFoundPage, RouteErrorPage } from '../../src/layout/ErrorPage';
import { layoutMessagesEn, layoutMessagesUk } from '../../src/layout/messages';

const provider = (locale: 'uk' | 'en') => polyglotI18nProvider((l) => ({ ...englishMessages, ...(l === 'en' ? layoutMessagesEn : layoutMessagesUk) }), locale);

const renderInApp = (ui: React.ReactNode, locale: 'uk' | 'en' = 'uk', onPath?: (path: string) => void) =>
  render(
    <TestMemoryRouter initialEntries={['/somewhere']} locationCallback={(l) => onPath?.(l.pathname)}>
      <AdminContext i18nProvider={provider(locale)}>{ui}</AdminContext>
    </TestMemoryRouter>,
  );

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ErrorPage', () => {
  it('shows "page not found" for 404 with a link home (uk)', () => {
    renderInApp(<ErrorPage status={404} />);
    expect(heading()).toBe('Сторінку не знайдено');
    const link = screen.getByRole('link', { name: 'На головну' });
    expect(link.getAttribute('href')).toBe('/');
  });

  it('shows status and message for other errors, default status 500 (uk)', () => {
    renderInApp(<ErrorPage message="Boom" />);
    expect(heading()).toBe('Сталася помилка — 500 Boom');
    expect(screen.getByRole('link', { name: 'На головну' }).getAttribute('href')).toBe('/');
  });

  it('uses the English catalogue', () => {
    renderInApp(
      <>
        <ErrorPage status={503} message="Service down" />
        <ErrorPage status={404} />
      </>,
      'en',
    );
    const headings = screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent);
    expect(headings).toEqual(['An error occurred - 503 Service down', 'Page not found']);
    expect(screen.getAllByRole('link', { name: 'Go to Home' })).toHaveLength(2);
  });

  it('navigates home inside the router', () => {
    const paths: string[] = [];
    renderInApp(<ErrorPage status={404} />, 'uk', (p) => paths.push(p));
    expect(paths.at(-1)).toBe('/somewhere');
    fireEvent.click(screen.getByRole('link', { name: 'На головну' }));
    expect(paths.at(-1)).toBe('/');
  });

  it('works outside any router or i18n context (plain link, Ukrainian defaults)', () => {
    render(<ErrorPage status={404} />);
    expect(heading()).toBe('Сторінку не знайдено');
    expect(screen.getByRole('link', { name: 'На головну' }).getAttribute('href')).toBe('/');
  });
});

describe('RouteErrorPage and NotFoundPage', () => {
  it('takes status and message from the error', () => {
    renderInApp(<RouteErrorPage error={Object.assign(new Error('Forbidden'), { status: 403 })} />);
    expect(heading()).toBe('Сталася помилка — 403 Forbidden');
  });

  it('defaults to 500 when the error has no status', () => {
    renderInApp(<RouteErrorPage error={new Error('Cannot read properties of undefined')} resetErrorBoundary={() => {}} />);
    expect(heading()).toBe('Сталася помилка — 500 Cannot read properties of undefined');
  });

  it('treats an error with status 404 as not found', () => {
    renderInApp(<RouteErrorPage error={{ status: 404, message: 'Not Found' }} />);
    expect(heading()).toBe('Сторінку не знайдено');
  });

  it('a screen whose code cannot load while offline says so and offers to try again, without reloading', () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderInApp(<RouteErrorPage error={new TypeError('Failed to fetch dynamically imported module: /assets/x.js')} />);
    expect(heading()).toContain("Немає зв'язку з сервером");
    expect(screen.getByRole('button', { name: 'Спробувати ще раз' })).toBeTruthy();
    online.mockRestore();
  });

  it('NotFoundPage renders the 404 page', () => {
    renderInApp(<NotFoundPage />, 'en');
    expect(heading()).toBe('Page not found');
    expect(screen.getByRole('link', { name: 'Go to Home' }).getAttribute('href')).toBe('/');
  });
});

describe('ErrorPageBoundary', () => {
  const throwingI18n: I18nProvider = {
    translate: () => {
      throw new Error('i18n is broken');
    },
    changeLocale: () => Promise.resolve(),
    getLocale: () => 'uk',
  };

  it('renders a plain fallback when the error page itself throws', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <I18nContext.Provider value={throwingI18n}>
        <ErrorPageBoundary>
          <ErrorPage status={500} message="x" />
        </ErrorPageBoundary>
      </I18nContext.Provider>,
    );
    expect(screen.getByText(ERROR_PAGE_FALLBACK_TEXT)).toBeTruthy();
    expect(ERROR_PAGE_FALLBACK_TEXT).toBe('Під час показу сторінки помилки сталася помилка');
    const link = screen.getByRole('link', { name: 'На головну' });
    expect(link.tagName).toBe('A');
    expect(link.getAttribute('href')).toBe('/');
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it('RouteErrorPage is protected by the boundary', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <I18nContext.Provider value={throwingI18n}>
        <RouteErrorPage error={new Error('original')} />
      </I18nContext.Provider>,
    );
    expect(screen.getByText(ERROR_PAGE_FALLBACK_TEXT)).toBeTruthy();
  });

  it('renders its children when nothing throws', () => {
    render(
      <ErrorPageBoundary>
        <p>fine</p>
      </ErrorPageBoundary>,
    );
    expect(screen.getByText('fine')).toBeTruthy();
    expect(screen.queryByText(ERROR_PAGE_FALLBACK_TEXT)).toBeNull();
  });
});
