import { defineResource } from '@app/common';
import { DataAcquisitionDeviceGiveBackSnap } from './data-acquisition-device-give-back-snap.entity';

export const dataAcquisitionDeviceGiveBackSnapResource = defineResource({
  path: 'main-api/snapshot/data-acquisition-device-give-back-snap',
  tag: 'snapshot: data-acquisition-device-give-back-snap',
  permission: 'snapshot-data-acquisition-device-give-back-snap',
  title: 'Data-acquisition device give-back snapshot',
  entity: DataAcquisitionDeviceGiveBackSnap,
  idField: 'dataAcquisitionDeviceGiveBackSnapId',
  filters: ['dataAcquisitionDeviceNo', 'username', 'condition'],
  timeRange: 'giveBackTime',
  sortable: ['giveBackTime', 'snapTime', 'dataAcquisitionDeviceNo', 'username', 'condition'],
  defaultSort: [['giveBackTime', 'DESC']],
});
