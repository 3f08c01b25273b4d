import englishMessages from 'ra-language-english';
import { layoutMessagesEn } from '../layout/messages';
import { en } from './en';
import { mergeMessages } from './merge';
import { richTextEn } from './richText';

/** The English catalogue, loaded only when English is chosen (src/i18n/index.ts). */
export const english = mergeMessages(englishMessages, richTextEn, layoutMessagesEn, en);
