import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ChoiceColumn, DeviceNoColumn, RemarkColumn, SnapRecord, TimeColumn, UsernameColumn } from '../shared/snapshot-columns';
import { GIVE_BACK_CONDITIONS } from '../shared/snapshot-values';

/** A user giving a data-acquisition device back, and the condition it came back in. Indexes: each exact filter, then giveBackTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_data_acquisition_device_give_back_snap')
@Index('idx_device_give_back_give_back_time', ['tenantId', 'deleteTime', 'giveBackTime'])
@Index('idx_device_give_back_data_acquisition_device_no', ['tenantId', 'deleteTime', 'dataAcquisitionDeviceNo', 'giveBackTime'])
@Index('idx_device_give_back_username', ['tenantId', 'deleteTime', 'username', 'giveBackTime'])
@Index('idx_device_give_back_condition', ['tenantId', 'deleteTime', 'condition', 'giveBackTime'])
export class DataAcquisitionDeviceGiveBackSnap extends SnapRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  dataAcquisitionDeviceGiveBackSnapId: string;

  @DeviceNoColumn({ example: 'DAD-0001' })
  dataAcquisitionDeviceNo: string;

  @UsernameColumn()
  username: string;

  @TimeColumn({ example: 1767312000000, description: 'When the device was given back' })
  giveBackTime: number;

  @ChoiceColumn(GIVE_BACK_CONDITIONS, { example: 'GOOD', description: 'Condition of the device when given back' })
  condition: string;

  @RemarkColumn()
  remark: string | null;
}
