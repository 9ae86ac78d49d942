import { createHmac, KeyObject, timingSafeEqual } from 'node:crypto';
import { AppException, URL_SAFE_KEY_MESSAGE, URL_SAFE_KEY_PATTERN, hmacKey, message, TenantScope } from '@app/common';
import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { sign, verify } from 'jsonwebtoken';
import { CallerKind, DeviceRegistry, numberParam, RegistryRecord } from '../device-api/device-registry';
import { SECRET_MAX_LENGTH } from '../registry/provisioning-secret';
import { unknownNumberHash, verifySecret } from '../registry/secret-hash';
import { TokenThrottle } from './token-throttle';
import { DeviceServiceConfig } from '../device-service.config';

/** What a device token claims: this number, of this kind, in this tenant, for this registry record and secret. */
export interface TokenClaims {
  kind: CallerKind;
  no: string;
  tenantId: string;
  recordId: string;
  secretFingerprint: string;
}

/** A caller whose token matched the live record: the record is the one the call works on. */
export interface DeviceCaller {
  kind: CallerKind;
  no: string;
  tenantId: string;
  recordId: string;
  record: RegistryRecord;
  /** The caller's tenant, proven by its token (a device call has no Bearer principal): what its calls may touch. */
  scope: TenantScope;
}

export class TokenKey {
  @ApiProperty({
    example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...',
    description: 'Pass as query parameter `token` to the other device calls',
  })
  token: string;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    example: 1763886400000,
    description: 'Epoch milliseconds after which the token is refused',
  })
  expiresAt: number;
}

/** Audience of device tokens: a Bearer token (other secret, no audience) can never pass as one, nor the reverse. */
const AUDIENCE = 'device-service';
const KINDS: readonly CallerKind[] = ['device', 'server'];

/**
 * Device/server tokens: HS256 JWTs signed with DEVICE_TOKEN_SECRET, bound to number (`sub`), kind,
 * tenant, registry record (`rid`) and that record's secret (`sfp`, a keyed fingerprint of the stored
 * hash), expiring after DEVICE_TOKEN_TTL_SECONDS. Every call checks them against the live record, so
 * rotating the secret or deleting the record revokes its tokens at once, on every replica.
 */
@Injectable()
export class DeviceTokenService {
  private readonly key: KeyObject;
  /** Separate from the signing key: a fingerprint is never a valid signature of anything. */
  private readonly fingerprintKey: Buffer;
  /** What an unknown number's secret is checked against: a placeholder of the configured hash cost. */
  private readonly unknownNumberHash: string;

  constructor(
    private readonly config: DeviceServiceConfig,
    private readonly registry: DeviceRegistry,
    private readonly throttle: TokenThrottle,
  ) {
    this.key = hmacKey(config.deviceTokenSecret);
    this.fingerprintKey = createHmac('sha256', config.deviceTokenSecret).update('device-secret-fingerprint').digest();
    this.unknownNumberHash = unknownNumberHash(config.deviceSecretHashCost);
  }

  /**
   * getGenerationTokenKeyBy...No: number + secret → token; throttled per client (`client`: its
   * per-address key, clientKeyOf) and per number and client.
   */
  async issue(kind: CallerKind, no: string, secret: string, client: string): Promise<TokenKey> {
    // bounded before anything is counted or hashed: no oversized keys, no scrypt over megabytes
    if (!URL_SAFE_KEY_PATTERN.test(no))
      throw AppException.validation(message(URL_SAFE_KEY_MESSAGE.replace('$property', '{{property}}'), { property: numberParam(kind) }));
    if (secret.length > SECRET_MAX_LENGTH)
      throw AppException.validation(message('secret must be at most {{max}} characters', { max: SECRET_MAX_LENGTH }));
    await this.throttle.admit(client, kind, no);
    const credentials = await this.registry.credentials(kind, no);
    // unknown numbers cost the same hash run and fail the same way: no way to probe which numbers exist
    const matches = await verifySecret(secret, credentials?.secretHash ?? this.unknownNumberHash);
    if (!credentials || !matches) {
      await this.throttle.fail(client, kind, no);
      throw new UnauthorizedException();
    }
    await this.throttle.succeed(client, kind, no);
    const { record, recordId, secretHash } = credentials;
    return this.sign({ kind, no, tenantId: record.tenantId, recordId, secretFingerprint: this.fingerprint(secretHash) });
  }

  /**
   * The caller a verified token proves for this route's kind and number: 403 when it is of another
   * kind or number; 401 when it no longer matches the live record of its number (deleted,
   * re-registered, secret rotated). One lookup on the number's unique index, whose record the call then uses.
   */
  async authenticate(claims: TokenClaims, kind: CallerKind, no: string): Promise<DeviceCaller> {
    if (claims.kind !== kind || claims.no !== no) throw new ForbiddenException();
    const current = await this.registry.credentials(kind, no);
    const same =
      !!current &&
      current.recordId === claims.recordId &&
      current.record.tenantId === claims.tenantId &&
      this.sameFingerprint(claims.secretFingerprint, this.fingerprint(current.secretHash));
    if (!same) throw new UnauthorizedException();
    const scope = TenantScope.system(`the ${kind} ${no}, proven by its device token`, claims.tenantId, `${kind}:${no}`);
    return { kind, no, tenantId: claims.tenantId, recordId: claims.recordId, record: current.record, scope };
  }

  private sign(claims: TokenClaims): TokenKey {
    const exp = Math.floor(Date.now() / 1000) + this.config.deviceTokenTtlSeconds;
    const token = sign(
      { kind: claims.kind, tenantId: claims.tenantId, rid: claims.recordId, sfp: claims.secretFingerprint, exp },
      this.key,
      {
        algorithm: 'HS256',
        subject: claims.no,
        audience: AUDIENCE,
      },
    );
    return { token, expiresAt: exp * 1000 };
  }

  /** The claims of a correctly signed, unexpired device token, or undefined. */
  verify(token: string): TokenClaims | undefined {
    try {
      const claims = verify(token, this.key, { algorithms: ['HS256'], audience: AUDIENCE });
      if (typeof claims !== 'object' || !KINDS.includes(claims.kind)) return undefined;
      const { sub, tenantId, rid, sfp } = claims;
      if (![sub, tenantId, rid, sfp].every((v) => typeof v === 'string' && v)) return undefined;
      return { kind: claims.kind as CallerKind, no: sub!, tenantId, recordId: rid, secretFingerprint: sfp };
    } catch {
      return undefined;
    }
  }

  /**
   * A keyed digest of the stored secret hash: changes with every new secret (fresh salt), reveals
   * nothing about it (the token payload is readable, and the scrypt hash itself would allow guessing offline).
   */
  private fingerprint(secretHash: string): string {
    return createHmac('sha256', this.fingerprintKey).update(secretHash).digest('base64url');
  }

  private sameFingerprint(a: string, b: string): boolean {
    const [x, y] = [Buffer.from(a), Buffer.from(b)];
    return x.length === y.length && timingSafeEqual(x, y);
  }
}
