import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { BodyTextColumn, ChoiceColumn, TextColumn } from '../../shared/columns';
import { TemplateRecord } from '../shared/message-columns';
import { NOTIFICATION_LEVELS, SUBJECT_MAX } from '../shared/message-values';

/** A notification template; code unique per tenant among live records. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_notification_template')
@Index('uk_notification_template_key', ['tenantId', 'code', 'deleteTime'], { unique: true })
@Index('idx_notification_template_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_notification_template_name', ['tenantId', 'deleteTime', 'name', 'createdTime'])
@Index('idx_notification_template_level', ['tenantId', 'deleteTime', 'level', 'createdTime'])
@Index('idx_notification_template_enabled', ['tenantId', 'deleteTime', 'enabled', 'createdTime'])
export class NotificationTemplate extends TemplateRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  notificationTemplateId: string;

  @TextColumn(SUBJECT_MAX, { example: 'Maintenance tonight', description: 'Title (may hold placeholders)' })
  title: string;

  @BodyTextColumn({ example: 'The service is unavailable from {{start}} to {{end}}.', description: 'Body (may hold placeholders)' })
  content: string;

  @ChoiceColumn(NOTIFICATION_LEVELS, { example: 'INFO', description: 'Importance' })
  level: string;
}
