import { defineResource } from '@app/common';
import { messageRoute, NEWEST_FIRST } from '../resource-options';
import { SmsConfig } from './sms-config.entity';

export const smsConfigResource = defineResource({
  ...messageRoute('sms-config', 'SMS configuration'),
  entity: SmsConfig,
  idField: 'smsConfigId',
  filters: ['name', 'provider', 'accessKeyId', 'enabled'],
  sortable: ['name', 'provider', 'region', 'enabled'],
  defaultSort: NEWEST_FIRST,
});
