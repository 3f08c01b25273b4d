/**
 * Ukrainian catalogue of react-admin 5's built-in messages (`ra.*`).
 *
 * Based on ra-language-ukrainian@4.0.0 (which targets react-admin 4), reviewed
 * and completed for ra-language-english@5.15.4: every key of the English
 * catalogue is present, with the same %{placeholders}.
 *
 * Conventions:
 * - apostrophe: plain ' (U+0027) everywhere (Обов'язкове, пов'язаний, зв'язок);
 * - "record/item/element" is rendered as «запис» throughout;
 * - plurals (%{smart_count}) follow polyglot's Ukrainian rule, three forms
 *   separated by ' |||| ': one (1, 21, 31…) / few (2–4, 22–24…) / many (0, 5–20, 25…).
 *   Because the "one" form is also used for 21, 31…, it always shows the number.
 * - %{name} is the resource name as react-admin computes it from
 *   `resources.<r>.name` (or `resources.<r>.forcedCaseName`) with the same
 *   smart_count, i.e. already in the counting form ("1 квартира", "3 квартири",
 *   "5 квартир"; with smart_count 0 the "many" form, genitive plural). It is
 *   always placed where the nominative / counting form reads correctly
 *   ("Видалення: 3 квартири", "Квартир не знайдено"), never after a verb
 *   that would need the accusative.
 *
 * Use with ra-i18n-polyglot and the locale 'uk' (or 'uk-UA') so that polyglot
 * picks the Ukrainian plural rule.
 */
import type englishMessages from 'ra-language-english';

/**
 * Strict shape of the English catalogue: ra-language-english is typed as
 * ra-core's `TranslationMessages`, whose nested objects carry
 * `[key: string]: …` index signatures and optional `guesser` / `configurable`
 * sections. Dropping the index signatures and the optionality turns every
 * known key into a required string, so a missing key (or an unknown extra one)
 * is a compile error.
 */
type DeepStringRecord<T> = {
  [K in keyof T as string extends K ? never : number extends K ? never : K]-?: NonNullable<T[K]> extends string ? string : DeepStringRecord<NonNullable<T[K]>>;
};

export type RaMessages = DeepStringRecord<typeof englishMessages>;

