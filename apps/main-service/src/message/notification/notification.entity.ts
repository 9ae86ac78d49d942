import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { BodyTextColumn, ChoiceColumn, TextColumn, TimeColumn } from '../../shared/columns';
import { BusinessRecord, RecordIdColumn } from '../shared/message-columns';
import {
  NOTIFICATION_LEVEL_DEFAULT,
  NOTIFICATION_LEVELS,
  NOTIFICATION_STATUS_DEFAULT,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TARGET_TYPE_DEFAULT,
  NOTIFICATION_TARGET_TYPES,
  SUBJECT_MAX,
} from '../shared/message-values';

/** One notification. Indexes: each exact filter, then publishTime, after (tenant, live): filter + range + default sort is one index range scan. */
@Entity('message_notification')
@Index('idx_notification_publish_time', ['tenantId', 'deleteTime', 'publishTime'])
@Index('idx_notification_business_id', ['tenantId', 'deleteTime', 'businessId', 'publishTime'])
@Index('idx_notification_business_type', ['tenantId', 'deleteTime', 'businessType', 'publishTime'])
@Index('idx_notification_template_id', ['tenantId', 'deleteTime', 'notificationTemplateId', 'publishTime'])
@Index('idx_notification_config_id', ['tenantId', 'deleteTime', 'notificationConfigId', 'publishTime'])
@Index('idx_notification_level', ['tenantId', 'deleteTime', 'level', 'publishTime'])
@Index('idx_notification_target_type', ['tenantId', 'deleteTime', 'targetType', 'publishTime'])
@Index('idx_notification_status', ['tenantId', 'deleteTime', 'status', 'publishTime'])
export class Notification extends BusinessRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  notificationId: string;

  @RecordIdColumn({ nullable: true, description: 'The notification template it was made from' })
  notificationTemplateId: string | null;

  @RecordIdColumn({ nullable: true, description: 'The notification configuration (channel) it goes through' })
  notificationConfigId: string | null;

  @TextColumn(SUBJECT_MAX, { example: 'Maintenance tonight', description: 'Title' })
  title: string;

  @BodyTextColumn({ example: 'The service is unavailable from 22:00 to 23:00.', description: 'Body' })
  content: string;

  @ChoiceColumn(NOTIFICATION_LEVELS, { default: NOTIFICATION_LEVEL_DEFAULT, example: NOTIFICATION_LEVEL_DEFAULT, description: 'Importance' })
  level: string;

  @ChoiceColumn(NOTIFICATION_TARGET_TYPES, { default: NOTIFICATION_TARGET_TYPE_DEFAULT, example: 'USER', description: 'Who it is for: every user of the tenant, listed users (notification-user), a role' })
  targetType: string;

  @ChoiceColumn(NOTIFICATION_STATUSES, { default: NOTIFICATION_STATUS_DEFAULT, example: 'PUBLISHED', description: 'Lifecycle state' })
  status: string;

  @TimeColumn({ nullable: true, example: 1767229200000, description: 'When it is (or was) published; null while a draft' })
  publishTime: number | null;
}
