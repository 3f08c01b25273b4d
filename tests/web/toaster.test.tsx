import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { AdminContext, useAddUndoableMutation, useNotificationContext, useNotify } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { Toaster, TOAST_DURATION_MS, useToast } from '../../src/layout/Toaster';
import { layoutMessagesUk } from '../../src/layout/messages';

const messages = {
  ...englishMessages,
  app: {
    ...layoutMessagesUk.app,
    test: {
      saved: 'Збережено',
      details: 'Деталі запису',
      greeting: 'Привіт, %{name}',
    },
  },
};

const i18nProvider = polyglotI18nProvider(() => messages, 'uk');

type Action = (api: { toast: ReturnType<typeof useToast>; notify: ReturnType<typeof useNotify> }) => void;

const Trigger = ({ label, action }: { label: string; action: Action }) => {
  const toast = useToast();
  const notify = useNotify();
  return (
    <button type="button" onClick={() => action({ toast, notify })}>
      {label}
    </button>
  );
};

const renderToaster = (actions: Record<string, Action>, extra?: React.ReactNode) =>
  render(
    <AdminContext i18nProvider={i18nProvider}>
      {Object.entries(actions).map(([label, action]) => (
        <Trigger key={label} label={label} action={action} />
      ))}
      {extra}
      <Toaster />
    </AdminContext>,
  );

