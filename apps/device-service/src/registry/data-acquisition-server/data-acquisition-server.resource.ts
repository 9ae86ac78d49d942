import { defineResource } from '@app/common';
import { secretToHash } from '../provisioning-secret';
import { DataAcquisitionServer } from './data-acquisition-server.entity';

export const dataAcquisitionServerResource = defineResource({
  path: 'system-api/device/data-acquisition-server',
  tag: 'device / data-acquisition-server (registry)',
  permission: 'device-data-acquisition-server',
  title: 'Data acquisition server',
  entity: DataAcquisitionServer,
  idField: 'dataAcquisitionServerId',
  filters: ['dataAcquisitionServerNo'],
  sortable: ['dataAcquisitionServerNo', 'name'],
  defaultSort: [['createdTime', 'DESC']],
  // unique across tenants (the index has no tenant column): 422 "Data acquisition server exists"
  uniqueKey: ['dataAcquisitionServerNo'],
  toColumns: secretToHash,
});
