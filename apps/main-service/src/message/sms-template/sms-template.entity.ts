import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { TemplateRecord } from '../fields/message-fields';
import { CODE_MAX, SMS_CONTENT_MAX } from '../fields/message-values';

/** An SMS template; code unique per tenant among live records. */
@Entity('message_sms_template')
export class SmsTemplate extends TemplateRecord {
  @Field.id()
  smsTemplateId: string;

  @Field.text({ max: SMS_CONTENT_MAX, required: true, example: 'Your code is ${code}', description: 'Text (may hold placeholders)' })
  content: string;

  @Field.text({ max: CODE_MAX, key: true, example: 'SMS_123456789', description: 'Template code registered with the provider' })
  providerTemplateCode: string | null;
}
