import { defineResource } from '@app/common';
import { DataAcquisitionDeviceClaimSnap } from './data-acquisition-device-claim-snap.entity';

export const dataAcquisitionDeviceClaimSnapResource = defineResource({
  path: 'main-api/snapshot/data-acquisition-device-claim-snap',
  tag: 'snapshot: data-acquisition-device-claim-snap',
  permission: 'snapshot-data-acquisition-device-claim-snap',
  title: 'Data-acquisition device claim snapshot',
  entity: DataAcquisitionDeviceClaimSnap,
  idField: 'dataAcquisitionDeviceClaimSnapId',
  filters: ['dataAcquisitionDeviceNo', 'username'],
  timeRange: 'claimTime',
  sortable: ['claimTime', 'expectedReturnTime', 'snapTime', 'dataAcquisitionDeviceNo', 'username'],
  defaultSort: [['claimTime', 'DESC']],
});
