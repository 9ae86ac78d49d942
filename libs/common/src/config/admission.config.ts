import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import type { RequestConnectionLimits } from '../persistence/request-connections';
import { Env } from './environment';

/** SQLite's requests in flight when ADMISSION_MAX_IN_FLIGHT is unset: its one connection serves statements in turn. */
export const SQLITE_IN_FLIGHT = 8;

/**
 * How a replica admits requests under load (overload/admission.ts, docs/decisions.md "Overload"): a bounded number in
 * flight, a waiting room bounded in count and time, a per-second budget for callers it does not know yet, and pool
 * connections that requests can never take from background work and probes.
 */
export class AdmissionConfig {
  static readonly namespace = 'admission';

  /**
   * Requests served at once by one replica; 0: derived from the pool, DB_POOL_SIZE less DB_POOL_RESERVED (so every
   * admitted request finds a connection and the reserve stays free), or 8 on SQLite.
   */
  @Env('ADMISSION_MAX_IN_FLIGHT') @Type(() => Number) @IsInt() @Min(0) @Max(10_000) maxInFlight = 0;
  /** Longest time a request waits for admission, or an admitted one for a pool connection; then 503 + Retry-After. */
  @Env('ADMISSION_WAIT_MS') @Type(() => Number) @IsInt() @Min(0) @Max(60_000) waitMs = 500;
  /** Requests that may wait at once (beyond: refused at once); above the connections a gateway lets through to a replica. */
  @Env('ADMISSION_WAITING_MAX') @Type(() => Number) @IsInt() @Min(0) @Max(100_000) waitingMax = 4096;
  /**
   * Requests admitted per second whose credential the replica has not verified yet (or that carry none): their
   * verification's CPU is bounded by it, so forged tokens cannot take what verified callers need.
   */
  @Env('ADMISSION_UNVERIFIED_PER_SECOND') @Type(() => Number) @IsInt() @Min(1) @Max(1_000_000) unverifiedPerSecond = 200;
  /** Pool connections requests never hold: background work (outbox relay, delivery, retention) and readiness keep them. */
  @Env('DB_POOL_RESERVED') @Type(() => Number) @IsInt() @Min(0) @Max(99) dbPoolReserved = 2;

  /** Seconds a refused client is told to wait (Retry-After): the wait it was refused after, rounded up, at least 1. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.waitMs / 1000));
  }

  /** How requests share the pool with background work (persistence/request-connections.ts). */
  get requestConnections(): RequestConnectionLimits {
    return { reserved: this.dbPoolReserved, waitMs: this.waitMs, retryAfterSeconds: this.retryAfterSeconds };
  }

  /** The in-flight limit for a pool of `poolSize` connections (undefined: SQLite). */
  inFlightLimit(poolSize: number | undefined): number {
    if (this.maxInFlight > 0) return this.maxInFlight;
    return poolSize === undefined ? SQLITE_IN_FLIGHT : Math.max(1, poolSize - this.dbPoolReserved);
  }
}
