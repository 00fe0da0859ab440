// API tokens: 256 random bits, shown once, stored as a SHA-256 hash.
//
// A fast hash is right here, unlike for passwords: a slow KDF exists to make guessing a
// low-entropy secret expensive, but guessing a 256-bit random value is hopeless at any speed, so
// a leaked table of SHA-256 hashes gives nothing away. A fast hash also lets the store look a
// token up by its hash (an indexed equality), with no per-user salt and no scrypt per request.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { unauthorized } from '../../process/errors.ts';

/** The prefix that lets secret scanners (and people) recognise a leaked labld token. */
export const TOKEN_PREFIX = 'labld_';

const SECRET_BYTES = 32;
// base64url of 32 bytes is 43 characters; the CRC-32 of those (4 bytes) another 6.
const SECRET_CHARS = 43;
const CHECK_CHARS = 6;
const TOKEN_SHAPE = new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_-]{${SECRET_CHARS + CHECK_CHARS}}$`);

export interface NewToken {
  /** The token itself: show it once, never store it. */
  readonly token: string;
  /** What the store keeps (hex SHA-256 of the token). */
  readonly hash: string;
  /** A harmless beginning to tell tokens apart in a list (`labld_Ab3x…`). */
  readonly hint: string;
}

export function createToken(): NewToken {
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  const token = TOKEN_PREFIX + secret + checksum(secret);
  return { token, hash: hashToken(token), hint: tokenHint(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function tokenHint(token: string): string {
  return `${token.slice(0, TOKEN_PREFIX.length + 4)}…`;
}

/**
 * Whether a string is shaped like a labld token with an intact checksum (like GitHub's tokens):
 * a typo or a foreign token is refused without a store look-up.
 */
export function isWellFormedToken(value: string): boolean {
  if (!TOKEN_SHAPE.test(value)) return false;
  const body = value.slice(TOKEN_PREFIX.length);
  const secret = body.slice(0, SECRET_CHARS);
  return constantTimeEqual(body.slice(SECRET_CHARS), checksum(secret));
}

/** Compares a presented token with a stored hash without leaking, by timing, how much matched. */
export function tokenMatches(token: string, storedHash: string): boolean {
  return constantTimeEqual(hashToken(token), storedHash);
}

export interface CredentialHeaders {
  readonly authorization?: string | undefined;
  /** CKAN's older header; ckanapi still sends it beside `Authorization`. */
  readonly 'x-ckan-api-key'?: string | undefined;
}

/**
 * The API token a request carries, or undefined when it carries none. CKAN clients send the bare
 * token in `Authorization`; `Bearer <token>` (any case) is accepted too, and `X-CKAN-API-Key`.
 * A header that is present but holds no well-formed token is an `unauthorized` error naming it,
 * rather than silently anonymous: a script with a broken token should hear so, not see only
 * public data.
 */
export function tokenFromHeaders(headers: CredentialHeaders): string | undefined {
  const authorization = headers.authorization?.trim();
  if (authorization) return checked(stripBearer(authorization), 'Authorization');
  const apiKey = headers['x-ckan-api-key']?.trim();
  if (apiKey) return checked(apiKey, 'X-CKAN-API-Key');
  return undefined;
}

function stripBearer(value: string): string {
  const match = /^bearer\s+(\S+)$/i.exec(value);
  return match?.[1] ?? value;
}

function checked(value: string, header: string): string {
  if (!isWellFormedToken(value)) throw unauthorized(`${header}: not a valid labld API token`, header);
  return value;
}

function checksum(secret: string): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc32(secret));
  return bytes.toString('base64url');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  // timingSafeEqual needs equal lengths. Unequal ones still cost a comparison; the lengths
  // themselves are public here (fixed-size digests and checksums).
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
