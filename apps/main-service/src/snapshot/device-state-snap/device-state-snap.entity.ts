import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { ErrorText } from '../../fields/text-fields';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';
import { DEVICE_STATES, DEVICE_TYPES } from '../fields/snapshot-values';

/** The state a device reported at the snapshot time. */
@Entity('snapshot_device_state_snap')
export class DeviceStateSnap extends SnapRecord {
  @Field.id()
  deviceStateSnapId: string;

  @DeviceNo({ required: true, example: 'DAD-0001' })
  deviceNo: string;

  @Field.oneOf(DEVICE_TYPES, { required: true, example: 'DATA_ACQUISITION_DEVICE', description: 'Kind of device' })
  deviceType: string;

  @Field.oneOf(DEVICE_STATES, { required: true, example: 'ONLINE', description: 'Reported state' })
  state: string;

  @Field.int({ min: 0, max: 100, example: 87, description: 'Battery charge in percent' })
  batteryLevel: number | null;

  @Field.int({ min: 0, max: 100, example: 72, description: 'Signal quality in percent (0 no signal, 100 best)' })
  signalStrength: number | null;

  @ErrorText({ example: 'firmware 2.4.1; storage 61% used', description: 'Free-form state details reported by the device' })
  detail: string | null;
}
