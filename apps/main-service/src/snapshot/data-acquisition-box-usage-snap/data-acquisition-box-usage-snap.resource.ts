import { defineResource } from '@app/common';
import { DataAcquisitionBoxUsageSnap } from './data-acquisition-box-usage-snap.entity';

export const dataAcquisitionBoxUsageSnapResource = defineResource({
  path: 'main-api/snapshot/data-acquisition-box-usage-snap',
  tag: 'snapshot: data-acquisition-box-usage-snap',
  permission: 'snapshot-data-acquisition-box-usage-snap',
  title: 'Data-acquisition box usage snapshot',
  entity: DataAcquisitionBoxUsageSnap,
  idField: 'dataAcquisitionBoxUsageSnapId',
  filters: ['boxNo', 'dataAcquisitionServerNo', 'username'],
  timeRange: 'startTime',
  sortable: ['startTime', 'endTime', 'snapTime', 'boxNo', 'dataAcquisitionServerNo', 'username'],
  defaultSort: [['startTime', 'DESC']],
});
