import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';
import { DEVICE_TYPES } from '../fields/snapshot-values';

/** Where a device was (WGS 84) at the snapshot time. */
@Entity('snapshot_device_position_snap')
export class DevicePositionSnap extends SnapRecord {
  @Field.id()
  devicePositionSnapId: string;

  @DeviceNo({ required: true, example: 'DAD-0001' })
  deviceNo: string;

  @Field.oneOf(DEVICE_TYPES, { required: true, example: 'DATA_ACQUISITION_DEVICE', description: 'Kind of device' })
  deviceType: string;

  @Field.num({ required: true, min: -180, max: 180, example: 116.397128, description: 'WGS 84 longitude in degrees' })
  longitude: number;

  @Field.num({ required: true, min: -90, max: 90, example: 39.916527, description: 'WGS 84 latitude in degrees' })
  latitude: number;

  @Field.num({ min: -1000, max: 100000, example: 43.5, description: 'Metres above sea level' })
  altitude: number | null;

  @Field.num({ min: 0, max: 1000000, example: 5, description: 'Horizontal accuracy radius in metres' })
  accuracy: number | null;
}
