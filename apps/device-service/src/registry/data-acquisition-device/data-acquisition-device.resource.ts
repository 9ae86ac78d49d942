import { defineResource } from '@app/common';
import { secretToHash } from '../provisioning-secret';
import { DataAcquisitionDevice } from './data-acquisition-device.entity';

export const dataAcquisitionDeviceResource = defineResource({
  path: 'system-api/device/data-acquisition-device',
  tag: 'device: data-acquisition-device (registry)',
  permission: 'device-data-acquisition-device',
  title: 'Data acquisition device',
  entity: DataAcquisitionDevice,
  idField: 'dataAcquisitionDeviceId',
  filters: ['dataAcquisitionDeviceNo'],
  sortable: ['dataAcquisitionDeviceNo', 'name', 'lastSeenTime'],
  defaultSort: [['createdTime', 'DESC']],
  // 422 "Data acquisition device exists": the number is unique across tenants (the unique index has no tenant column)
  // no recycle bin: restoring a registry record would revive the credentials its deletion revoked
  recycleBin: false,
  history: false,
  uniqueKey: ['dataAcquisitionDeviceNo'],
  uniqueAcrossTenants: true,
  toColumns: secretToHash,
});
