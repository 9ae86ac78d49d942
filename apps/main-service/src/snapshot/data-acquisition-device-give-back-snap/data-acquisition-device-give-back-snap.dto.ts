import { ClientId, OneOf } from '@app/common';
import { DeviceNo, EpochMillis, Remark, SnapTimeFields, Username } from '../shared/snapshot-fields';
import { GIVE_BACK_CONDITIONS } from '../shared/snapshot-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class DataAcquisitionDeviceGiveBackSnapSave extends SnapTimeFields {
  @ClientId()
  dataAcquisitionDeviceGiveBackSnapId?: string;

  @DeviceNo({ required: true, example: 'DAD-0001' })
  dataAcquisitionDeviceNo: string;

  @Username({ required: true, description: 'Who gave the device back' })
  username: string;

  @EpochMillis({ required: true, example: 1767312000000, description: 'When the device was given back' })
  giveBackTime: number;

  @OneOf(GIVE_BACK_CONDITIONS, { required: true, example: 'GOOD', description: 'Condition of the device when given back' })
  condition: string;

  @Remark()
  remark?: string | null;
}
