import { randomBytes, scrypt, ScryptOptions, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { Environment, readConfig } from '@app/common';
import { DeviceServiceConfig, MAX_SECRET_HASH_COST } from '../device-service.config';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: ScryptOptions) => Promise<Buffer>;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Hashes stored before the cost was written into them used Node's default cost, 2^14. */
const UNWRITTEN_COST = 14;
const BLOCK_SIZE = 8;

/** scrypt of cost 2^cost (block size 8, one lane), with the memory that cost needs allowed. */
function derive(secret: string, salt: Buffer, cost: number): Promise<Buffer> {
  const N = 2 ** cost;
  return scryptAsync(secret, salt, KEY_LENGTH, { N, r: BLOCK_SIZE, p: 1, maxmem: 256 * N * BLOCK_SIZE });
}

/** The cost of new hashes (DEVICE_SECRET_HASH_COST, from the environment of the moment: a record's column hook, which hashes, has no injector). */
export function secretHashCost(env: Environment = process.env): number {
  return readConfig(DeviceServiceConfig, env).deviceSecretHashCost;
}

/**
 * `scrypt$ln=<cost>$<salt base64>$<key base64>`: a fresh random salt per secret, and the cost it was made with,
 * so raising DEVICE_SECRET_HASH_COST applies to new secrets while stored ones keep verifying.
 */
export async function hashSecret(secret: string, cost = secretHashCost()): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(secret, salt, cost);
  return `scrypt$ln=${cost}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** The parts of a stored hash (the cost-less form is the earlier one), or undefined when malformed. */
function parse(stored: string): { cost: number; salt: Buffer; key: Buffer } | undefined {
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt' || (parts.length !== 3 && parts.length !== 4)) return undefined;
  const [salt, key] = parts.slice(-2);
  const cost = parts.length === 4 ? Number(/^ln=(\d{1,2})$/.exec(parts[1])?.[1] ?? NaN) : UNWRITTEN_COST;
  const decoded = Buffer.from(key, 'base64');
  if (!salt || decoded.length !== KEY_LENGTH || !(cost >= 1 && cost <= MAX_SECRET_HASH_COST)) return undefined;
  return { cost, salt: Buffer.from(salt, 'base64'), key: decoded };
}

/** Compares in constant time; a malformed stored value never matches. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const hash = parse(stored);
  if (!hash) return false;
  return timingSafeEqual(await derive(secret, hash.salt, hash.cost), hash.key);
}

/**
 * Checked against when the number is unknown, so an unknown number costs the same scrypt run as a
 * known one and response times don't reveal which numbers exist. Its key is all zeros: it matches nothing.
 */
export function unknownNumberHash(cost: number): string {
  return `scrypt$ln=${cost}$${Buffer.alloc(SALT_LENGTH).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;
}
