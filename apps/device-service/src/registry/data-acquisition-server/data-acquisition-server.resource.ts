import { defineResource } from '@app/common';
import { secretToHash } from '../provisioning-secret';
import { DataAcquisitionServer } from './data-acquisition-server.entity';

export const dataAcquisitionServerResource = defineResource({
  path: 'system-api/device/data-acquisition-server',
  tag: 'device: data-acquisition-server (registry)',
  permission: 'device-data-acquisition-server',
  title: 'Data acquisition server',
  entity: DataAcquisitionServer,
  idField: 'dataAcquisitionServerId',
  filters: ['dataAcquisitionServerNo'],
  sortable: ['dataAcquisitionServerNo', 'name'],
  defaultSort: [['createdTime', 'DESC']],
  // 422 "Data acquisition server exists": the number is unique across tenants (the unique index has no tenant column)
  // no recycle bin: restoring a registry record would revive the credentials its deletion revoked
  recycleBin: false,
  history: false,
  uniqueKey: ['dataAcquisitionServerNo'],
  uniqueAcrossTenants: true,
  toColumns: secretToHash,
});
