import { defineResource } from '@app/common';
import { DataSyncSnap } from './data-sync-snap.entity';

export const dataSyncSnapResource = defineResource({
  path: 'main-api/snapshot/data-sync-snap',
  tag: 'snapshot: data-sync-snap',
  permission: 'snapshot-data-sync-snap',
  title: 'Data synchronisation snapshot',
  entity: DataSyncSnap,
  idField: 'dataSyncSnapId',
  filters: ['dataAcquisitionServerNo', 'syncType', 'status'],
  timeRange: 'startTime',
  sortable: ['startTime', 'endTime', 'snapTime', 'dataAcquisitionServerNo', 'recordCount', 'status'],
  defaultSort: [['startTime', 'DESC']],
});
