import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { LinkRecord, RecordIdColumn } from '../shared/message-columns';

/** Links notification templates to their notification configurations: one live link per pair. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_notification_template_notification_config')
@Index('uk_notification_tpl_cfg_key', ['tenantId', 'notificationTemplateId', 'notificationConfigId', 'deleteTime'], { unique: true })
@Index('idx_notification_tpl_cfg_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_notification_tpl_cfg_template', ['tenantId', 'deleteTime', 'notificationTemplateId', 'createdTime'])
@Index('idx_notification_tpl_cfg_config', ['tenantId', 'deleteTime', 'notificationConfigId', 'createdTime'])
export class NotificationTemplateNotificationConfig extends LinkRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  notificationTemplateNotificationConfigId: string;

  @RecordIdColumn({ description: 'The notification template' })
  notificationTemplateId: string;

  @RecordIdColumn({ description: 'The notification configuration' })
  notificationConfigId: string;
}
