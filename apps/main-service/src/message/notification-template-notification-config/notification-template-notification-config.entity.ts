import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { LinkRecord, RecordId } from '../fields/message-fields';

/** Links notification templates to their notification configurations: one live link per pair. */
@Entity('message_notification_template_notification_config')
export class NotificationTemplateNotificationConfig extends LinkRecord {
  @Field.id()
  notificationTemplateNotificationConfigId: string;

  @RecordId({ required: true, description: 'The notification template' })
  notificationTemplateId: string;

  @RecordId({ required: true, description: 'The notification configuration' })
  notificationConfigId: string;
}
