import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** argon2id in @node-rs/argon2's Algorithm enum (a const enum, so it is spelled out here). */
const ARGON2ID = 2;

/** A random token for the client and the hash we keep of it (tokens are never stored in clear). */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface HashCost {
  memoryCost: number;
  timeCost: number;
}

/** OWASP's argon2id baseline: 19 MiB, 2 iterations. */
export const DEFAULT_HASH_COST: HashCost = { memoryCost: 19456, timeCost: 2 };

export function hashPassword(password: string, cost: HashCost = DEFAULT_HASH_COST): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, ...cost, parallelism: 1 });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of a random password, verified against when the e-mail is unknown, so timing does not tell. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(cost?: HashCost): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'), cost);
  return dummyHash;
}