const toasts = () => Array.from(document.querySelectorAll<HTMLElement>('[data-kind]'));
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Toaster', () => {
  it('shows a toast and hides it after 5000 ms by default', () => {
    renderToaster({ go: ({ toast }) => toast.success('Готово') });
    expect(toasts()).toHaveLength(0);
    fireEvent.click(screen.getByText('go'));
    expect(screen.getByText('Готово')).toBeTruthy();
    expect(TOAST_DURATION_MS).toBe(5000);
    advance(4999);
    expect(screen.queryByText('Готово')).not.toBeNull();
    advance(1);
    expect(screen.queryByText('Готово')).toBeNull();
    expect(toasts()).toHaveLength(0);
  });

  it('respects a custom duration (useToast duration / autoHideDuration)', () => {
    renderToaster({
      short: ({ toast }) => toast.warning('Коротко', { duration: 1500 }),
      long: ({ notify }) => notify('Довго', { type: 'error', autoHideDuration: 8000 }),
    });
    fireEvent.click(screen.getByText('short'));
    fireEvent.click(screen.getByText('long'));
    advance(1499);
    expect(screen.queryByText('Коротко')).not.toBeNull();
    advance(1);
    expect(screen.queryByText('Коротко')).toBeNull();
    expect(screen.queryByText('Довго')).not.toBeNull();
    advance(8000 - 1500 - 1);
    expect(screen.queryByText('Довго')).not.toBeNull();
    advance(1);
    expect(screen.queryByText('Довго')).toBeNull();
  });

  it('keeps a toast with autoHideDuration: null until it is closed', () => {
    renderToaster({ sticky: ({ notify }) => notify('Назавжди', { type: 'info', autoHideDuration: null }) });
    fireEvent.click(screen.getByText('sticky'));
    advance(60_000);
    expect(screen.queryByText('Назавжди')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Закрити' }));
    expect(screen.queryByText('Назавжди')).toBeNull();
  });

  it('removes a toast with the close button (aria-label from i18n)', () => {
    renderToaster({ go: ({ toast }) => toast.error('Помилка збереження') });
    fireEvent.click(screen.getByText('go'));
    expect(screen.getByText('Помилка збереження')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Закрити' }));
    expect(screen.queryByText('Помилка збереження')).toBeNull();
    // the pending timer does nothing harmful afterwards
    advance(TOAST_DURATION_MS);
    expect(toasts()).toHaveLength(0);
  });

  it('renders the translated title and the second line of text', () => {
    renderToaster({
      keys: ({ toast }) => toast.success('app.test.saved', { text: 'app.test.details' }),
      plain: ({ notify }) => notify('app.test.greeting', { type: 'success', messageArgs: { name: 'Олено', text: 'Просто текст' } }),
      ra: ({ notify }) => notify('ra.notification.updated', { type: 'info', messageArgs: { smart_count: 1 } }),
    });
    fireEvent.click(screen.getByText('keys'));
    fireEvent.click(screen.getByText('plain'));
    fireEvent.click(screen.getByText('ra'));
    const [first, second, third] = toasts();
    expect(first.querySelector('.app-toast-title')?.textContent).toBe('Збережено');
    expect(first.querySelector('.app-toast-text')?.textContent).toBe('Деталі запису');
    expect(second.querySelector('.app-toast-title')?.textContent).toBe('Привіт, Олено');
    expect(second.querySelector('.app-toast-text')?.textContent).toBe('Просто текст');
    expect(third.querySelector('.app-toast-title')?.textContent).toBe('Element updated');
    expect(third.querySelector('.app-toast-text')).toBeNull();
  });

  it('styles kinds differently and maps react-admin info to success', () => {
    renderToaster({
      s: ({ toast }) => toast.success('S'),
      e: ({ toast }) => toast.error('E'),
      w: ({ toast }) => toast.warning('W'),
      i: ({ notify }) => notify('I'),
    });
    for (const label of ['s', 'e', 'w', 'i']) fireEvent.click(screen.getByText(label));
    const kinds = toasts().map((t) => [t.textContent?.charAt(0), t.dataset.kind]);
    expect(kinds).toEqual([
      ['S', 'success'],
      ['E', 'error'],
      ['W', 'warning'],
      ['I', 'success'],
    ]);
    const [s, e, w] = toasts();
    const borders = [s, e, w].map((el) => getComputedStyle(el).borderLeftColor);
    expect(new Set(borders).size).toBe(3);
    expect(e.getAttribute('role')).toBe('alert');
    expect(s.getAttribute('role')).toBe('status');
  });

  it('stacks several toasts, each hiding on its own schedule', () => {
    renderToaster({ a: ({ toast }) => toast.success('Перший'), b: ({ toast }) => toast.success('Другий') });
    fireEvent.click(screen.getByText('a'));
    advance(2000);
    fireEvent.click(screen.getByText('b'));
    expect(toasts().map((t) => t.querySelector('.app-toast-title')?.textContent)).toEqual(['Перший', 'Другий']);
    advance(3000);
    expect(toasts().map((t) => t.querySelector('.app-toast-title')?.textContent)).toEqual(['Другий']);
    advance(2000);
    expect(toasts()).toHaveLength(0);
  });

  it('commits an undoable mutation when the toast hides and rolls it back on Undo', () => {
    const mutations: Array<ReturnType<typeof vi.fn>> = [];
    const AddUndoable = () => {
      const add = useAddUndoableMutation();
      const notify = useNotify();
      return (
        <button
          type="button"
          onClick={() => {
            const m = vi.fn();
            mutations.push(m);
            add(m);
            notify('ra.notification.deleted', { type: 'info', undoable: true, messageArgs: { smart_count: 1 } });
          }}
        >
          delete
        </button>
      );
    };
    renderToaster({}, <AddUndoable />);

    fireEvent.click(screen.getByText('delete'));
    expect(screen.getByText('Element deleted')).toBeTruthy();
    advance(TOAST_DURATION_MS);
    expect(mutations[0]).toHaveBeenCalledTimes(1);
    expect(mutations[0]).toHaveBeenCalledWith({ isUndo: false });

    fireEvent.click(screen.getByText('delete'));
    fireEvent.click(screen.getByRole('button', { name: 'Скасувати' }));
    expect(mutations[1]).toHaveBeenCalledTimes(1);
    expect(mutations[1]).toHaveBeenCalledWith({ isUndo: true });
    expect(screen.queryByText('Element deleted')).toBeNull();
    advance(TOAST_DURATION_MS);
    expect(mutations[1]).toHaveBeenCalledTimes(1);
  });

  it('pairs stacked undoable toasts with their own mutations and commits them on reset', () => {
    const mutations: Array<ReturnType<typeof vi.fn>> = [];
    const Controls = () => {
      const add = useAddUndoableMutation();
      const notify = useNotify();
      const { resetNotifications } = useNotificationContext();
      return (
        <>
          <button
            type="button"
            onClick={() => {
              const m = vi.fn();
              mutations.push(m);
              add(m);
              notify(`Видалено ${mutations.length}`, { type: 'info', undoable: true });
            }}
          >
            delete
          </button>
          <button type="button" onClick={() => resetNotifications()}>
            reset
          </button>
        </>
      );
    };
    renderToaster({}, <Controls />);
    fireEvent.click(screen.getByText('delete'));
    fireEvent.click(screen.getByText('delete'));
    fireEvent.click(screen.getByText('delete'));
    expect(toasts()).toHaveLength(3);
    // undo the second one only
    const undoButtons = screen.getAllByRole('button', { name: 'Скасувати' });
    fireEvent.click(undoButtons[1]);
    expect(mutations[1]).toHaveBeenCalledWith({ isUndo: true });
    expect(mutations[0]).not.toHaveBeenCalled();
    expect(mutations[2]).not.toHaveBeenCalled();
    expect(toasts().map((t) => t.querySelector('.app-toast-title')?.textContent)).toEqual(['Видалено 1', 'Видалено 3']);
    fireEvent.click(screen.getByText('reset'));
    expect(toasts()).toHaveLength(0);
    expect(mutations[0]).toHaveBeenCalledWith({ isUndo: false });
    expect(mutations[2]).toHaveBeenCalledWith({ isUndo: false });
    advance(TOAST_DURATION_MS);
    for (const m of mutations) expect(m).toHaveBeenCalledTimes(1);
  });
});
