import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { LinkRecord, RecordId } from '../fields/message-fields';

/** Links notification templates to their notification configurations: one live link per pair. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_notification_template_notification_config')
@Index('uk_notification_tpl_cfg_key', ['tenantId', 'notificationTemplateId', 'notificationConfigId', 'deleteTime'], { unique: true })
@Index('idx_notification_tpl_cfg_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_notification_tpl_cfg_template', ['tenantId', 'deleteTime', 'notificationTemplateId', 'createdTime'])
@Index('idx_notification_tpl_cfg_config', ['tenantId', 'deleteTime', 'notificationConfigId', 'createdTime'])
export class NotificationTemplateNotificationConfig extends LinkRecord {
  @Field.id()
  notificationTemplateNotificationConfigId: string;

  @RecordId({ required: true, description: 'The notification template' })
  notificationTemplateId: string;

  @RecordId({ required: true, description: 'The notification configuration' })
  notificationConfigId: string;
}
