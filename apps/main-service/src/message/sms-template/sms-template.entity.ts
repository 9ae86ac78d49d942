import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { TemplateRecord } from '../fields/message-fields';
import { CODE_MAX, SMS_CONTENT_MAX } from '../fields/message-values';

/** An SMS template; code unique per tenant among live records. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_sms_template')
@Index('uk_sms_template_key', ['tenantId', 'code', 'deleteTime'], { unique: true })
@Index('idx_sms_template_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_sms_template_name', ['tenantId', 'deleteTime', 'name', 'createdTime'])
@Index('idx_sms_template_provider_template_code', ['tenantId', 'deleteTime', 'providerTemplateCode', 'createdTime'])
@Index('idx_sms_template_enabled', ['tenantId', 'deleteTime', 'enabled', 'createdTime'])
export class SmsTemplate extends TemplateRecord {
  @Field.id()
  smsTemplateId: string;

  @Field.text({ max: SMS_CONTENT_MAX, required: true, example: 'Your code is ${code}', description: 'Text (may hold placeholders)' })
  content: string;

  @Field.text({ max: CODE_MAX, key: true, example: 'SMS_123456789', description: 'Template code registered with the provider' })
  providerTemplateCode: string | null;
}
