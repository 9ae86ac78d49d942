import { Principal } from '../tenancy/request-context';

/**
 * What a Bearer token's `tenantId` and `sub` may hold. MySQL/MariaDB compare text ignoring trailing
 * spaces ('acme ' = 'acme'), so anything but this plain alphabet could reach another tenant's rows.
 */
export const TOKEN_IDENTIFIER_PATTERN = /^[0-9A-Za-z._@-]{1,64}$/;

export const isTokenIdentifier = (value: unknown): value is string => typeof value === 'string' && TOKEN_IDENTIFIER_PATTERN.test(value);

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * The first claim of a verified token's payload that is missing or malformed, or undefined when all are
 * fine: no `exp` (a token must not live forever), or a `tenantId`/`sub` outside TOKEN_IDENTIFIER_PATTERN.
 */
export function invalidClaim(payload: Record<string, unknown>): 'exp' | 'tenantId' | 'sub' | undefined {
  if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) return 'exp';
  if (!isTokenIdentifier(payload.tenantId)) return 'tenantId';
  if (!isTokenIdentifier(payload.sub)) return 'sub';
  return undefined;
}

/** The principal a verified token's payload names, or undefined when a claim is missing or malformed (invalidClaim). */
export function principalFromClaims(payload: Record<string, unknown>): Principal | undefined {
  if (invalidClaim(payload)) return undefined;
  const { sub, tenantId } = payload as { sub: string; tenantId: string };
  return { tenantId, username: sub, roles: strings(payload.roles), permissions: strings(payload.permissions) };
}
