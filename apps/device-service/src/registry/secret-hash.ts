import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/** `scrypt$<salt base64>$<key base64>`: a fresh random salt per secret (Node's default scrypt cost). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scryptAsync(secret, salt, KEY_LENGTH);
  return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Compares in constant time; a malformed stored value never matches. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64'), KEY_LENGTH);
  return timingSafeEqual(actual, expected);
}

/**
 * Checked against when the number is unknown, so an unknown number costs the same scrypt run as a
 * known one and response times don't reveal which numbers exist.
 */
export const UNKNOWN_NUMBER_HASH = `scrypt$${Buffer.alloc(SALT_LENGTH).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;
