import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ChoiceColumn, DeviceNoColumn, SnapRecord, UsernameColumn } from '../shared/snapshot-columns';
import { USAGE_RESULTS } from '../shared/snapshot-values';

/** One use of a fingerprint scanner and its outcome. Indexes: each exact filter, then snapTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_fingerprint_scanner_usage_snap')
@Index('idx_fingerprint_usage_snap_time', ['tenantId', 'deleteTime', 'snapTime'])
@Index('idx_fingerprint_usage_fingerprint_scanner_no', ['tenantId', 'deleteTime', 'fingerprintScannerNo', 'snapTime'])
@Index('idx_fingerprint_usage_data_acquisition_device_no', ['tenantId', 'deleteTime', 'dataAcquisitionDeviceNo', 'snapTime'])
@Index('idx_fingerprint_usage_username', ['tenantId', 'deleteTime', 'username', 'snapTime'])
@Index('idx_fingerprint_usage_result', ['tenantId', 'deleteTime', 'result', 'snapTime'])
export class FingerprintScannerUsageSnap extends SnapRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  fingerprintScannerUsageSnapId: string;

  @DeviceNoColumn({ example: 'FPS-0001' })
  fingerprintScannerNo: string;

  @DeviceNoColumn({ nullable: true, example: 'DAD-0001' })
  dataAcquisitionDeviceNo: string | null;

  @UsernameColumn({ nullable: true })
  username: string | null;

  @ChoiceColumn(USAGE_RESULTS, { example: 'SUCCESS', description: 'SUCCESS matched, FAILURE no match, ERROR scanner fault' })
  result: string;
}
