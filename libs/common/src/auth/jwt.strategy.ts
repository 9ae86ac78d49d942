import { createPublicKey } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { passportJwtSecret } from 'jwks-rsa';
import { Strategy, StrategyOptionsWithoutRequest } from 'passport-jwt';
import { bearerToken } from './bearer-token';
import { AuthConfig } from '../config/auth.config';
import { Principal } from '../tenancy/request-context';
import { invalidClaim, principalFromClaims } from './claims';
import { hmacKey } from './hmac-key';
import { TokenRefusal } from './token-refusal';

/** Keys are key objects made once (see hmacKey); passport-jwt hands them to jsonwebtoken as they are. */
function keyOptions(config: AuthConfig): Partial<StrategyOptionsWithoutRequest> {
  if (config.jwtJwksUri) {
    return {
      secretOrKeyProvider: passportJwtSecret({ jwksUri: config.jwtJwksUri, cache: true, rateLimit: true }),
      algorithms: ['RS256'],
    } as Partial<StrategyOptionsWithoutRequest>;
  }
  const key = config.jwtPublicKey ? createPublicKey(config.jwtPublicKey) : hmacKey(config.jwtSecret);
  return { secretOrKey: key as unknown as string, algorithms: [config.jwtPublicKey ? 'RS256' : 'HS256'] };
}

/**
 * Verifies the Bearer token (signature, expiry, and `iss`/`aud` when JWT_ISSUER/JWT_AUDIENCE are set)
 * and turns its claims into the request's principal; any refusal is a 401 saying why (TokenRefusal).
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(config: AuthConfig) {
    super({
      jwtFromRequest: bearerToken,
      ignoreExpiration: false,
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
      ...keyOptions(config),
    } as StrategyOptionsWithoutRequest);
  }

  validate(payload: Record<string, unknown>): Principal {
    const principal = principalFromClaims(payload);
    if (!principal) throw TokenRefusal.claim(invalidClaim(payload) ?? 'sub');
    return principal;
  }
}
