import { ClientId } from '@app/common';
import { DeviceNo, EpochMillis, Remark, SnapTimeFields, Username } from '../shared/snapshot-fields';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class DataAcquisitionDeviceClaimSnapSave extends SnapTimeFields {
  @ClientId()
  dataAcquisitionDeviceClaimSnapId?: string;

  @DeviceNo({ required: true, example: 'DAD-0001' })
  dataAcquisitionDeviceNo: string;

  @Username({ required: true, description: 'Who claimed the device' })
  username: string;

  @EpochMillis({ required: true, example: 1767225600000, description: 'When the device was claimed' })
  claimTime: number;

  @EpochMillis({ example: 1767312000000, description: 'When the device is due back; null when open-ended' })
  expectedReturnTime?: number | null;

  @Remark()
  remark?: string | null;
}
