import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ChoiceColumn, DeviceNoColumn, IntColumn, MessageColumn, SnapRecord } from '../shared/snapshot-columns';
import { DEVICE_STATES, DEVICE_TYPES } from '../shared/snapshot-values';

/** The state a device reported at the snapshot time. Indexes: each exact filter, then snapTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_device_state_snap')
@Index('idx_device_state_snap_time', ['tenantId', 'deleteTime', 'snapTime'])
@Index('idx_device_state_device_no', ['tenantId', 'deleteTime', 'deviceNo', 'snapTime'])
@Index('idx_device_state_device_type', ['tenantId', 'deleteTime', 'deviceType', 'snapTime'])
@Index('idx_device_state_state', ['tenantId', 'deleteTime', 'state', 'snapTime'])
export class DeviceStateSnap extends SnapRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  deviceStateSnapId: string;

  @DeviceNoColumn({ example: 'DAD-0001' })
  deviceNo: string;

  @ChoiceColumn(DEVICE_TYPES, { example: 'DATA_ACQUISITION_DEVICE', description: 'Kind of device' })
  deviceType: string;

  @ChoiceColumn(DEVICE_STATES, { example: 'ONLINE', description: 'Reported state' })
  state: string;

  @IntColumn({ nullable: true, example: 87, description: 'Battery charge in percent' })
  batteryLevel: number | null;

  @IntColumn({ nullable: true, example: 72, description: 'Signal quality in percent (0 no signal, 100 best)' })
  signalStrength: number | null;

  @MessageColumn({ nullable: true, example: 'firmware 2.4.1; storage 61% used' })
  detail: string | null;
}
