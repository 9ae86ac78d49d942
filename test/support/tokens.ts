import { createSecretKey, KeyObject } from 'node:crypto';
import { sign } from 'jsonwebtoken';

export const TEST_JWT_SECRET = 'test-secret-of-at-least-16-chars';

export interface Claims {
  tenantId?: string;
  sub?: string;
  roles?: string[];
  permissions?: string[];
}

export interface TokenOptions {
  /** Seconds until `exp` (default 600); null: a token without `exp`. */
  expiresIn?: number | null;
  secret?: string;
  /** `iss` / `aud` claims (none unless given). */
  issuer?: string;
  audience?: string;
}

/**
 * The HS256 key of a secret, made once: given the secret as a string, jsonwebtoken first tries (and fails) to read it
 * as a private key on every signature, which was most of what signing cost the request-heavy suites.
 */
const keys = new Map<string, KeyObject>();
function hmacKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  return key;
}

/** A Bearer header for the given claims (administrator of tenant-a by default). */
export function bearer(claims: Claims = {}, options: TokenOptions = {}): string {
  const payload = { sub: 'alice', tenantId: 'tenant-a', roles: ['administrator'], permissions: [], ...claims };
  const expiry = options.expiresIn === null ? {} : { expiresIn: options.expiresIn ?? 600 };
  const claimed = { ...(options.issuer ? { issuer: options.issuer } : {}), ...(options.audience ? { audience: options.audience } : {}) };
  return `Bearer ${sign(payload, hmacKey(options.secret ?? TEST_JWT_SECRET), { algorithm: 'HS256', ...expiry, ...claimed })}`;
}
