import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { Username } from '../../fields/text-fields';
import { DeviceNo, SnapRecord } from '../fields/snapshot-fields';
import { USAGE_RESULTS } from '../fields/snapshot-values';

/** One use of an NFC card at a device and its outcome. Indexes: each exact filter, then snapTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_nfc_card_usage_snap')
@Index('idx_nfc_usage_snap_time', ['tenantId', 'deleteTime', 'snapTime'])
@Index('idx_nfc_usage_nfc_card_no', ['tenantId', 'deleteTime', 'nfcCardNo', 'snapTime'])
@Index('idx_nfc_usage_data_acquisition_device_no', ['tenantId', 'deleteTime', 'dataAcquisitionDeviceNo', 'snapTime'])
@Index('idx_nfc_usage_username', ['tenantId', 'deleteTime', 'username', 'snapTime'])
@Index('idx_nfc_usage_result', ['tenantId', 'deleteTime', 'result', 'snapTime'])
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
