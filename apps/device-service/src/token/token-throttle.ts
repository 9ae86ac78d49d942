import { AppConfig } from '@app/common';
import { HttpException, HttpStatus, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CallerKind } from '../device-api/device-registry';

/** HTTP 429 of a token call; carries when to retry (sent as Retry-After). */
export class AttemptsLocked extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

interface Window {
  hits: number;
  windowEnd: number;
}

const TABLE = 'device_token_throttle';
/** The per-address limit counts calls per minute. */
const ADDRESS_WINDOW_MS = 60_000;
/** Expired windows are deleted at most this often per replica (any token call triggers it). */
const SWEEP_INTERVAL_MS = 60_000;
/** Concurrent first hits of one key can deadlock on MySQL/MariaDB; the statement is simply repeated. */
const DEADLOCK_RETRIES = 3;

const addressKey = (address: string) => `address:${address}`;
const numberKey = (kind: CallerKind, no: string) => `${kind}:${no}`;
const secondsUntil = (end: number, now: number) => Math.max(1, Math.ceil((end - now) / 1000));

/**
 * Throttles of the anonymous token calls, counted in the database so that every replica counts
 * against the same rows: DEVICE_TOKEN_RATE_LIMIT calls per client address per minute, and per
 * number DEVICE_SECRET_MAX_FAILURES failed secrets within DEVICE_SECRET_LOCKOUT_SECONDS (then locked
 * until that window, counted from the first failure, ends). Each count is one atomic upsert that
 * starts a new window when the stored one has ended.
 */
@Injectable()
export class TokenThrottle implements OnModuleDestroy {
  private readonly logger = new Logger(TokenThrottle.name);
  private readonly mysql: boolean;
  private lastSweep = 0;
  private sweeping?: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {
    this.mysql = dataSource.options.type === 'mysql' || dataSource.options.type === 'mariadb';
  }

  /**
   * Counts a token call of this address and refuses it (429) when the address is over its limit or
   * the number is locked; the caller runs no secret check before this has passed.
   */
  async admit(address: string, kind: CallerKind, no: string, now = Date.now()): Promise<void> {
    this.sweepNowAndThen(now);
    const { calls, failures } = await this.countCall(addressKey(address), numberKey(kind, no), now);
    if (calls.hits > this.config.deviceTokenRateLimit) throw new AttemptsLocked('Too many token requests from this address', secondsUntil(calls.windowEnd, now));
    if (failures && failures.windowEnd > now && failures.hits >= this.config.deviceSecretMaxFailures)
      throw new AttemptsLocked('Too many failed attempts', secondsUntil(failures.windowEnd, now));
  }

  /** A wrong secret (or unknown number): one more failure in the number's window. */
  async fail(kind: CallerKind, no: string, now = Date.now()): Promise<void> {
    await this.retryingDeadlocks(() => this.dataSource.query(this.upsert(), this.upsertParameters(numberKey(kind, no), now, this.config.deviceSecretLockoutMs)));
  }

  /** A proven secret forgets the number's earlier failures. */
  async succeed(kind: CallerKind, no: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM ${TABLE} WHERE throttle_key = ?`, [numberKey(kind, no)]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.sweeping;
  }

  /** The address's count after this call, and the number's failure window (if any), read consistently. */
  private async countCall(address: string, number: string, now: number): Promise<{ calls: Window; failures?: Window }> {
    const read = async (manager: EntityManager, keys: string[]) =>
      new Map(
        ((await manager.query(`SELECT throttle_key, hits, window_end FROM ${TABLE} WHERE throttle_key IN (${keys.map(() => '?').join(', ')})`, keys)) as Record<string, unknown>[]).map(
          (row) => [String(row.throttle_key), { hits: Number(row.hits), windowEnd: Number(row.window_end) }],
        ),
      );
    const parameters = this.upsertParameters(address, now, ADDRESS_WINDOW_MS);
    if (this.mysql) {
      // the upsert keeps the row locked until commit: the read sees exactly this call's count
      const rows = await this.retryingDeadlocks(() =>
        this.dataSource.transaction(async (manager) => {
          await manager.query(this.upsert(), parameters);
          return read(manager, [address, number]);
        }),
      );
      return { calls: rows.get(address)!, failures: rows.get(number) };
    }
    // SQLite: one statement returns the count it wrote (no other writer can run in between)
    const [written] = (await this.dataSource.query(`${this.upsert()} RETURNING hits, window_end`, parameters)) as Record<string, unknown>[];
    const failures = (await read(this.dataSource.manager, [number])).get(number);
    return { calls: { hits: Number(written.hits), windowEnd: Number(written.window_end) }, failures };
  }

  /** Adds one hit to a key's window, or starts a new window of `windowMs` when there is none or it ended. */
  private upsert(): string {
    const insert = `INSERT INTO ${TABLE} (throttle_key, hits, window_end) VALUES (?, 1, ?)`;
    // both CASEs read the stored window_end: MySQL assigns left to right, and hits is assigned first
    const update = 'hits = CASE WHEN window_end <= ? THEN 1 ELSE hits + 1 END, window_end = CASE WHEN window_end <= ? THEN ? ELSE window_end END';
    return this.mysql ? `${insert} ON DUPLICATE KEY UPDATE ${update}` : `${insert} ON CONFLICT (throttle_key) DO UPDATE SET ${update}`;
  }

  private upsertParameters(key: string, now: number, windowMs: number): unknown[] {
    return [key, now + windowMs, now, now, now + windowMs];
  }

  private async retryingDeadlocks<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        const code = (error as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (error as { code?: string }).code;
        if (code !== 'ER_LOCK_DEADLOCK' || attempt >= DEADLOCK_RETRIES) throw error;
      }
    }
  }

  /** Deletes ended windows in the background, at most once a minute per replica. */
  private sweepNowAndThen(now: number): void {
    if (this.sweeping || now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    this.sweeping = this.dataSource
      .query(`DELETE FROM ${TABLE} WHERE window_end <= ?`, [now])
      .then(
        () => undefined,
        (error: Error) => this.logger.warn(`sweeping ended token-call windows failed: ${error.name}`),
      )
      .finally(() => (this.sweeping = undefined));
  }
}
