import { defineResource } from '@app/common';
import { messageRoute, NEWEST_FIRST } from '../resource-options';
import { SmsTemplate } from './sms-template.entity';

export const smsTemplateResource = defineResource({
  ...messageRoute('sms-template', 'SMS template'),
  entity: SmsTemplate,
  idField: 'smsTemplateId',
  filters: ['code', 'name', 'providerTemplateCode', 'enabled'],
  sortable: ['code', 'name', 'providerTemplateCode', 'enabled'],
  defaultSort: NEWEST_FIRST,
  uniqueKey: ['code'],
});
