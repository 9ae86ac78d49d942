import { WindowCounter } from '@app/common';
import { HttpException, HttpStatus, Injectable, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CallerKind } from '../device-api/device-registry';
import { DeviceServiceConfig } from '../device-service.config';

/** HTTP 429 of a token call; carries when to retry (sent as Retry-After). */
export class AttemptsLocked extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** The per-address limit counts calls per minute. */
const ADDRESS_WINDOW_MS = 60_000;

const addressKey = (address: string) => `device-token:address:${address}`;
const numberKey = (kind: CallerKind, no: string) => `device-token:${kind}:${no}`;
const secondsUntil = (end: number, now: number) => Math.max(1, Math.ceil((end - now) / 1000));

/**
 * Throttles of the anonymous token calls, counted in the database (the shared window counters) so that
 * every replica counts against the same rows: DEVICE_TOKEN_RATE_LIMIT calls per client address per
 * minute, and per number DEVICE_SECRET_MAX_FAILURES failed secrets within DEVICE_SECRET_LOCKOUT_SECONDS
 * (then locked until that window, counted from the first failure, ends).
 */
@Injectable()
export class TokenThrottle implements OnModuleDestroy {
  private readonly windows: WindowCounter;

  constructor(
    dataSource: DataSource,
    private readonly config: DeviceServiceConfig,
  ) {
    this.windows = new WindowCounter(dataSource);
  }

  /**
   * Counts a token call of this address and refuses it (429) when the address is over its limit or
   * the number is locked; the caller runs no secret check before this has passed.
   */
  async admit(address: string, kind: CallerKind, no: string, now = Date.now()): Promise<void> {
    const calls = await this.windows.hit(addressKey(address), ADDRESS_WINDOW_MS, now);
    if (calls.hits > this.config.deviceTokenRateLimit)
      throw new AttemptsLocked('Too many token requests from this address', secondsUntil(calls.windowEnd, now));
    const failures = await this.windows.peek(numberKey(kind, no), now);
    if (failures && failures.hits >= this.config.deviceSecretMaxFailures)
      throw new AttemptsLocked('Too many failed attempts', secondsUntil(failures.windowEnd, now));
  }

  /** A wrong secret (or unknown number): one more failure in the number's window. */
  async fail(kind: CallerKind, no: string, now = Date.now()): Promise<void> {
    await this.windows.hit(numberKey(kind, no), this.config.deviceSecretLockoutMs, now);
  }

  /** A proven secret forgets the number's earlier failures. */
  async succeed(kind: CallerKind, no: string): Promise<void> {
    await this.windows.forget(numberKey(kind, no));
  }

  async onModuleDestroy(): Promise<void> {
    await this.windows.settle();
  }
}
