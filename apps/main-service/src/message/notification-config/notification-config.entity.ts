import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { ConfigRecord } from '../fields/message-fields';
import { NOTIFICATION_CHANNELS } from '../fields/message-values';

/** A delivery channel of notifications. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_notification_config')
@Index('idx_notification_config_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_notification_config_name', ['tenantId', 'deleteTime', 'name', 'createdTime'])
@Index('idx_notification_config_channel', ['tenantId', 'deleteTime', 'channel', 'createdTime'])
@Index('idx_notification_config_enabled', ['tenantId', 'deleteTime', 'enabled', 'createdTime'])
export class NotificationConfig extends ConfigRecord {
  @Field.id()
  notificationConfigId: string;

  @Field.oneOf(NOTIFICATION_CHANNELS, { required: true, example: 'IN_APP', description: 'Where notifications are delivered' })
  channel: string;
}
