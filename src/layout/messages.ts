/**
 * Messages of the layout pieces (toaster, loading bar, error pages, network
 * notice). The lead merges them (deeply) into the app catalogues:
 * `app.toaster.*`, `app.errors.*` and `app.network.*`.
 *
 * Note: `app.errors` is shared with the main catalogue, so these keys were
 * named to avoid clashing with existing ones (e.g. `app.errors.network`).
 */
export const layoutMessagesUk = {
  app: {
    toaster: {
      close: 'Закрити',
      undo: 'Скасувати',
      region: 'Сповіщення',
    },
    errors: {
      page_not_found: 'Сторінку не знайдено',
      page_error: 'Сталася помилка — %{status} %{message}',
      go_home: 'На головну',
    },
    network: {
      offline: "Немає з'єднання з інтернетом",
      loading: 'Завантаження…',
    },
  },
};

export type LayoutMessages = typeof layoutMessagesUk;

export const layoutMessagesEn: LayoutMessages = {
  app: {
    toaster: {
      close: 'Close',
      undo: 'Undo',
      region: 'Notifications',
    },
    errors: {
      page_not_found: 'Page not found',
      page_error: 'An error occurred - %{status} %{message}',
      go_home: 'Go to Home',
    },
    network: {
      offline: 'No internet connection',
      loading: 'Loading…',
    },
  },
};
