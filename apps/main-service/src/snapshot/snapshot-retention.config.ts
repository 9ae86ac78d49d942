import { Env, MAX_RETENTION_DAYS } from '@app/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** How long main-service keeps the snapshots the device fleet pushes (docs/operations.md "Retention"). */
export class SnapshotRetentionConfig {
  static readonly namespace = 'snapshot-retention';

  /** Days a snapshot is kept after its main time field (snapTime, startTime...), live or deleted; unset: forever. */
  @Env('SNAPSHOT_RETENTION_DAYS')
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_RETENTION_DAYS)
  snapshotRetentionDays?: number;
}
