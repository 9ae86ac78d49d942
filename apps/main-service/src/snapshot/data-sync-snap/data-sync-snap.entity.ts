import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { ErrorText } from '../../fields/text-fields';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';
import { SYNC_STATUSES, SYNC_TYPES } from '../fields/snapshot-values';

/** One data synchronisation run of a data-acquisition server. Indexes: each exact filter, then startTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_data_sync_snap')
@Index('idx_data_sync_start_time', ['tenantId', 'deleteTime', 'startTime'])
@Index('idx_data_sync_data_acquisition_server_no', ['tenantId', 'deleteTime', 'dataAcquisitionServerNo', 'startTime'])
@Index('idx_data_sync_sync_type', ['tenantId', 'deleteTime', 'syncType', 'startTime'])
@Index('idx_data_sync_status', ['tenantId', 'deleteTime', 'status', 'startTime'])
export class DataSyncSnap extends SnapRecord {
  @Field.id()
  dataSyncSnapId: string;

  @DeviceNo({ required: true, example: 'DAS-0001' })
  dataAcquisitionServerNo: string;

  @Field.oneOf(SYNC_TYPES, { required: true, example: 'INCREMENTAL', description: 'Full or incremental run' })
  syncType: string;

  @Field.time({ required: true, example: 1767225600000, description: 'Start of the run' })
  startTime: number;

  @Field.time({ example: 1767225660000, description: 'End of the run; null while running' })
  endTime: number | null;

  @Field.int({ min: 0, example: 1250, description: 'Records transferred by the run' })
  recordCount: number | null;

  @Field.oneOf(SYNC_STATUSES, { required: true, example: 'SUCCEEDED', description: 'State of the run' })
  status: string;

  @ErrorText({ example: 'Connection reset by the server', description: 'Why the run failed' })
  errorMessage: string | null;
}
