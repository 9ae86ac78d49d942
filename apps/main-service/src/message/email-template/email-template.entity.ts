import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { BodyTextColumn, ChoiceColumn, TextColumn } from '../../shared/columns';
import { TemplateRecord } from '../shared/message-columns';
import { CONTENT_TYPES, LANGUAGE_MAX, SUBJECT_MAX } from '../shared/message-values';

/** An e-mail template; code unique per tenant among live records. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_email_template')
@Index('uk_email_template_key', ['tenantId', 'code', 'deleteTime'], { unique: true })
@Index('idx_email_template_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_email_template_name', ['tenantId', 'deleteTime', 'name', 'createdTime'])
@Index('idx_email_template_content_type', ['tenantId', 'deleteTime', 'contentType', 'createdTime'])
@Index('idx_email_template_language', ['tenantId', 'deleteTime', 'language', 'createdTime'])
@Index('idx_email_template_enabled', ['tenantId', 'deleteTime', 'enabled', 'createdTime'])
export class EmailTemplate extends TemplateRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  emailTemplateId: string;

  @TextColumn(SUBJECT_MAX, { example: 'Reset your password', description: 'Subject line (may hold placeholders)' })
  subject: string;

  @BodyTextColumn({ example: '<p>Hello {{name}}, ...</p>', description: 'Body (may hold placeholders)' })
  content: string;

  @ChoiceColumn(CONTENT_TYPES, { example: 'html', description: 'How the body is sent' })
  contentType: string;

  @TextColumn(LANGUAGE_MAX, { nullable: true, example: 'en', description: 'Language of the template (BCP 47)' })
  language: string | null;
}
