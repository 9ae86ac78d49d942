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

const addressKey = (client: string) => `device-token:address:${client}`;
// `@` is in neither a number (URL-safe key) nor a client key, so no two pairs share a key
const failuresKey = (client: string, kind: CallerKind, no: string) => `device-token:failures:${kind}:${no}@${client}`;
const secondsUntil = (end: number, now: number) => Math.max(1, Math.ceil((end - now) / 1000));

/**
 * Throttles of the anonymous token calls, counted in the database (the shared window counters) so that
 * every replica counts against the same rows. `client` is the caller's per-address key (clientKeyOf:
 * an IPv4 address or an IPv6 /64). DEVICE_TOKEN_RATE_LIMIT calls per client per minute; and per number
 * and client DEVICE_SECRET_MAX_FAILURES failed secrets within DEVICE_SECRET_LOCKOUT_SECONDS (then that
 * client is locked out of that number until the window, counted from the first failure, ends). Numbers
 * are not secret, so failures are never counted per number alone: a stranger's wrong secrets would lock
 * the owner out. A stranger rotating addresses is bounded by the per-address rate and lockout instead,
 * and the provisioning secrets are long enough that guessing stays hopeless.
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
   * Counts a token call of this client and refuses it (429) when the client is over its limit or locked
   * out of the number; the caller runs no secret check before this has passed.
   */
  async admit(client: string, kind: CallerKind, no: string, now = Date.now()): Promise<void> {
    const calls = await this.windows.hit(addressKey(client), ADDRESS_WINDOW_MS, now);
    if (calls.hits > this.config.deviceTokenRateLimit)
      throw new AttemptsLocked('Too many token requests from this address', secondsUntil(calls.windowEnd, now));
    const failures = await this.windows.peek(failuresKey(client, kind, no), now);
    if (failures && failures.hits >= this.config.deviceSecretMaxFailures)
      throw new AttemptsLocked('Too many failed attempts', secondsUntil(failures.windowEnd, now));
  }

  /** A wrong secret (or unknown number): one more failure of this client in the number's window. */
  async fail(client: string, kind: CallerKind, no: string, now = Date.now()): Promise<void> {
    await this.windows.hit(failuresKey(client, kind, no), this.config.deviceSecretLockoutMs, now);
  }

  /** A proven secret forgets this client's earlier failures for the number (other clients' stay counted). */
  async succeed(client: string, kind: CallerKind, no: string): Promise<void> {
    await this.windows.forget(failuresKey(client, kind, no));
  }

  async onModuleDestroy(): Promise<void> {
    await this.windows.settle();
  }
}
