import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ChoiceColumn, DeviceNoColumn, DoubleColumn, SnapRecord } from '../shared/snapshot-columns';
import { DEVICE_TYPES } from '../shared/snapshot-values';

/** Where a device was (WGS 84) at the snapshot time. Indexes: each exact filter, then snapTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_device_position_snap')
@Index('idx_device_position_snap_time', ['tenantId', 'deleteTime', 'snapTime'])
@Index('idx_device_position_device_no', ['tenantId', 'deleteTime', 'deviceNo', 'snapTime'])
@Index('idx_device_position_device_type', ['tenantId', 'deleteTime', 'deviceType', 'snapTime'])
export class DevicePositionSnap extends SnapRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  devicePositionSnapId: string;

  @DeviceNoColumn({ example: 'DAD-0001' })
  deviceNo: string;

  @ChoiceColumn(DEVICE_TYPES, { example: 'DATA_ACQUISITION_DEVICE', description: 'Kind of device' })
  deviceType: string;

  @DoubleColumn({ example: 116.397128, description: 'WGS 84 longitude in degrees' })
  longitude: number;

  @DoubleColumn({ example: 39.916527, description: 'WGS 84 latitude in degrees' })
  latitude: number;

  @DoubleColumn({ nullable: true, example: 43.5, description: 'Metres above sea level' })
  altitude: number | null;

  @DoubleColumn({ nullable: true, example: 5, description: 'Horizontal accuracy radius in metres' })
  accuracy: number | null;
}
