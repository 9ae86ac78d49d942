import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { DeviceNoColumn, RemarkColumn, SnapRecord, TimeColumn, UsernameColumn } from '../shared/snapshot-columns';

/** A user claiming (checking out) a data-acquisition device, and when it should come back. Indexes: each exact filter, then claimTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_data_acquisition_device_claim_snap')
@Index('idx_device_claim_claim_time', ['tenantId', 'deleteTime', 'claimTime'])
@Index('idx_device_claim_data_acquisition_device_no', ['tenantId', 'deleteTime', 'dataAcquisitionDeviceNo', 'claimTime'])
@Index('idx_device_claim_username', ['tenantId', 'deleteTime', 'username', 'claimTime'])
export class DataAcquisitionDeviceClaimSnap extends SnapRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  dataAcquisitionDeviceClaimSnapId: string;

  @DeviceNoColumn({ example: 'DAD-0001' })
  dataAcquisitionDeviceNo: string;

  @UsernameColumn()
  username: string;

  @TimeColumn({ example: 1767225600000, description: 'When the device was claimed' })
  claimTime: number;

  @TimeColumn({ nullable: true, example: 1767312000000, description: 'When the device is due back; null when open-ended' })
  expectedReturnTime: number | null;

  @RemarkColumn()
  remark: string | null;
}
