import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { TextColumn } from '../../shared/columns';
import { CodeColumn, TemplateRecord } from '../shared/message-columns';
import { SMS_CONTENT_MAX } from '../shared/message-values';

/** An SMS template; code unique per tenant among live records. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_sms_template')
@Index('uk_sms_template_key', ['tenantId', 'code', 'deleteTime'], { unique: true })
@Index('idx_sms_template_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_sms_template_name', ['tenantId', 'deleteTime', 'name', 'createdTime'])
@Index('idx_sms_template_provider_template_code', ['tenantId', 'deleteTime', 'providerTemplateCode', 'createdTime'])
@Index('idx_sms_template_enabled', ['tenantId', 'deleteTime', 'enabled', 'createdTime'])
export class SmsTemplate extends TemplateRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  smsTemplateId: string;

  @TextColumn(SMS_CONTENT_MAX, { example: 'Your code is ${code}', description: 'Text (may hold placeholders)' })
  content: string;

  @CodeColumn({ nullable: true, example: 'SMS_123456789', description: 'Template code registered with the provider' })
  providerTemplateCode: string | null;
}
