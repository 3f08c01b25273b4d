import type { TranslationMessages } from 'react-admin';

export type Catalogue = TranslationMessages;

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
