import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { LinkRecord, RecordId } from '../fields/message-fields';

/** Links e-mail templates to their e-mail configurations: one live link per pair. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_email_template_email_config')
@Index('uk_email_tpl_cfg_key', ['tenantId', 'emailTemplateId', 'emailConfigId', 'deleteTime'], { unique: true })
@Index('idx_email_tpl_cfg_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_email_tpl_cfg_template', ['tenantId', 'deleteTime', 'emailTemplateId', 'createdTime'])
@Index('idx_email_tpl_cfg_config', ['tenantId', 'deleteTime', 'emailConfigId', 'createdTime'])
export class EmailTemplateEmailConfig extends LinkRecord {
  @Field.id()
  emailTemplateEmailConfigId: string;

  @RecordId({ required: true, description: 'The e-mail template' })
  emailTemplateId: string;

  @RecordId({ required: true, description: 'The e-mail configuration' })
  emailConfigId: string;
}
