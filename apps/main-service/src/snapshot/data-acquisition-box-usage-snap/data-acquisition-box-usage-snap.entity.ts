import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { Remark, Username } from '../../fields/text-fields';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';

/** Who used a data-acquisition box, through which server, from when to when. */
@Entity('snapshot_data_acquisition_box_usage_snap')
export class DataAcquisitionBoxUsageSnap extends SnapRecord {
  @Field.id()
  dataAcquisitionBoxUsageSnapId: string;

  @DeviceNo({ required: true, example: 'BOX-0001' })
  boxNo: string;

  @DeviceNo({ example: 'DAS-0001' })
  dataAcquisitionServerNo: string | null;

  @Username({ description: 'Who used the box' })
  username: string | null;

  @Field.time({ required: true, past: true, example: 1767225600000, description: 'Start of the usage' })
  startTime: number;

  @Field.time({ past: true, example: 1767229200000, description: 'End of the usage; null while the box is in use' })
  endTime: number | null;

  @Remark()
  remark: string | null;
}
