import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { TemplateRecord } from '../fields/message-fields';
import { CONTENT_MAX, NOTIFICATION_LEVELS, SUBJECT_MAX } from '../fields/message-values';

/** A notification template; code unique per tenant among live records. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_notification_template')
@Index('uk_notification_template_key', ['tenantId', 'code', 'deleteTime'], { unique: true })
@Index('idx_notification_template_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_notification_template_name', ['tenantId', 'deleteTime', 'name', 'createdTime'])
@Index('idx_notification_template_level', ['tenantId', 'deleteTime', 'level', 'createdTime'])
@Index('idx_notification_template_enabled', ['tenantId', 'deleteTime', 'enabled', 'createdTime'])
export class NotificationTemplate extends TemplateRecord {
  @Field.id()
  notificationTemplateId: string;

  @Field.text({ max: SUBJECT_MAX, required: true, example: 'Maintenance tonight', description: 'Title (may hold placeholders)' })
  title: string;

  @Field.text({
    max: CONTENT_MAX,
    required: true,
    example: 'The service is unavailable from {{start}} to {{end}}.',
    description: 'Body (may hold placeholders)',
  })
  content: string;

  @Field.oneOf(NOTIFICATION_LEVELS, { required: true, example: 'INFO', description: 'Importance' })
  level: string;
}
