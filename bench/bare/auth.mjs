// The two credential checks of the measured operations, written directly against jsonwebtoken and
// node:crypto: the Bearer token of the main-service calls and the device token of the device calls.
// Both keep what the services check (algorithm, expiry, audience, claim shapes, the record and secret a
// device token is bound to); neither goes through passport, guards or an async context.
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** What a Bearer token's `tenantId` and `sub` may hold (the service refuses anything else). */
const IDENTIFIER = /^[0-9A-Za-z._@-]{1,64}$/;
const DEVICE_AUDIENCE = 'device-service';

/** Keys made once, as the services do: a string secret costs ~0.5 ms per verify in jsonwebtoken. */
export function bearerKey(secret) {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

/**
 * The caller of an `Authorization: Bearer` request holding `permission` (or role administrator), or
 * null: HS256 signature, `exp` present and not passed, `tenantId`/`sub` of the identifier alphabet.
 */
export function bearerCaller(key, header, permission) {
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return null;
  let claims;
  try {
    claims = jwt.verify(header.slice(7), key, { algorithms: ['HS256'] });
  } catch {
    return null;
  }
  const { sub, tenantId, exp, roles, permissions } = claims;
  if (typeof exp !== 'number' || !IDENTIFIER.test(tenantId) || !IDENTIFIER.test(sub)) return null;
  const allowed =
    (Array.isArray(roles) && roles.includes('administrator')) || (Array.isArray(permissions) && permissions.includes(permission));
  return allowed ? { tenantId, user: sub } : null;
}

/** Device-token keys: the signing key and the separate key of the secret fingerprints. */
export function deviceTokenKeys(secret) {
  return {
    key: createSecretKey(Buffer.from(secret, 'utf8')),
    fingerprintKey: createHmac('sha256', secret).update('device-secret-fingerprint').digest(),
  };
}

/** A keyed digest of a record's stored secret hash: a token names the secret it was issued for. */
export function secretFingerprint(keys, secretHash) {
  return createHmac('sha256', keys.fingerprintKey).update(secretHash).digest('base64url');
}

/** The claims of a valid, unexpired device token of `kind`, or null. */
export function deviceClaims(keys, token, kind) {
  let claims;
  try {
    claims = jwt.verify(token, keys.key, { algorithms: ['HS256'], audience: DEVICE_AUDIENCE });
  } catch {
    return null;
  }
  const { sub, tenantId, rid, sfp } = claims;
  if (claims.kind !== kind || ![sub, tenantId, rid, sfp].every((v) => typeof v === 'string' && v)) return null;
  return { no: sub, tenantId, recordId: rid, secretFingerprint: sfp };
}

/** Whether a token's claims still match the live record of its number (same record, tenant and secret). */
export function claimsMatchRecord(keys, claims, record) {
  if (record.recordId !== claims.recordId || record.tenantId !== claims.tenantId) return false;
  const [given, current] = [Buffer.from(claims.secretFingerprint), Buffer.from(secretFingerprint(keys, record.secretHash))];
  return given.length === current.length && timingSafeEqual(given, current);
}

/** A device token as device-service issues it (the bench signs the tokens of its seeded devices). */
export function signDeviceToken(keys, { no, tenantId, recordId, secretHash }, ttlSeconds) {
  const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
  return jwt.sign({ kind: 'device', tenantId, rid: recordId, sfp: secretFingerprint(keys, secretHash), exp }, keys.key, {
    algorithm: 'HS256',
    subject: no,
    audience: DEVICE_AUDIENCE,
  });
}
