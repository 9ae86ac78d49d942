import { defineResource } from '@app/common';
import { linkOptions, messageRoute } from '../resource-options';
import { SmsTemplateSmsConfig } from './sms-template-sms-config.entity';

export const smsTemplateSmsConfigResource = defineResource({
  ...messageRoute('sms-template-sms-config', 'SMS template configuration link'),
  entity: SmsTemplateSmsConfig,
  idField: 'smsTemplateSmsConfigId',
  ...linkOptions('smsTemplateId', 'smsConfigId'),
});
