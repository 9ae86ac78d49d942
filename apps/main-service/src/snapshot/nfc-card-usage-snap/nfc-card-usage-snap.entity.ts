import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ChoiceColumn, DeviceNoColumn, SnapRecord, UsernameColumn } from '../shared/snapshot-columns';
import { USAGE_RESULTS } from '../shared/snapshot-values';

/** One use of an NFC card at a device and its outcome. Indexes: each exact filter, then snapTime, after (tenant, live), so filter + range + default sort is one index range scan. */
@Entity('snapshot_nfc_card_usage_snap')
@Index('idx_nfc_usage_snap_time', ['tenantId', 'deleteTime', 'snapTime'])
@Index('idx_nfc_usage_nfc_card_no', ['tenantId', 'deleteTime', 'nfcCardNo', 'snapTime'])
@Index('idx_nfc_usage_data_acquisition_device_no', ['tenantId', 'deleteTime', 'dataAcquisitionDeviceNo', 'snapTime'])
@Index('idx_nfc_usage_username', ['tenantId', 'deleteTime', 'username', 'snapTime'])
@Index('idx_nfc_usage_result', ['tenantId', 'deleteTime', 'result', 'snapTime'])
export class NfcCardUsageSnap extends SnapRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  nfcCardUsageSnapId: string;

  @DeviceNoColumn({ example: '04A224B2C35E80' })
  nfcCardNo: string;

  @DeviceNoColumn({ nullable: true, example: 'DAD-0001' })
  dataAcquisitionDeviceNo: string | null;

  @UsernameColumn({ nullable: true })
  username: string | null;

  @ChoiceColumn(USAGE_RESULTS, { example: 'SUCCESS', description: 'SUCCESS accepted, FAILURE rejected, ERROR read fault' })
  result: string;
}
