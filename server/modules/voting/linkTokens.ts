/**
 * The token of a meeting's public voting link (`/Vote/{token}`), kept as every other token is:
 * the database holds its SHA-256, which the public page looks the meeting up by, and never the
 * token itself. Because staff must be able to show and send the link again, a copy is also kept
 * sealed (server/lib/sealed.ts) under the link key: LINK_SECRET, or the secret generated once
 * into DATA_DIR/link.key. A database dump alone opens no meeting (docs/security.md, "Voting
 * links are kept hashed and sealed"; docs/operations.md, "The link key").
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import { ConfigError, type AppConfig } from '../../config.ts';
import { votings } from '../../db/schema.ts';
import type { Db } from '../../db/index.ts';
import { conflict } from '../../lib/errors.ts';
import { keyFromSecret, open, seal, secretFile, type SealKey } from '../../lib/sealed.ts';
import { hashToken } from '../../lib/secrets.ts';

/** The file under DATA_DIR that holds the link secret when LINK_SECRET is not set. */
export const LINK_KEY_FILE = 'link.key';
const PURPOSE = 'voting link token';

/**
 * The key voting links are sealed with: from LINK_SECRET, or from DATA_DIR/link.key (created with
 * mode 0600 on first use, also when the database is PostgreSQL). ConfigError, one line, when the
 * file can be neither read nor created.
 */
export function linkKeyOf(config: Pick<AppConfig, 'linkSecret' | 'dataDir'>): SealKey {
  if (config.linkSecret !== undefined) return keyFromSecret(config.linkSecret, PURPOSE);
  const file = path.join(config.dataDir, LINK_KEY_FILE);
  try {
    return keyFromSecret(secretFile(file), PURPOSE);
  } catch (err) {
    throw new ConfigError(`Invalid configuration: LINK_SECRET is not set and the link key file ${file} cannot be used (${(err as Error).message})`);
  }
}

/** What the sealed copy is bound to: its own row's hash, so it opens on no other row. */
const bound = (hash: string) => `votings.link_token:${hash}`;

/** A new link token, and the columns that keep it (its hash and its sealed copy). */
export function newLinkToken(key: SealKey): { token: string; columns: { linkTokenHash: string; linkTokenSealed: string } } {
  const token = randomBytes(18).toString('base64url');
  const linkTokenHash = hashToken(token);
  return { token, columns: { linkTokenHash, linkTokenSealed: seal(key, token, bound(linkTokenHash)) } };
}

/** How a staff member is told that the link cannot be shown again, and what to do. */
export const LINK_LOST = {
  'other-key':
    'Посилання голосування не вдається відновити: ключ посилань змінено (LINK_SECRET або файл link.key). ' +
    'Створіть нове посилання кнопкою «Нове посилання» на сторінці зборів (POST /api/admin/voting/{id}/deeplink): ' +
    'старе перестане діяти, тож надішліть співвласникам запрошення ще раз.',
  damaged:
    'Посилання голосування не вдається відновити: збережений запис пошкоджено. ' +
    'Створіть нове посилання кнопкою «Нове посилання» на сторінці зборів (POST /api/admin/voting/{id}/deeplink): ' +
    'старе перестане діяти, тож надішліть співвласникам запрошення ще раз.',
} as const;

type LinkColumns = { id: number; linkTokenHash: string; linkTokenSealed: string | null; linkToken: string | null };

/**
 * The meeting's link token, opened from its sealed copy; 409 with the Ukrainian reason when it
 * cannot be (another key, a damaged value). A row not sealed yet (restored from an older backup,
 * before the next start) still has it in clear.
 */
export function linkTokenOf(key: SealKey, v: LinkColumns): string {
  if (v.linkTokenSealed === null) {
    if (v.linkToken !== null && hashToken(v.linkToken) === v.linkTokenHash) return v.linkToken;
    throw conflict(LINK_LOST.damaged.replace('{id}', String(v.id)));
  }
  const opened = open(key, v.linkTokenSealed, bound(v.linkTokenHash));
  if (opened.ok && hashToken(opened.value) === v.linkTokenHash) return opened.value;
  throw conflict(LINK_LOST[opened.ok ? 'damaged' : opened.reason].replace('{id}', String(v.id)));
}

/**
 * Seals every link still kept in clear (the rows migration 0029 found, or restored from an older
 * backup) and empties `link_token`; returns how many. Run at start, after the migrations; a row
 * another process sealed meanwhile is left as that process wrote it.
 */
export async function sealClearLinkTokens(db: Db, key: SealKey): Promise<number> {
  const clear = await db.select({ id: votings.id, token: votings.linkToken }).from(votings).where(isNotNull(votings.linkToken));
  let sealed = 0;
  for (const { id, token } of clear) {
    if (token === null) continue;
    const linkTokenHash = hashToken(token);
    const done = await db
      .update(votings)
      .set({ linkTokenHash, linkTokenSealed: seal(key, token, bound(linkTokenHash)), linkToken: null })
      .where(and(eq(votings.id, id), eq(votings.linkToken, token)))
      .returning({ id: votings.id });
    sealed += done.length;
  }
  return sealed;
}

/** How many meetings' links are sealed under another key than `key` (their links cannot be shown). */
export async function linksUnderOtherKey(db: Db, key: SealKey): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(votings)
    .where(sql`split_part(${votings.linkTokenSealed}, '.', 2) <> ${key.id}`);
  return n;
}
