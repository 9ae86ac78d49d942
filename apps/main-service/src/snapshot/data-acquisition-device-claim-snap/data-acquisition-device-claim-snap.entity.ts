import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { Remark, Username } from '../../fields/text-fields';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';

/** A user claiming (checking out) a data-acquisition device, and when it should come back. Indexes: each exact filter, then claimTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_data_acquisition_device_claim_snap')
@Index('idx_device_claim_claim_time', ['tenantId', 'deleteTime', 'claimTime'])
@Index('idx_device_claim_data_acquisition_device_no', ['tenantId', 'deleteTime', 'dataAcquisitionDeviceNo', 'claimTime'])
@Index('idx_device_claim_username', ['tenantId', 'deleteTime', 'username', 'claimTime'])
export class DataAcquisitionDeviceClaimSnap extends SnapRecord {
  @Field.id()
  dataAcquisitionDeviceClaimSnapId: string;

  @DeviceNo({ required: true, example: 'DAD-0001' })
  dataAcquisitionDeviceNo: string;

  @Username({ required: true, description: 'Who claimed the device' })
  username: string;

  @Field.time({ required: true, example: 1767225600000, description: 'When the device was claimed' })
  claimTime: number;

  @Field.time({ example: 1767312000000, description: 'When the device is due back; null when open-ended' })
  expectedReturnTime: number | null;

  @Remark()
  remark: string | null;
}
