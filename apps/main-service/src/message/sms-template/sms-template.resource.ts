import { defineResource } from '@app/common';
import { messageRoute, NEWEST_FIRST } from '../shared/message-resource';
import { SmsTemplateSave } from './sms-template.dto';
import { SmsTemplate } from './sms-template.entity';

export const smsTemplateResource = defineResource({
  ...messageRoute('sms-template', 'SMS template'),
  entity: SmsTemplate,
  idField: 'smsTemplateId',
  saveDto: SmsTemplateSave,
  filters: ['code', 'name', 'providerTemplateCode', 'enabled'],
  sortable: ['code', 'name', 'providerTemplateCode', 'enabled'],
  defaultSort: NEWEST_FIRST,
  uniqueKey: ['code'],
});
