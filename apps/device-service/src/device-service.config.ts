import { Env, StartupWarnings } from '@app/common';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, Min, MinLength } from 'class-validator';

/** The secret hash cost's bounds: below, a stolen hash is cheap to guess; above, one hash needs 128 MiB. */
export const MIN_SECRET_HASH_COST = 10;
export const MAX_SECRET_HASH_COST = 17;

const DEV_DEVICE_TOKEN_SECRET = 'dev-only-device-token-secret-change-me';

/** device-service's own variables: device tokens and the throttling of the token calls. */
export class DeviceServiceConfig implements StartupWarnings {
  static readonly namespace = 'device-service';

  /** Signs device and server tokens. */
  @Env('DEVICE_TOKEN_SECRET') @IsString() @MinLength(16) deviceTokenSecret = DEV_DEVICE_TOKEN_SECRET;
  @Env('DEVICE_TOKEN_TTL_SECONDS') @Type(() => Number) @IsInt() @Min(1) deviceTokenTtlSeconds = 86400;
  /** Failed secret attempts per number before the token call locks that number. */
  @Env('DEVICE_SECRET_MAX_FAILURES') @Type(() => Number) @IsInt() @Min(1) deviceSecretMaxFailures = 5;
  @Env('DEVICE_SECRET_LOCKOUT_SECONDS') @Type(() => Number) @IsInt() @Min(1) deviceSecretLockoutSeconds = 900;
  /** log2 of the scrypt cost of new provisioning-secret hashes (each stored hash keeps the cost it was made with). */
  @Env('DEVICE_SECRET_HASH_COST')
  @Type(() => Number)
  @IsInt()
  @Min(MIN_SECRET_HASH_COST)
  @Max(MAX_SECRET_HASH_COST)
  deviceSecretHashCost = 14;
  /** Token calls (getGenerationTokenKeyBy...No) per client address per minute, counted across replicas. */
  @Env('DEVICE_TOKEN_RATE_LIMIT') @Type(() => Number) @IsInt() @Min(1) deviceTokenRateLimit = 30;

  get deviceSecretLockoutMs(): number {
    return this.deviceSecretLockoutSeconds * 1000;
  }

  get usesDevDeviceTokenSecret(): boolean {
    return this.deviceTokenSecret === DEV_DEVICE_TOKEN_SECRET;
  }

  startupWarnings(): string[] {
    return this.usesDevDeviceTokenSecret
      ? ['DEVICE_TOKEN_SECRET is not set: using the development secret. Never run production like this.']
      : [];
  }
}
