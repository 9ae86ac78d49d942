import { ClientId, Num, OneOf } from '@app/common';
import { DeviceNo, SnapTimeFields } from '../shared/snapshot-fields';
import { DEVICE_TYPES } from '../shared/snapshot-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class DevicePositionSnapSave extends SnapTimeFields {
  @ClientId()
  devicePositionSnapId?: string;

  @DeviceNo({ required: true, example: 'DAD-0001' })
  deviceNo: string;

  @OneOf(DEVICE_TYPES, { required: true, example: 'DATA_ACQUISITION_DEVICE', description: 'Kind of device' })
  deviceType: string;

  @Num({ required: true, min: -180, max: 180, example: 116.397128, description: 'WGS 84 longitude in degrees' })
  longitude: number;

  @Num({ required: true, min: -90, max: 90, example: 39.916527, description: 'WGS 84 latitude in degrees' })
  latitude: number;

  @Num({ min: -1000, max: 100000, example: 43.5, description: 'Metres above sea level' })
  altitude?: number | null;

  @Num({ min: 0, max: 1000000, example: 5, description: 'Horizontal accuracy radius in metres' })
  accuracy?: number | null;
}
