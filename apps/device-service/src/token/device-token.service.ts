import { KeyObject } from 'node:crypto';
import { AppConfig, AppException, hmacKey } from '@app/common';
import { HttpException, HttpStatus, Injectable, UnauthorizedException } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { sign, verify } from 'jsonwebtoken';
import { CallerKind, DeviceRegistry, numberParam } from '../device-api/device-registry';
import { DEVICE_NUMBER_PATTERN, SECRET_MAX_LENGTH } from '../registry/numbers';
import { UNKNOWN_NUMBER_HASH, verifySecret } from '../registry/secret-hash';
import { FailedAttempts } from './failed-attempts';

/** What a verified device token proves: this number, of this kind, in this tenant. */
export interface DeviceCaller {
  kind: CallerKind;
  no: string;
  tenantId: string;
}

export class TokenKey {
  @ApiProperty({ example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...', description: 'Pass as query parameter `token` to the other device calls' })
  token: string;

  @ApiProperty({ example: 1763886400000, description: 'Epoch milliseconds after which the token is refused' })
  expiresAt: number;
}

/** HTTP 429 while a number is locked; carries when to retry (sent as Retry-After). */
export class AttemptsLocked extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many failed attempts', HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** Audience of device tokens: a Bearer token (other secret, no audience) can never pass as one, nor the reverse. */
const AUDIENCE = 'device-service';
const KINDS: readonly CallerKind[] = ['device', 'server'];

/**
 * Device/server tokens: HS256 JWTs signed with DEVICE_TOKEN_SECRET, bound to number (`sub`),
 * kind and tenant, expiring after DEVICE_TOKEN_TTL_SECONDS.
 */
@Injectable()
export class DeviceTokenService {
  private readonly key: KeyObject;

  constructor(
    private readonly config: AppConfig,
    private readonly registry: DeviceRegistry,
    private readonly attempts: FailedAttempts,
  ) {
    this.key = hmacKey(config.deviceTokenSecret);
  }

  /** getGenerationTokenKeyBy...No: number + secret → token; failed attempts are throttled per number. */
  async issue(kind: CallerKind, no: string, secret: string): Promise<TokenKey> {
    // bounded before anything is tracked or hashed: no oversized keys in memory, no scrypt over megabytes
    if (!DEVICE_NUMBER_PATTERN.test(no)) throw AppException.validation(`${numberParam(kind)} must be 1 to 64 characters of [A-Za-z0-9._:-]`);
    if (secret.length > SECRET_MAX_LENGTH) throw AppException.validation(`secret must be at most ${SECRET_MAX_LENGTH} characters`);
    const key = `${kind}:${no}`;
    const lockedUntil = this.attempts.lockedUntil(key);
    if (lockedUntil !== undefined) throw new AttemptsLocked(Math.max(1, Math.ceil((lockedUntil - Date.now()) / 1000)));
    const credentials = await this.registry.credentials(kind, no);
    // unknown numbers cost the same hash run and fail the same way: no way to probe which numbers exist
    const matches = await verifySecret(secret, credentials?.secretHash ?? UNKNOWN_NUMBER_HASH);
    if (!credentials || !matches) {
      this.attempts.fail(key);
      throw new UnauthorizedException();
    }
    this.attempts.succeed(key);
    return this.sign({ kind, no, tenantId: credentials.tenantId });
  }

  sign(caller: DeviceCaller): TokenKey {
    const exp = Math.floor(Date.now() / 1000) + this.config.deviceTokenTtlSeconds;
    const token = sign({ kind: caller.kind, tenantId: caller.tenantId, exp }, this.key, {
      algorithm: 'HS256',
      subject: caller.no,
      audience: AUDIENCE,
    });
    return { token, expiresAt: exp * 1000 };
  }

  /** The caller a token proves, or undefined when it is malformed, forged, expired or not a device token. */
  verify(token: string): DeviceCaller | undefined {
    try {
      const claims = verify(token, this.key, { algorithms: ['HS256'], audience: AUDIENCE });
      if (typeof claims !== 'object' || typeof claims.sub !== 'string' || typeof claims.tenantId !== 'string') return undefined;
      if (!KINDS.includes(claims.kind)) return undefined;
      return { kind: claims.kind as CallerKind, no: claims.sub, tenantId: claims.tenantId };
    } catch {
      return undefined;
    }
  }
}
