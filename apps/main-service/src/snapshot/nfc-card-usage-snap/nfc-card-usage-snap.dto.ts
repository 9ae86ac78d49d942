import { ClientId, OneOf } from '@app/common';
import { DeviceNo, SnapTimeFields, Username } from '../shared/snapshot-fields';
import { USAGE_RESULTS } from '../shared/snapshot-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class NfcCardUsageSnapSave extends SnapTimeFields {
  @ClientId()
  nfcCardUsageSnapId?: string;

  @DeviceNo({ required: true, example: '04A224B2C35E80' })
  nfcCardNo: string;

  @DeviceNo({ example: 'DAD-0001' })
  dataAcquisitionDeviceNo?: string | null;

  @Username({ description: 'Card holder' })
  username?: string | null;

  @OneOf(USAGE_RESULTS, { required: true, example: 'SUCCESS', description: 'SUCCESS accepted, FAILURE rejected, ERROR read fault' })
  result: string;
}
