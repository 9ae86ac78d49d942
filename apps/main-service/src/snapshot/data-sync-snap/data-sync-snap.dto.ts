import { ClientId, Int, OneOf } from '@app/common';
import { DeviceNo, EpochMillis, ErrorText, SnapTimeFields } from '../shared/snapshot-fields';
import { SYNC_STATUSES, SYNC_TYPES } from '../shared/snapshot-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class DataSyncSnapSave extends SnapTimeFields {
  @ClientId()
  dataSyncSnapId?: string;

  @DeviceNo({ required: true, example: 'DAS-0001' })
  dataAcquisitionServerNo: string;

  @OneOf(SYNC_TYPES, { required: true, example: 'INCREMENTAL', description: 'Full or incremental run' })
  syncType: string;

  @EpochMillis({ required: true, example: 1767225600000, description: 'Start of the run' })
  startTime: number;

  @EpochMillis({ example: 1767225660000, description: 'End of the run; null while running' })
  endTime?: number | null;

  @Int({ min: 0, example: 1250, description: 'Records transferred by the run' })
  recordCount?: number | null;

  @OneOf(SYNC_STATUSES, { required: true, example: 'SUCCEEDED', description: 'State of the run' })
  status: string;

  @ErrorText({ example: 'Connection reset by the server', description: 'Why the run failed' })
  errorMessage?: string | null;
}
