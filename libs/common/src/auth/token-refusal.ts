import { HttpStatus } from '@nestjs/common';
import { JsonWebTokenError, NotBeforeError, TokenExpiredError } from 'jsonwebtoken';
import { HttpRefusal } from '../http/app-exception';
import { message } from '../i18n/message';

/**
 * The request line's hint for a token whose signature does not verify: most often a token minted with another secret
 * (`npm run token` without the server's JWT_SECRET in its environment).
 */
export const BAD_SIGNATURE_HINT =
  "the token must be signed with this service's JWT_SECRET (with JWT_PUBLIC_KEY or JWT_JWKS_URI set: with the identity provider's key); " +
  '`npm run token` signs with the JWT_SECRET of its own environment, the built-in development secret when unset';

/**
 * The 401s of the Bearer token, each saying what is wrong so a client can fix it: the reason only,
 * never the token, a key or the expected issuer/audience.
 */
export const TokenRefusal = {
  missing: () => new HttpRefusal(HttpStatus.UNAUTHORIZED, 'Unauthorized: no Bearer token in the Authorization header'),
  notBearer: () => new HttpRefusal(HttpStatus.UNAUTHORIZED, 'Unauthorized: the Authorization header is not "Bearer <token>"'),
  malformed: () => new HttpRefusal(HttpStatus.UNAUTHORIZED, 'Unauthorized: the Bearer token is not a well-formed JWT'),
  badSignature: () => new HttpRefusal(HttpStatus.UNAUTHORIZED, "Unauthorized: the token's signature is invalid", BAD_SIGNATURE_HINT),
  algorithm: () => new HttpRefusal(HttpStatus.UNAUTHORIZED, "Unauthorized: the token's signing algorithm is not accepted"),
  unknownKey: () => new HttpRefusal(HttpStatus.UNAUTHORIZED, "Unauthorized: the token's signing key is not known"),
  expired: () => new HttpRefusal(HttpStatus.UNAUTHORIZED, 'Unauthorized: the token has expired'),
  notYetValid: () => new HttpRefusal(HttpStatus.UNAUTHORIZED, 'Unauthorized: the token is not valid yet (nbf)'),
  issuer: () => new HttpRefusal(HttpStatus.UNAUTHORIZED, "Unauthorized: the token's issuer (iss) is not accepted"),
  audience: () => new HttpRefusal(HttpStatus.UNAUTHORIZED, "Unauthorized: the token's audience (aud) is not accepted"),
  claim: (claim: string) =>
    new HttpRefusal(HttpStatus.UNAUTHORIZED, message("Unauthorized: the token's claim {{claim}} is missing or invalid", { claim })),
  unverified: () => new HttpRefusal(HttpStatus.UNAUTHORIZED, 'Unauthorized: the token could not be verified'),
};

/** jsonwebtoken's (and jwks-rsa's) verification failure, as passport-jwt hands it over, to its refusal. */
export function refusalOf(failure: unknown): HttpRefusal {
  if (failure instanceof TokenExpiredError) return TokenRefusal.expired();
  if (failure instanceof NotBeforeError) return TokenRefusal.notYetValid();
  if ((failure as { name?: string })?.name === 'SigningKeyNotFoundError') return TokenRefusal.unknownKey();
  if (!(failure instanceof JsonWebTokenError)) return TokenRefusal.unverified();
  const text = failure.message;
  if (text === 'invalid signature' || text === 'jwt signature is required') return TokenRefusal.badSignature();
  if (text === 'invalid algorithm' || text.startsWith('please specify "none"')) return TokenRefusal.algorithm();
  if (text.startsWith('jwt audience invalid')) return TokenRefusal.audience();
  if (text.startsWith('jwt issuer invalid')) return TokenRefusal.issuer();
  if (text === 'invalid exp value') return TokenRefusal.claim('exp');
  if (text === 'invalid nbf value') return TokenRefusal.claim('nbf');
  if (text.startsWith('error in secret or public key callback')) return TokenRefusal.unknownKey();
  if (text === 'jwt malformed' || text === 'invalid token' || text.startsWith('jwt must be') || text.startsWith('Unexpected token'))
    return TokenRefusal.malformed();
  return TokenRefusal.unverified();
}
