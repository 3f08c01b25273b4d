/**
 * Sealed values (server/lib/sealed.ts): AES-256-GCM under a key made from a secret, each value
 * with its own IV and bound to what it belongs to; and the key file generated once, readable by
 * its owner only, the same for processes that start together.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config.ts';
import { keyFromSecret, open, seal, secretFile, SECRET_MIN_LENGTH } from '../../server/lib/sealed.ts';
import { LINK_KEY_FILE, linkKeyOf } from '../../server/modules/voting/linkTokens.ts';

const SECRET = 'a-secret-of-more-than-thirty-two-characters';
const key = keyFromSecret(SECRET, 'test');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-sealed-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** The fields of a sealed value, and the value with one field replaced. */
const fields = (sealed: string) => sealed.split('.');
const withField = (sealed: string, i: number, value: string) => fields(sealed).toSpliced(i, 1, value).join('.');
const flipped = (b64: string) => {
  const bytes = Buffer.from(b64, 'base64url');
  bytes[0] ^= 1;
  return bytes.toString('base64url');
};

describe('seal and open', () => {
  it('gives the value back, under a fresh IV each time, and shows none of it', () => {
    const value = 'Токен-посилання_AbC-123';
    const [a, b] = [seal(key, value, 'row 1'), seal(key, value, 'row 1')];
    expect(a).not.toBe(b);
    expect(fields(a)[2]).not.toBe(fields(b)[2]);
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(a).not.toContain(value);
    expect(a).not.toContain(Buffer.from(value).toString('base64url'));
    expect(open(key, a, 'row 1')).toEqual({ ok: true, value });
    expect(open(key, seal(key, ''), '')).toEqual({ ok: true, value: '' });
  });

  it('does not open bound to something else, altered, truncated or malformed', () => {
    const sealed = seal(key, 'token', 'row 1');
    expect(open(key, sealed, 'row 2')).toEqual({ ok: false, reason: 'damaged' });
    expect(open(key, sealed)).toEqual({ ok: false, reason: 'damaged' });
    for (const i of [2, 3, 4])
      expect(open(key, withField(sealed, i, flipped(fields(sealed)[i])), 'row 1'), `field ${i}`).toEqual({ ok: false, reason: 'damaged' });
    expect(open(key, withField(sealed, 4, fields(sealed)[4].slice(0, 10)), 'row 1')).toEqual({ ok: false, reason: 'damaged' });
    expect(open(key, withField(sealed, 2, ''), 'row 1')).toEqual({ ok: false, reason: 'damaged' });
    expect(open(key, withField(sealed, 0, 'v2'), 'row 1')).toEqual({ ok: false, reason: 'damaged' });
    for (const junk of ['', 'token', 'v1....', `${sealed}.x`, fields(sealed).slice(0, 4).join('.')])
      expect(open(key, junk, 'row 1')).toMatchObject({ ok: false });
  });

  it('tells a value sealed under another key from a damaged one', () => {
    const other = keyFromSecret(`${SECRET}-rotated`, 'test');
    expect(other.id).not.toBe(key.id);
    expect(open(other, seal(key, 'token', 'row 1'), 'row 1')).toEqual({ ok: false, reason: 'other-key' });
    // A forged key id does not help: the tag still fails.
    expect(open(other, withField(seal(key, 'token', 'row 1'), 1, other.id), 'row 1')).toEqual({ ok: false, reason: 'damaged' });
  });

  it('makes the same key from the same secret and purpose, other keys otherwise, and no key from a short secret', () => {
    expect(keyFromSecret(SECRET, 'test')).toEqual(key);
    expect(keyFromSecret(SECRET, 'test').key).toHaveLength(32);
    expect(keyFromSecret(SECRET, 'other purpose').key.equals(key.key)).toBe(false);
    expect(keyFromSecret(SECRET, 'other purpose').id).not.toBe(key.id);
    expect(key.id).not.toContain(SECRET);
    expect(() => keyFromSecret('x'.repeat(SECRET_MIN_LENGTH - 1), 'test')).toThrow(/at least 32/);
  });
});

describe('the key file', () => {
  it('is created once, with mode 0600 and a secret of 43 characters, and read back afterwards', () => {
    const file = path.join(work, 'first', 'nested', 'link.key');
    const secret = secretFile(file);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(secretFile(file)).toBe(secret);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['link.key']);
  });

  it('is the same for processes that create it at the same moment', async () => {
    const file = path.join(work, 'race', 'link.key');
    const run = promisify(execFile);
    const code = `import(${JSON.stringify(path.resolve('server/lib/sealed.ts'))}).then((m) => process.stdout.write(m.secretFile(process.argv[1])))`;
    const secrets = await Promise.all(Array.from({ length: 6 }, () => run(process.execPath, ['--import', 'tsx', '-e', code, file]).then((r) => r.stdout)));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toBe(fs.readFileSync(file, 'utf8').trim());
    expect(fs.readdirSync(path.dirname(file))).toEqual(['link.key']);
  });

  it('refuses a file that holds no secret rather than replacing it', () => {
    const file = path.join(work, 'short.key');
    fs.writeFileSync(file, 'short\n');
    expect(() => secretFile(file)).toThrow(/holds no key/);
    expect(fs.readFileSync(file, 'utf8')).toBe('short\n');
  });
});

describe('the link key', () => {
  it('comes from LINK_SECRET when it is set, and no file is written', () => {
    const dataDir = path.join(work, 'with-secret');
    expect(linkKeyOf({ linkSecret: SECRET, dataDir })).toEqual(keyFromSecret(SECRET, 'voting link token'));
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('comes from DATA_DIR/link.key otherwise, the same at every start, and equal to that secret given as LINK_SECRET', () => {
    const dataDir = path.join(work, 'data');
    const first = linkKeyOf({ linkSecret: undefined, dataDir });
    expect(linkKeyOf({ linkSecret: undefined, dataDir })).toEqual(first);
    const secret = fs.readFileSync(path.join(dataDir, LINK_KEY_FILE), 'utf8').trim();
    expect(linkKeyOf({ linkSecret: secret, dataDir: path.join(work, 'elsewhere') })).toEqual(first);
  });

  it('stops the start with one line naming LINK_SECRET and the file when the file cannot be made', () => {
    const blocked = path.join(work, 'not-a-folder');
    fs.writeFileSync(blocked, '');
    let error: unknown;
    try {
      linkKeyOf({ linkSecret: undefined, dataDir: blocked });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid configuration: LINK_SECRET is not set and the link key file .*not-a-folder\/link\.key cannot be used \(/);
    expect(message).not.toContain('\n');
  });
});
