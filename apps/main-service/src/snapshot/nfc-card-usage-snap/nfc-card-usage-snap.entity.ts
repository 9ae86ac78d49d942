import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { Username } from '../../fields/text-fields';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';
import { USAGE_RESULTS } from '../fields/snapshot-values';

/** One use of an NFC card at a device and its outcome. */
@Entity('snapshot_nfc_card_usage_snap')
export class NfcCardUsageSnap extends SnapRecord {
  @Field.id()
  nfcCardUsageSnapId: string;

  @DeviceNo({ required: true, example: '04A224B2C35E80' })
  nfcCardNo: string;

  @DeviceNo({ example: 'DAD-0001' })
  dataAcquisitionDeviceNo: string | null;

  @Username({ description: 'Card holder' })
  username: string | null;

  @Field.oneOf(USAGE_RESULTS, { required: true, example: 'SUCCESS', description: 'SUCCESS accepted, FAILURE rejected, ERROR read fault' })
  result: string;
}
