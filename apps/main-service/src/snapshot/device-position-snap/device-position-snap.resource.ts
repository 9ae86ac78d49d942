import { defineResource } from '@app/common';
import { DevicePositionSnap } from './device-position-snap.entity';

export const devicePositionSnapResource = defineResource({
  path: 'main-api/snapshot/device-position-snap',
  tag: 'snapshot: device-position-snap',
  permission: 'snapshot-device-position-snap',
  title: 'Device position snapshot',
  entity: DevicePositionSnap,
  idField: 'devicePositionSnapId',
  filters: ['deviceNo', 'deviceType'],
  timeRange: 'snapTime',
  sortable: ['snapTime', 'deviceNo', 'deviceType'],
  defaultSort: [['snapTime', 'DESC']],
});
