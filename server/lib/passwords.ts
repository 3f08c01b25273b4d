import { createRequire } from 'node:module';
import { unprocessable } from './errors.ts';

let common: Set<string> | undefined;

/**
 * Whether a password is among the ~49,000 most common ones (the list zxcvbn-ts ships), compared
 * in lower case. Loaded on first use and kept in memory.
 */
export function isCommonPassword(password: string): boolean {
  if (!common) {
    const require = createRequire(import.meta.url);
    const { dictionary } = require('@zxcvbn-ts/language-common') as { dictionary: Record<string, string[]> };
    common = new Set(dictionary['passwords-common']);
  }
  return common.has(password.toLowerCase());
}

/** Refuses a common password with 422 under `field`. */
export function assertUncommonPassword(password: string, field = 'password') {
  if (isCommonPassword(password)) {
    throw unprocessable({ [field]: ['Цей пароль надто поширений і його легко вгадати. Оберіть інший.'] });
  }
}
