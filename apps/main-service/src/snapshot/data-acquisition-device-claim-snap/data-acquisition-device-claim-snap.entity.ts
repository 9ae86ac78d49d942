import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { Remark, Username } from '../../fields/text-fields';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';

/** A user claiming (checking out) a data-acquisition device, and when it should come back. */
@Entity('snapshot_data_acquisition_device_claim_snap')
export class DataAcquisitionDeviceClaimSnap extends SnapRecord {
  @Field.id()
  dataAcquisitionDeviceClaimSnapId: string;

  @DeviceNo({ required: true, example: 'DAD-0001' })
  dataAcquisitionDeviceNo: string;

  @Username({ required: true, description: 'Who claimed the device' })
  username: string;

  @Field.time({ required: true, past: true, example: 1767225600000, description: 'When the device was claimed' })
  claimTime: number;

  @Field.time({ example: 1767312000000, description: 'When the device is due back; null when open-ended' })
  expectedReturnTime: number | null;

  @Remark()
  remark: string | null;
}
