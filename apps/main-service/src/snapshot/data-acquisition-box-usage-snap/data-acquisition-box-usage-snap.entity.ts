import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { Remark, Username } from '../../fields/text-fields';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';

/** Who used a data-acquisition box, through which server, from when to when. Indexes: each exact filter, then startTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_data_acquisition_box_usage_snap')
@Index('idx_box_usage_start_time', ['tenantId', 'deleteTime', 'startTime'])
@Index('idx_box_usage_box_no', ['tenantId', 'deleteTime', 'boxNo', 'startTime'])
@Index('idx_box_usage_data_acquisition_server_no', ['tenantId', 'deleteTime', 'dataAcquisitionServerNo', 'startTime'])
@Index('idx_box_usage_username', ['tenantId', 'deleteTime', 'username', 'startTime'])
export class DataAcquisitionBoxUsageSnap extends SnapRecord {
  @Field.id()
  dataAcquisitionBoxUsageSnapId: string;

  @DeviceNo({ required: true, example: 'BOX-0001' })
  boxNo: string;

  @DeviceNo({ example: 'DAS-0001' })
  dataAcquisitionServerNo: string | null;

  @Username({ description: 'Who used the box' })
  username: string | null;

  @Field.time({ required: true, example: 1767225600000, description: 'Start of the usage' })
  startTime: number;

  @Field.time({ example: 1767229200000, description: 'End of the usage; null while the box is in use' })
  endTime: number | null;

  @Remark()
  remark: string | null;
}
