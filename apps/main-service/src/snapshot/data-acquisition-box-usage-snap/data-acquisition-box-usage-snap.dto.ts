import { ClientId } from '@app/common';
import { DeviceNo, EpochMillis, Remark, SnapTimeFields, Username } from '../shared/snapshot-fields';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class DataAcquisitionBoxUsageSnapSave extends SnapTimeFields {
  @ClientId()
  dataAcquisitionBoxUsageSnapId?: string;

  @DeviceNo({ required: true, example: 'BOX-0001' })
  boxNo: string;

  @DeviceNo({ example: 'DAS-0001' })
  dataAcquisitionServerNo?: string | null;

  @Username({ description: 'Who used the box' })
  username?: string | null;

  @EpochMillis({ required: true, example: 1767225600000, description: 'Start of the usage' })
  startTime: number;

  @EpochMillis({ example: 1767229200000, description: 'End of the usage; null while the box is in use' })
  endTime?: number | null;

  @Remark()
  remark?: string | null;
}
