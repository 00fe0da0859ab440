// Passwords: scrypt (memory-hard, in node:crypto) in a self-describing string
// `scrypt$N$r$p$salt$hash` (salt and hash base64url), so the cost can be raised later and old
// hashes still verify — needsRehash tells the login path to store a new one.
import {
  randomBytes,
  randomInt,
  scrypt as scryptCallback,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';
import { invalid } from '../../process/errors.ts';

export interface ScryptParameters {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** OWASP's scrypt minimum (2^15, 8, 1): about 32 MiB and some 50–100 ms per hash here. */
export const SCRYPT_DEFAULTS: ScryptParameters = { N: 2 ** 15, r: 8, p: 1 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
// A stored string is data: a tampered one must not make verify allocate gigabytes or spin for
// minutes. Anything past these bounds is refused as malformed rather than computed.
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

/** The policy: a length only (NIST SP 800-63B — no composition rules); `invalid` naming `password`. */
export function checkPasswordPolicy(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    throw invalid(`password: must be at least ${PASSWORD_MIN_LENGTH} characters`, 'password');
  }
  if (length > PASSWORD_MAX_LENGTH) {
    throw invalid(`password: must be at most ${PASSWORD_MAX_LENGTH} characters`, 'password');
  }
}

export async function hashPassword(
  password: string,
  params: ScryptParameters = SCRYPT_DEFAULTS,
): Promise<string> {
  checkPasswordPolicy(password);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params, KEY_BYTES);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

/**
 * Whether `password` matches the stored string. A missing user (`stored` undefined) or a stored
 * string that cannot be read still costs one hash, so the answer's timing does not tell which
 * user names exist.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const parsed = stored === undefined ? undefined : parseHash(stored);
  if (parsed === undefined || [...password].length > PASSWORD_MAX_LENGTH) {
    await derive('', DUMMY_SALT, SCRYPT_DEFAULTS, KEY_BYTES);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.params, parsed.hash.length);
  return timingSafeEqual(key, parsed.hash);
}

/** True when the stored hash is weaker than `params` (or unreadable): store a fresh one at login. */
export function needsRehash(stored: string, params: ScryptParameters = SCRYPT_DEFAULTS): boolean {
  const parsed = parseHash(stored);
  if (parsed === undefined) return true;
  const old = parsed.params;
  return old.N < params.N || old.r < params.r || old.p < params.p || parsed.hash.length < KEY_BYTES;
}

// Letters and digits a person can read aloud and type: no 0/O, 1/l/I.
const ONE_TIME_ALPHABET = 'abcdefghijkmnpqrstuvwxyzACDEFGHJKLMNPQRTUVWXY3479';

/**
 * A one-time password for `labld user add` to print once: four groups of five characters from a
 * 49-letter alphabet, about 112 bits, well past the policy's length.
 */
export function generateOneTimePassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < 4; g++) {
    let group = '';
    for (let i = 0; i < 5; i++) group += ONE_TIME_ALPHABET[randomInt(ONE_TIME_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

const DUMMY_SALT = Buffer.alloc(SALT_BYTES);

interface ParsedHash {
  readonly params: ScryptParameters;
  readonly salt: Buffer;
  readonly hash: Buffer;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map((part) => (/^[1-9][0-9]{0,9}$/.test(part) ? Number(part) : NaN));
  const [salt, hash] = parts.slice(4);
  if (N === undefined || r === undefined || p === undefined || salt === undefined || hash === undefined)
    return undefined;
  // N must be a power of two above 1 (scrypt's own rule).
  if (!(N > 1 && N <= MAX_N && (N & (N - 1)) === 0 && r >= 1 && r <= MAX_R && p >= 1 && p <= MAX_P))
    return undefined;
  if (!BASE64URL.test(salt) || !BASE64URL.test(hash)) return undefined;
  const saltBytes = Buffer.from(salt, 'base64url');
  const hashBytes = Buffer.from(hash, 'base64url');
  if (saltBytes.length < SALT_BYTES || hashBytes.length < 16 || hashBytes.length > 64) return undefined;
  return { params: { N, r, p }, salt: saltBytes, hash: hashBytes };
}

function derive(password: string, salt: Buffer, params: ScryptParameters, length: number): Promise<Buffer> {
  // NFC so the same password typed on two systems (composed or decomposed accents) matches.
  const secret = Buffer.from(password.normalize('NFC'), 'utf8');
  // scrypt needs 128·N·r bytes; node's default cap (32 MiB) is exactly the default cost's need,
  // so give it room.
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: 256 * params.N * params.r + 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scryptCallback(secret, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}
