import { defineResource } from '@app/common';
import { messageRoute, NEWEST_FIRST } from '../resource-options';
import { SmsPackage } from './sms-package.entity';

export const smsPackageResource = defineResource({
  ...messageRoute('sms-package', 'SMS package'),
  entity: SmsPackage,
  idField: 'smsPackageId',
  filters: ['name', 'status'],
  sortable: ['name', 'totalCount', 'usedCount', 'expireTime', 'status'],
  defaultSort: NEWEST_FIRST,
});
