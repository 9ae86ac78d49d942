import { defineResource } from '@app/common';
import { NfcCardUsageSnap } from './nfc-card-usage-snap.entity';

export const nfcCardUsageSnapResource = defineResource({
  path: 'main-api/snapshot/nfc-card-usage-snap',
  tag: 'snapshot: nfc-card-usage-snap',
  permission: 'snapshot-nfc-card-usage-snap',
  title: 'NFC card usage snapshot',
  entity: NfcCardUsageSnap,
  idField: 'nfcCardUsageSnapId',
  filters: ['nfcCardNo', 'dataAcquisitionDeviceNo', 'username', 'result'],
  timeRange: 'snapTime',
  sortable: ['snapTime', 'nfcCardNo', 'dataAcquisitionDeviceNo', 'username', 'result'],
  defaultSort: [['snapTime', 'DESC']],
});
