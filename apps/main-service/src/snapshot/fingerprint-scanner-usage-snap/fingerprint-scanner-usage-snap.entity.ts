import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { Username } from '../../fields/text-fields';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';
import { USAGE_RESULTS } from '../fields/snapshot-values';

/** One use of a fingerprint scanner and its outcome. Indexes: each exact filter, then snapTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_fingerprint_scanner_usage_snap')
@Index('idx_fingerprint_usage_snap_time', ['tenantId', 'deleteTime', 'snapTime'])
@Index('idx_fingerprint_usage_fingerprint_scanner_no', ['tenantId', 'deleteTime', 'fingerprintScannerNo', 'snapTime'])
@Index('idx_fingerprint_usage_data_acquisition_device_no', ['tenantId', 'deleteTime', 'dataAcquisitionDeviceNo', 'snapTime'])
@Index('idx_fingerprint_usage_username', ['tenantId', 'deleteTime', 'username', 'snapTime'])
@Index('idx_fingerprint_usage_result', ['tenantId', 'deleteTime', 'result', 'snapTime'])
export class FingerprintScannerUsageSnap extends SnapRecord {
  @Field.id()
  fingerprintScannerUsageSnapId: string;

  @DeviceNo({ required: true, example: 'FPS-0001' })
  fingerprintScannerNo: string;

  @DeviceNo({ example: 'DAD-0001' })
  dataAcquisitionDeviceNo: string | null;

  @Username({ description: 'Whose fingerprint was scanned' })
  username: string | null;

  @Field.oneOf(USAGE_RESULTS, { required: true, example: 'SUCCESS', description: 'SUCCESS matched, FAILURE no match, ERROR scanner fault' })
  result: string;
}
