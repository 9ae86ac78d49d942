import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ChoiceColumn, DeviceNoColumn, IntColumn, MessageColumn, SnapRecord, TimeColumn } from '../shared/snapshot-columns';
import { SYNC_STATUSES, SYNC_TYPES } from '../shared/snapshot-values';

/** One data synchronisation run of a data-acquisition server. Indexes: each exact filter, then startTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_data_sync_snap')
@Index('idx_data_sync_start_time', ['tenantId', 'deleteTime', 'startTime'])
@Index('idx_data_sync_data_acquisition_server_no', ['tenantId', 'deleteTime', 'dataAcquisitionServerNo', 'startTime'])
@Index('idx_data_sync_sync_type', ['tenantId', 'deleteTime', 'syncType', 'startTime'])
@Index('idx_data_sync_status', ['tenantId', 'deleteTime', 'status', 'startTime'])
export class DataSyncSnap extends SnapRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  dataSyncSnapId: string;

  @DeviceNoColumn({ example: 'DAS-0001' })
  dataAcquisitionServerNo: string;

  @ChoiceColumn(SYNC_TYPES, { example: 'INCREMENTAL', description: 'Full or incremental run' })
  syncType: string;

  @TimeColumn({ example: 1767225600000, description: 'Start of the run' })
  startTime: number;

  @TimeColumn({ nullable: true, example: 1767225660000, description: 'End of the run; null while running' })
  endTime: number | null;

  @IntColumn({ nullable: true, example: 1250, description: 'Records transferred by the run' })
  recordCount: number | null;

  @ChoiceColumn(SYNC_STATUSES, { example: 'SUCCEEDED', description: 'State of the run' })
  status: string;

  @MessageColumn({ nullable: true, example: 'Connection reset by the server' })
  errorMessage: string | null;
}
