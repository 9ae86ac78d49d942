import { ClientId, OneOf } from '@app/common';
import { DeviceNo, SnapTimeFields, Username } from '../shared/snapshot-fields';
import { USAGE_RESULTS } from '../shared/snapshot-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class FingerprintScannerUsageSnapSave extends SnapTimeFields {
  @ClientId()
  fingerprintScannerUsageSnapId?: string;

  @DeviceNo({ required: true, example: 'FPS-0001' })
  fingerprintScannerNo: string;

  @DeviceNo({ example: 'DAD-0001' })
  dataAcquisitionDeviceNo?: string | null;

  @Username({ description: 'Whose fingerprint was scanned' })
  username?: string | null;

  @OneOf(USAGE_RESULTS, { required: true, example: 'SUCCESS', description: 'SUCCESS matched, FAILURE no match, ERROR scanner fault' })
  result: string;
}
