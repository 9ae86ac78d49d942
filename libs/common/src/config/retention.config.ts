import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Env } from './environment';

/** A day in milliseconds: retention periods are whole days. */
export const DAY_MS = 86_400_000;
/** A century: the longest retention period a variable accepts (beyond it, leave the variable unset). */
export const MAX_RETENTION_DAYS = 36_500;

/**
 * How long removed rows are kept, and how the background removal paces itself (docs/operations.md
 * "Retention"). Unset periods keep everything.
 */
export class RetentionConfig {
  static readonly namespace = 'retention';

  /** Days a logically deleted record of any resource is kept after its deletion; unset: forever. */
  @Env('PURGE_DELETED_AFTER_DAYS')
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_RETENTION_DAYS)
  purgeDeletedAfterDays?: number;
  /** Days a history entry is kept after its change; unset: forever. */
  @Env('HISTORY_RETENTION_DAYS')
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_RETENTION_DAYS)
  historyRetentionDays?: number;
  /** How often one replica looks for rows that are due. */
  @Env('RETENTION_INTERVAL_SECONDS') @Type(() => Number) @IsInt() @Min(10) @Max(86_400) intervalSeconds = 300;
  /** Rows one DELETE removes (by primary key). */
  @Env('RETENTION_BATCH_ROWS') @Type(() => Number) @IsInt() @Min(1) @Max(10_000) batchRows = 1000;
  /** Pause between two DELETEs, so replicas and other writers keep up. */
  @Env('RETENTION_BATCH_PAUSE_MS') @Type(() => Number) @IsInt() @Min(0) @Max(60_000) batchPauseMs = 100;
  /** Longest time one pass removes rows; what is still due waits for the next pass. */
  @Env('RETENTION_PASS_SECONDS') @Type(() => Number) @IsInt() @Min(1) @Max(3600) passSeconds = 60;

  get intervalMs(): number {
    return this.intervalSeconds * 1000;
  }

  get passMs(): number {
    return this.passSeconds * 1000;
  }
}
