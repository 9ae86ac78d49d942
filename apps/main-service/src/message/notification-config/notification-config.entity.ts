import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { ConfigRecord } from '../fields/message-fields';
import { NOTIFICATION_CHANNELS } from '../fields/message-values';

/** A delivery channel of notifications. */
@Entity('message_notification_config')
export class NotificationConfig extends ConfigRecord {
  @Field.id()
  notificationConfigId: string;

  @Field.oneOf(NOTIFICATION_CHANNELS, { required: true, example: 'IN_APP', description: 'Where notifications are delivered' })
  channel: string;
}