export const raUkrainian: RaMessages = {
  ra: {
    action: {
      add_filter: 'Додати фільтр',
      add: 'Додати',
      back: 'Назад',
      bulk_actions: 'Вибрано %{smart_count} запис |||| Вибрано %{smart_count} записи |||| Вибрано %{smart_count} записів',
      cancel: 'Скасувати',
      clear_array_input: 'Очистити список',
      clear_input_value: 'Очистити значення',
      clone: 'Дублювати',
      confirm: 'Підтвердити',
      create: 'Створити',
      create_item: 'Створити «%{item}»',
      delete: 'Видалити',
      edit: 'Редагувати',
      export: 'Експортувати',
      list: 'Список',
      refresh: 'Оновити',
      remove_filter: 'Прибрати цей фільтр',
      remove_all_filters: 'Прибрати всі фільтри',
      remove: 'Прибрати',
      reset: 'Скинути',
      save: 'Зберегти',
      search: 'Пошук',
      search_columns: 'Пошук стовпців',
      select_all: 'Вибрати всі',
      select_all_button: 'Вибрати всі',
      select_row: 'Вибрати цей рядок',
      show: 'Переглянути',
      sort: 'Сортувати',
      undo: 'Скасувати',
      unselect: 'Зняти вибір',
      expand: 'Розгорнути',
      close: 'Закрити',
      open_menu: 'Відкрити меню',
      close_menu: 'Закрити меню',
      update: 'Оновити',
      move_up: 'Перемістити вгору',
      move_down: 'Перемістити вниз',
      open: 'Відкрити',
      toggle_theme: 'Перемкнути світлу/темну тему',
      select_columns: 'Стовпці',
      update_application: 'Перезавантажити застосунок',
    },
    boolean: {
      true: 'Так',
      false: 'Ні',
      // Deliberately blank, as in English: shown for null values.
      null: ' ',
    },
    page: {
      create: 'Створення: %{name}',
      dashboard: 'Головна',
      // Only placeholders, same as English.
      edit: '%{name} %{recordRepresentation}',
      error: 'Щось пішло не так',
      // Only a placeholder, same as English.
      list: '%{name}',
      loading: 'Завантаження',
      not_found: 'Сторінку не знайдено',
      // Only placeholders, same as English.
      show: '%{name} %{recordRepresentation}',
      // %{name} comes with smart_count 0, i.e. genitive plural ("Квартир").
      empty: '%{name} ще немає.',
      invite: 'Бажаєте додати перший запис?',
      access_denied: 'Доступ заборонено',
      authentication_error: 'Помилка автентифікації',
    },
    input: {
      file: {
        upload_several: 'Перетягніть сюди файли для завантаження або натисніть, щоб вибрати.',
        upload_single: 'Перетягніть сюди файл для завантаження або натисніть, щоб вибрати його.',
      },
      image: {
        upload_several: 'Перетягніть сюди одне чи кілька зображень або натисніть, щоб вибрати.',
        upload_single: 'Перетягніть сюди зображення або натисніть, щоб вибрати його.',
      },
      references: {
        all_missing: "Не вдалося знайти пов'язані дані.",
        many_missing: "Щонайменше один із пов'язаних записів більше недоступний.",
        single_missing: "Пов'язаний запис більше недоступний.",
      },
      password: {
        // Label of the toggle while the password is visible.
        toggle_visible: 'Приховати пароль',
        // Label of the toggle while the password is hidden.
        toggle_hidden: 'Показати пароль',
      },
    },
    message: {
      about: 'Про застосунок',
      access_denied: 'У вас немає прав доступу до цієї сторінки',
      are_you_sure: 'Ви впевнені?',
      authentication_error: 'Сервер автентифікації повернув помилку, тож перевірити ваші облікові дані не вдалося.',
      auth_error: 'Під час перевірки токена автентифікації сталася помилка.',
      bulk_delete_content:
        'Ви впевнені, що хочете видалити %{smart_count} запис (%{name})? |||| Ви впевнені, що хочете видалити ці %{smart_count} записи? ' +
        '|||| Ви впевнені, що хочете видалити ці %{smart_count} записів?',
      bulk_delete_title: 'Видалення: %{smart_count} %{name} |||| Видалення: %{smart_count} %{name} |||| Видалення: %{smart_count} %{name}',
      bulk_update_content:
        'Ви впевнені, що хочете оновити запис %{recordRepresentation} (%{name})? |||| Ви впевнені, що хочете оновити ці %{smart_count} ' +
        'записи? |||| Ви впевнені, що хочете оновити ці %{smart_count} записів?',
      bulk_update_title: 'Оновлення: %{name} %{recordRepresentation} |||| Оновлення: %{smart_count} %{name} |||| Оновлення: %{smart_count} %{name}',
      clear_array_input: 'Ви впевнені, що хочете очистити весь список?',
      delete_content: 'Ви впевнені, що хочете видалити цей запис (%{name})?',
      delete_title: 'Видалення: %{name} %{recordRepresentation}',
      details: 'Подробиці',
      error: 'На боці клієнта сталася помилка, і ваш запит не вдалося виконати.',
      invalid_form: 'Форма містить помилки. Перевірте введені дані',
      loading: 'Зачекайте, будь ласка',
      no: 'Ні',
      not_found: 'Ви ввели неправильну адресу або перейшли за недійсним посиланням.',
      select_all_limit_reached: 'Записів забагато, щоб вибрати всі. Вибрано лише перші %{max}.',
      unsaved_changes: 'Деякі зміни не збережено. Ви впевнені, що хочете їх відкинути?',
      yes: 'Так',
      placeholder_data_warning: 'Проблема з мережею: не вдалося оновити дані.',
    },
    navigation: {
      clear_filters: 'Скинути фільтри',
      // %{name} comes with smart_count 0, i.e. genitive plural ("Квартир").
      no_filtered_results: '%{name} за поточними фільтрами не знайдено.',
      no_results: '%{name} не знайдено',
      no_more_results: 'Сторінки %{page} не існує. Спробуйте попередню сторінку.',
      page_out_of_boundaries: 'Сторінка %{page} поза межами діапазону',
      page_out_from_end: 'Неможливо перейти далі за останню сторінку',
      page_out_from_begin: 'Неможливо перейти на сторінку перед першою',
      page_range_info: '%{offsetBegin}–%{offsetEnd} з %{total}',
      partial_page_range_info: '%{offsetBegin}–%{offsetEnd} з понад %{offsetEnd}',
      current_page: 'Сторінка %{page}',
      page: 'Перейти на сторінку %{page}',
      first: 'Перейти на першу сторінку',
      last: 'Перейти на останню сторінку',
      next: 'Перейти на наступну сторінку',
      previous: 'Перейти на попередню сторінку',
      page_rows_per_page: 'Рядків на сторінці:',
      skip_nav: 'Перейти до вмісту',
    },
    sort: {
      // e.g. "Сортувати за полем «адреса» за зростанням"
      sort_by: 'Сортувати за полем «%{field_lower_first}» %{order}',
      ASC: 'за зростанням',
      DESC: 'за спаданням',
    },
    auth: {
      auth_check_error: 'Увійдіть, щоб продовжити',
      user_menu: 'Профіль',
      username: "Ім'я користувача",
      password: 'Пароль',
      email: 'Електронна пошта',
      sign_in: 'Увійти',
      sign_in_error: 'Не вдалося увійти. Спробуйте ще раз',
      logout: 'Вийти',
    },
    notification: {
      updated: '%{smart_count} запис оновлено |||| %{smart_count} записи оновлено |||| %{smart_count} записів оновлено',
      created: 'Запис створено',
      deleted: '%{smart_count} запис видалено |||| %{smart_count} записи видалено |||| %{smart_count} записів видалено',
      bad_item: 'Некоректний запис',
      item_doesnt_exist: 'Такого запису не існує',
      http_error: "Помилка зв'язку із сервером",
      data_provider_error: 'Помилка постачальника даних. Подробиці дивіться в консолі браузера.',
      i18n_error: 'Не вдалося завантажити переклади для вибраної мови',
      canceled: 'Дію скасовано',
      logged_out: 'Ваш сеанс завершився. Увійдіть знову.',
      not_authorized: 'У вас немає прав доступу до цього розділу.',
      application_update_available: 'Доступна нова версія застосунку.',
      offline: "Немає з'єднання з мережею. Не вдалося отримати дані.",
    },
    validation: {
      required: "Обов'язкове поле",
      minLength: 'Мінімальна кількість символів: %{min}',
      maxLength: 'Максимальна кількість символів: %{max}',
      minValue: 'Має бути не менше ніж %{min}',
      maxValue: 'Має бути не більше ніж %{max}',
      number: 'Має бути числом',
      email: 'Має бути коректною адресою електронної пошти',
      oneOf: 'Має бути одним із: %{options}',
      regex: 'Має відповідати формату (регулярний вираз): %{pattern}',
      unique: 'Значення має бути унікальним',
    },
    saved_queries: {
      label: 'Збережені фільтри',
      query_name: 'Назва фільтра',
      new_label: 'Зберегти поточний фільтр...',
      new_dialog_title: 'Зберегти поточний фільтр під назвою',
      remove_label: 'Видалити збережений фільтр',
      remove_label_with_name: 'Видалити фільтр «%{name}»',
      remove_dialog_title: 'Видалити збережений фільтр?',
      remove_message: 'Ви впевнені, що хочете видалити цей фільтр зі списку збережених?',
      help: 'Відфільтруйте список і збережіть ці умови, щоб швидко повертатися до них',
    },
    guesser: {
      empty: {
        title: 'Немає даних для відображення',
        message: 'Перевірте налаштування постачальника даних',
      },
    },
    configurable: {
      customize: 'Налаштувати',
      configureMode: 'Налаштувати цю сторінку',
      inspector: {
        title: 'Інспектор',
        content: 'Наведіть курсор на елементи інтерфейсу, щоб налаштувати їх',
        reset: 'Скинути налаштування',
        hideAll: 'Приховати всі',
        showAll: 'Показати всі',
      },
      Datagrid: {
        title: 'Таблиця',
        unlabeled: 'Стовпець без назви №%{column}',
      },
      SimpleForm: {
        title: 'Форма',
        unlabeled: 'Поле без назви №%{input}',
      },
      SimpleList: {
        title: 'Список',
        primaryText: 'Основний текст',
        secondaryText: 'Додатковий текст',
        tertiaryText: 'Допоміжний текст',
      },
    },
  },
};

export default raUkrainian;
