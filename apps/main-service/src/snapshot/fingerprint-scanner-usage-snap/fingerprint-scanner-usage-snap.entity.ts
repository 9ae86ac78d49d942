import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { Username } from '../../fields/text-fields';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';
import { USAGE_RESULTS } from '../fields/snapshot-values';

/** One use of a fingerprint scanner and its outcome. */
@Entity('snapshot_fingerprint_scanner_usage_snap')
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
