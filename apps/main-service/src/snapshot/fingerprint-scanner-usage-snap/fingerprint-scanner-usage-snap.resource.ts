import { defineResource } from '@app/common';
import { FingerprintScannerUsageSnap } from './fingerprint-scanner-usage-snap.entity';

export const fingerprintScannerUsageSnapResource = defineResource({
  path: 'main-api/snapshot/fingerprint-scanner-usage-snap',
  tag: 'snapshot: fingerprint-scanner-usage-snap',
  permission: 'snapshot-fingerprint-scanner-usage-snap',
  title: 'Fingerprint scanner usage snapshot',
  entity: FingerprintScannerUsageSnap,
  idField: 'fingerprintScannerUsageSnapId',
  filters: ['fingerprintScannerNo', 'dataAcquisitionDeviceNo', 'username', 'result'],
  timeRange: 'snapTime',
  sortable: ['snapTime', 'fingerprintScannerNo', 'dataAcquisitionDeviceNo', 'username', 'result'],
  defaultSort: [['snapTime', 'DESC']],
});
