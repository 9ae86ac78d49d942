import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { DeviceNoColumn, RemarkColumn, SnapRecord, TimeColumn, UsernameColumn } from '../shared/snapshot-columns';

/** Who used a data-acquisition box, through which server, from when to when. Indexes: each exact filter, then startTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_data_acquisition_box_usage_snap')
@Index('idx_box_usage_start_time', ['tenantId', 'deleteTime', 'startTime'])
@Index('idx_box_usage_box_no', ['tenantId', 'deleteTime', 'boxNo', 'startTime'])
@Index('idx_box_usage_data_acquisition_server_no', ['tenantId', 'deleteTime', 'dataAcquisitionServerNo', 'startTime'])
@Index('idx_box_usage_username', ['tenantId', 'deleteTime', 'username', 'startTime'])
export class DataAcquisitionBoxUsageSnap extends SnapRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  dataAcquisitionBoxUsageSnapId: string;

  @DeviceNoColumn({ example: 'BOX-0001' })
  boxNo: string;

  @DeviceNoColumn({ nullable: true, example: 'DAS-0001' })
  dataAcquisitionServerNo: string | null;

  @UsernameColumn({ nullable: true })
  username: string | null;

  @TimeColumn({ example: 1767225600000, description: 'Start of the usage' })
  startTime: number;

  @TimeColumn({ nullable: true, example: 1767229200000, description: 'End of the usage; null while the box is in use' })
  endTime: number | null;

  @RemarkColumn()
  remark: string | null;
}
