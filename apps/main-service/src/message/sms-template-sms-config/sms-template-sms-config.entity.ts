import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { LinkRecord, RecordId } from '../fields/message-fields';

/** Links SMS templates to their SMS configurations: one live link per pair. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_sms_template_sms_config')
@Index('uk_sms_tpl_cfg_key', ['tenantId', 'smsTemplateId', 'smsConfigId', 'deleteTime'], { unique: true })
@Index('idx_sms_tpl_cfg_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_sms_tpl_cfg_template', ['tenantId', 'deleteTime', 'smsTemplateId', 'createdTime'])
@Index('idx_sms_tpl_cfg_config', ['tenantId', 'deleteTime', 'smsConfigId', 'createdTime'])
export class SmsTemplateSmsConfig extends LinkRecord {
  @Field.id()
  smsTemplateSmsConfigId: string;

  @RecordId({ required: true, description: 'The SMS template' })
  smsTemplateId: string;

  @RecordId({ required: true, description: 'The SMS configuration' })
  smsConfigId: string;
}
