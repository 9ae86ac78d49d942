import { ClientId, Int, OneOf } from '@app/common';
import { DeviceNo, ErrorText, SnapTimeFields } from '../shared/snapshot-fields';
import { DEVICE_STATES, DEVICE_TYPES } from '../shared/snapshot-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class DeviceStateSnapSave extends SnapTimeFields {
  @ClientId()
  deviceStateSnapId?: string;

  @DeviceNo({ required: true, example: 'DAD-0001' })
  deviceNo: string;

  @OneOf(DEVICE_TYPES, { required: true, example: 'DATA_ACQUISITION_DEVICE', description: 'Kind of device' })
  deviceType: string;

  @OneOf(DEVICE_STATES, { required: true, example: 'ONLINE', description: 'Reported state' })
  state: string;

  @Int({ min: 0, max: 100, example: 87, description: 'Battery charge in percent' })
  batteryLevel?: number | null;

  @Int({ min: 0, max: 100, example: 72, description: 'Signal quality in percent (0 no signal, 100 best)' })
  signalStrength?: number | null;

  @ErrorText({ example: 'firmware 2.4.1; storage 61% used', description: 'Free-form state details reported by the device' })
  detail?: string | null;
}
