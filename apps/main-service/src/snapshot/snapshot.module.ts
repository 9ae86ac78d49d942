import { CrudModule } from '@app/common';
import { Module } from '@nestjs/common';
import { SNAPSHOT_RESOURCES } from './snapshot.resources';

/** /main-service/main-api/snapshot/...: 8 resources with the standard 8 operations each. */
@Module({ imports: [CrudModule.register(SNAPSHOT_RESOURCES)] })
export class SnapshotModule {}
