import polyglotI18nProvider from 'ra-i18n-polyglot';
import { DECLARED_SCREENS } from 'virtual:declared-screens';
import { raUkrainian } from './ra-uk';
import { layoutMessagesUk } from '../layout/messages';
import { uk } from './uk';
import { mergeMessages, type Catalogue } from './merge';
import { richTextUk } from './richText';

/** The Ukrainian words of the screens built from declarations are the declarations' own (`texts`). */
const declaredUk = {
  resources: Object.fromEntries(
    DECLARED_SCREENS.flatMap(({ name, texts }) => {
      if (!texts) return [];
      const { created, ...rest } = texts;
      return [[name, { ...rest, notifications: { created } }]];
    }),
  ),
};

const ukrainian: Catalogue = mergeMessages(raUkrainian, richTextUk, layoutMessagesUk, declaredUk, uk);

/** English is as large as Ukrainian and most users never switch, so it is a chunk of its own. */
let english: Catalogue | undefined;
export async function loadEnglish(): Promise<Catalogue> {
  english ??= (await import('./english')).english;
  return english;
}

export const LOCALES = [
  { locale: 'uk', name: 'Українська' },
  { locale: 'en', name: 'English' },
];

function initialLocale(): 'uk' | 'en' {
  try {
    return localStorage.getItem('locale') === 'en' ? 'en' : 'uk';
  } catch {
    return 'uk';
  }
}

// The provider needs its first locale's messages synchronously: it starts in Ukrainian and
// switches before the first render (i18nReady) when English was chosen last time.
export const i18nProvider = polyglotI18nProvider((l) => (l === 'en' ? (english ?? loadEnglish()) : ukrainian), 'uk', LOCALES, {
  allowMissing: false,
});

/** Resolves when the provider speaks the language chosen last time (or stays Ukrainian when English
 * cannot be loaded); main.tsx renders after it. */
export const i18nReady: Promise<void> = initialLocale() === 'en' ? i18nProvider.changeLocale('en').catch(() => undefined) : Promise.resolve();
