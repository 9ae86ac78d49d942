import { ClientId, Text } from '@app/common';
import { TemplateFields } from '../shared/message-fields';
import { CODE_MAX, SMS_CONTENT_MAX } from '../shared/message-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class SmsTemplateSave extends TemplateFields {
  @ClientId()
  smsTemplateId?: string;

  @Text({ max: SMS_CONTENT_MAX, required: true, example: 'Your code is ${code}', description: 'Text (may hold placeholders)' })
  content: string;

  @Text({ max: CODE_MAX, key: true, example: 'SMS_123456789', description: 'Template code registered with the provider' })
  providerTemplateCode?: string | null;
}
