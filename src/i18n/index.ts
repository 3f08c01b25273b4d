import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { TranslationMessages } from 'react-admin';
import englishMessages from 'ra-language-english';
import { raUkrainian } from './ra-uk';
import { layoutMessagesEn, layoutMessagesUk } from '../layout/messages';
import { uk } from './uk';
import { en } from './en';
import { richTextEn, richTextUk } from './richText';

type Catalogue = TranslationMessages;

/** Deep merge of message catalogues (later ones win). */
export function mergeMessages(...parts: object[]): Catalogue {
  const out: Record<string, any> = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      out[key] = value && typeof value === 'object' && !Array.isArray(value) ? mergeMessages(out[key] ?? {}, value) : value;
    }
  }
  return out as Catalogue;
}

export const messages: Record<'uk' | 'en', Catalogue> = {
  uk: mergeMessages(raUkrainian, richTextUk, layoutMessagesUk, uk),
  en: mergeMessages(englishMessages, richTextEn, layoutMessagesEn, en),
};

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

export const i18nProvider = polyglotI18nProvider((locale) => (locale === 'en' ? messages.en : messages.uk), initialLocale(), LOCALES, {
  allowMissing: false,
});
