/**
 * Values kept sealed: encrypted with AES-256-GCM under a key the database does not hold, so that
 * a copy of the database (a dump, a replica, a backup archive) does not reveal them, while the
 * process that has the key can read them back. Each value has its own random IV and is bound to
 * what it belongs to (the additional data, e.g. the hash it is looked up by), so a sealed value
 * copied onto another row does not open there.
 *
 * A sealed value is one line of text: `v1.<key id>.<iv>.<ciphertext>.<tag>`, base64url. The key
 * id (a keyed digest, never the key), the second field, tells a value sealed under another key
 * from a damaged one.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The shortest secret a key is made from (a generated one is 43 characters, 256 bits). */
export const SECRET_MIN_LENGTH = 32;

export interface SealKey {
  /** 32 bytes for AES-256. */
  readonly key: Buffer;
  /** A short public name of the key, written into every value it seals. */
  readonly id: string;
}

/**
 * The key for one purpose made from a secret (an environment variable or a key file): HKDF-SHA256,
 * so one secret gives unrelated keys to different purposes and any text of 32+ characters will do.
 */
export function keyFromSecret(secret: string, purpose: string): SealKey {
  if (secret.length < SECRET_MIN_LENGTH) throw new Error(`a sealing secret must be at least ${SECRET_MIN_LENGTH} characters`);
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), 'zhk-admin sealed values', purpose, 32));
  return { key, id: createHmac('sha256', key).update('key id').digest().subarray(0, 6).toString('base64url') };
}

/** Seals `value` under `key`, bound to `bound` (the same text is needed to open it). */
export function seal(key: SealKey, value: string, bound = ''): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(bound, 'utf8'));
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return [VERSION, key.id, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

export type Opened = { ok: true; value: string } | { ok: false; reason: 'other-key' | 'damaged' };

/**
 * Opens a value `seal` made. Never throws: a value sealed under another key (the key id differs)
 * is `other-key`; one that is malformed, altered, or bound to something else is `damaged`.
 */
export function open(key: SealKey, sealed: string, bound = ''): Opened {
  const parts = sealed.split('.');
  if (parts.length !== 5 || parts[0] !== VERSION) return { ok: false, reason: 'damaged' };
  const [, id, iv, body, tag] = parts;
  if (id !== key.id) return { ok: false, reason: 'other-key' };
  const [ivBytes, tagBytes] = [Buffer.from(iv, 'base64url'), Buffer.from(tag, 'base64url')];
  if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) return { ok: false, reason: 'damaged' };
  try {
    const decipher = createDecipheriv(ALGORITHM, key.key, ivBytes, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tagBytes);
    decipher.setAAD(Buffer.from(bound, 'utf8'));
    const value = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    return { ok: true, value };
  } catch {
    return { ok: false, reason: 'damaged' };
  }
}

/**
 * The secret kept in `file`, created on first use: 32 random bytes as base64url (a text that
 * could equally be given in an environment variable), readable by the owner only (mode 0600).
 * Several processes starting together get the same secret: the file is written whole under a
 * temporary name and linked into place only if no other process did so first.
 */
export function secretFile(file: string): string {
  const existing = readSecret(file);
  if (existing !== undefined) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(temporary, 'wx', 0o600);
  try {
    fs.writeSync(fd, `${randomBytes(32).toString('base64url')}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(temporary, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  const secret = readSecret(file);
  if (secret === undefined) throw new Error(`${file} vanished while it was created`);
  return secret;
}

function readSecret(file: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const secret = text.trim();
  if (secret.length < SECRET_MIN_LENGTH) throw new Error(`${file} holds no key (fewer than ${SECRET_MIN_LENGTH} characters)`);
  return secret;
}
