import { sign } from 'jsonwebtoken';

export const TEST_JWT_SECRET = 'test-secret-of-at-least-16-chars';

export interface Claims {
  tenantId?: string;
  sub?: string;
  roles?: string[];
  permissions?: string[];
}

/** A Bearer header for the given claims (administrator of tenant-a by default). */
export function bearer(claims: Claims = {}, options: { expiresIn?: number; secret?: string } = {}): string {
  const payload = { sub: 'alice', tenantId: 'tenant-a', roles: ['administrator'], permissions: [], ...claims };
  return `Bearer ${sign(payload, options.secret ?? TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: options.expiresIn ?? 600 })}`;
}
