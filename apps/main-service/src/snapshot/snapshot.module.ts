import { CrudModule, retainByAge } from '@app/common';
import { Module } from '@nestjs/common';
import { SnapshotRetentionConfig } from './snapshot-retention.config';
import { SNAPSHOT_RESOURCES } from './snapshot.resources';

/**
 * /main-service/main-api/snapshot/...: 8 resources with the standard 8 operations each. Snapshots are removed
 * SNAPSHOT_RETENTION_DAYS after their main time field (unset: kept).
 */
@Module({
  imports: [CrudModule.register(SNAPSHOT_RESOURCES)],
  providers: [
    retainByAge({
      resources: SNAPSHOT_RESOURCES.map((registration) => registration.resource),
      config: SnapshotRetentionConfig,
      days: (config) => config.snapshotRetentionDays,
    }),
  ],
})
export class SnapshotModule {}
