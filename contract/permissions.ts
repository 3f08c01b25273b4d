/**
 * Areas of the product that permissions are granted on, in menu order.
 * `GET /user` returns `rules` keyed by these names; the SPA treats the first key
 * as the user's home area.
 */
export const AREAS = [
  'complexes',
  'houses',
  'realty',
  'service_requests',
  'service_request_types',
  'articles',
  'announcements',
  'events',
  'interviews',
  'votings',
  'members',
  'documents',
  'contacts',
  'staff',
  'staff_roles',
  'advertisements',
  'discounts',
  'cameras',
] as const;

export type Area = (typeof AREAS)[number];

/**
 * The areas' Ukrainian names, as the role matrix shows them: the SPA's Ukrainian catalogue
 * (`app.areas`) and the API's messages about rights both take them from here. English names are
 * in src/i18n/en.ts.
 */
export const AREA_LABELS: Readonly<Record<Area, string>> = {
  complexes: 'Комплекси',
  houses: 'Будинки',
  realty: 'Нерухомість (паркінги, комори)',
  service_requests: 'Заявки',
  service_request_types: 'Типи заявок',
  articles: 'Новини',
  announcements: 'Оголошення',
  events: 'Афіша заходів',
  interviews: 'Опитування',
  votings: 'Загальні збори',
  members: 'Мешканці',
  documents: 'Документи',
  contacts: 'Контакти',
  staff: 'Працівники',
  staff_roles: 'Ролі та відділи',
  advertisements: 'Реклама',
  discounts: 'Знижки партнерів',
  cameras: 'Камери',
};
export const ACTIONS = ['view', 'create', 'edit', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];
export type Rules = Partial<Record<Area, Action[]>>;

export const FULL_RULES: Rules = Object.fromEntries(AREAS.map((a) => [a, [...ACTIONS]])) as Rules;

/** Pure permission check shared by the API guards and the SPA route guard. */
export function canAccess(rules: Rules | undefined | null, area: Area, action: Action = 'view'): boolean {
  return Boolean(rules?.[area]?.includes(action));
}

/** Keeps only known areas and actions, in canonical order (first key = home area). */
export function normaliseRules(rules: Rules): Rules {
  const out: Rules = {};
  for (const area of AREAS) {
    const actions = ACTIONS.filter((a) => rules[area]?.includes(a));
    if (actions.length > 0) out[area] = actions;
  }
  return out;
}
