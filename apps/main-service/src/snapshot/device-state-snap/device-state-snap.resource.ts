import { defineResource } from '@app/common';
import { DeviceStateSnap } from './device-state-snap.entity';

export const deviceStateSnapResource = defineResource({
  path: 'main-api/snapshot/device-state-snap',
  tag: 'snapshot: device-state-snap',
  permission: 'snapshot-device-state-snap',
  title: 'Device state snapshot',
  entity: DeviceStateSnap,
  idField: 'deviceStateSnapId',
  filters: ['deviceNo', 'deviceType', 'state'],
  timeRange: 'snapTime',
  sortable: ['snapTime', 'deviceNo', 'deviceType', 'state', 'batteryLevel', 'signalStrength'],
  defaultSort: [['snapTime', 'DESC']],
});
