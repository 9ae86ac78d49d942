import { createPublicKey } from 'node:crypto';
import { Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { passportJwtSecret } from 'jwks-rsa';
import { ExtractJwt, Strategy, StrategyOptionsWithoutRequest } from 'passport-jwt';
import { AppConfig } from '../config/app-config';
import { Principal } from '../tenancy/request-context';
import { hmacKey } from './hmac-key';

/** Keys are key objects made once (see hmacKey); passport-jwt hands them to jsonwebtoken as they are. */
function keyOptions(config: AppConfig): Partial<StrategyOptionsWithoutRequest> {
  if (config.jwtJwksUri) {
    return { secretOrKeyProvider: passportJwtSecret({ jwksUri: config.jwtJwksUri, cache: true, rateLimit: true }), algorithms: ['RS256'] } as Partial<StrategyOptionsWithoutRequest>;
  }
  const key = config.jwtPublicKey ? createPublicKey(config.jwtPublicKey) : hmacKey(config.jwtSecret);
  return { secretOrKey: key as unknown as string, algorithms: [config.jwtPublicKey ? 'RS256' : 'HS256'] };
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Verifies the Bearer token (DESIGN §2 claims) and turns it into the request's principal. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(config: AppConfig) {
    super({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), ignoreExpiration: false, ...keyOptions(config) } as StrategyOptionsWithoutRequest);
  }

  validate(payload: Record<string, unknown>): Principal {
    const { sub, tenantId } = payload;
    if (typeof tenantId !== 'string' || !tenantId || typeof sub !== 'string' || !sub) throw new UnauthorizedException();
    return { tenantId, username: sub, roles: strings(payload.roles), permissions: strings(payload.permissions) };
  }
}
