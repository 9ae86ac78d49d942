import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ChoiceColumn } from '../../shared/columns';
import { ConfigRecord } from '../shared/message-columns';
import { NOTIFICATION_CHANNELS } from '../shared/message-values';

/** A delivery channel of notifications. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_notification_config')
@Index('idx_notification_config_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_notification_config_name', ['tenantId', 'deleteTime', 'name', 'createdTime'])
@Index('idx_notification_config_channel', ['tenantId', 'deleteTime', 'channel', 'createdTime'])
@Index('idx_notification_config_enabled', ['tenantId', 'deleteTime', 'enabled', 'createdTime'])
export class NotificationConfig extends ConfigRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  notificationConfigId: string;

  @ChoiceColumn(NOTIFICATION_CHANNELS, { example: 'IN_APP', description: 'Where notifications are delivered' })
  channel: string;
}
