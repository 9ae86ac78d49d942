import { defineResource } from '@app/common';
import { linkOptions, messageRoute } from '../shared/message-resource';
import { SmsTemplateSmsConfigSave } from './sms-template-sms-config.dto';
import { SmsTemplateSmsConfig } from './sms-template-sms-config.entity';

export const smsTemplateSmsConfigResource = defineResource({
  ...messageRoute('sms-template-sms-config', 'SMS template configuration link'),
  entity: SmsTemplateSmsConfig,
  idField: 'smsTemplateSmsConfigId',
  saveDto: SmsTemplateSmsConfigSave,
  ...linkOptions('smsTemplateId', 'smsConfigId'),
});
