import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { ErrorText } from '../../fields/text-fields';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';
import { SYNC_STATUSES, SYNC_TYPES } from '../fields/snapshot-values';

/** One data synchronisation run of a data-acquisition server. */
@Entity('snapshot_data_sync_snap')
export class DataSyncSnap extends SnapRecord {
  @Field.id()
  dataSyncSnapId: string;

  @DeviceNo({ required: true, example: 'DAS-0001' })
  dataAcquisitionServerNo: string;

  @Field.oneOf(SYNC_TYPES, { required: true, example: 'INCREMENTAL', description: 'Full or incremental run' })
  syncType: string;

  @Field.time({ required: true, past: true, example: 1767225600000, description: 'Start of the run' })
  startTime: number;

  @Field.time({ past: true, example: 1767225660000, description: 'End of the run; null while running' })
  endTime: number | null;

  @Field.int({ min: 0, example: 1250, description: 'Records transferred by the run' })
  recordCount: number | null;

  @Field.oneOf(SYNC_STATUSES, { required: true, example: 'SUCCEEDED', description: 'State of the run' })
  status: string;

  @ErrorText({ example: 'Connection reset by the server', description: 'Why the run failed' })
  errorMessage: string | null;
}
