import { Principal } from '../tenancy/request-context';

/**
 * What a Bearer token's `tenantId` and `sub` may hold. MySQL/MariaDB compare text ignoring trailing
 * spaces ('acme ' = 'acme'), so anything but this plain alphabet could reach another tenant's rows.
 */
export const TOKEN_IDENTIFIER_PATTERN = /^[0-9A-Za-z._@-]{1,64}$/;

export const isTokenIdentifier = (value: unknown): value is string => typeof value === 'string' && TOKEN_IDENTIFIER_PATTERN.test(value);

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * The principal a verified token's payload names, or undefined when a claim is missing or malformed:
 * no `exp` (a token must not live forever), or a `tenantId`/`sub` outside TOKEN_IDENTIFIER_PATTERN.
 */
export function principalFromClaims(payload: Record<string, unknown>): Principal | undefined {
  const { sub, tenantId, exp } = payload;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return undefined;
  if (!isTokenIdentifier(tenantId) || !isTokenIdentifier(sub)) return undefined;
  return { tenantId, username: sub, roles: strings(payload.roles), permissions: strings(payload.permissions) };
}
