import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { Remark, Username } from '../../fields/text-fields';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';
import { GIVE_BACK_CONDITIONS } from '../fields/snapshot-values';

/** A user giving a data-acquisition device back, and the condition it came back in. */
@Entity('snapshot_data_acquisition_device_give_back_snap')
export class DataAcquisitionDeviceGiveBackSnap extends SnapRecord {
  @Field.id()
  dataAcquisitionDeviceGiveBackSnapId: string;

  @DeviceNo({ required: true, example: 'DAD-0001' })
  dataAcquisitionDeviceNo: string;

  @Username({ required: true, description: 'Who gave the device back' })
  username: string;

  @Field.time({ required: true, past: true, example: 1767312000000, description: 'When the device was given back' })
  giveBackTime: number;

  @Field.oneOf(GIVE_BACK_CONDITIONS, { required: true, example: 'GOOD', description: 'Condition of the device when given back' })
  condition: string;

  @Remark()
  remark: string | null;
}
