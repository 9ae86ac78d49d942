import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { LinkRecord, RecordIdColumn } from '../shared/message-columns';

/** Links e-mail templates to their e-mail configurations: one live link per pair. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_email_template_email_config')
@Index('uk_email_tpl_cfg_key', ['tenantId', 'emailTemplateId', 'emailConfigId', 'deleteTime'], { unique: true })
@Index('idx_email_tpl_cfg_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_email_tpl_cfg_template', ['tenantId', 'deleteTime', 'emailTemplateId', 'createdTime'])
@Index('idx_email_tpl_cfg_config', ['tenantId', 'deleteTime', 'emailConfigId', 'createdTime'])
export class EmailTemplateEmailConfig extends LinkRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  emailTemplateEmailConfigId: string;

  @RecordIdColumn({ description: 'The e-mail template' })
  emailTemplateId: string;

  @RecordIdColumn({ description: 'The e-mail configuration' })
  emailConfigId: string;
}
