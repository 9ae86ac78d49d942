import { ClientId } from '@app/common';
import { LinkFields, RecordId } from '../shared/message-fields';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class NotificationTemplateNotificationConfigSave extends LinkFields {
  @ClientId()
  notificationTemplateNotificationConfigId?: string;

  @RecordId({ required: true, description: 'The notification template' })
  notificationTemplateId: string;

  @RecordId({ required: true, description: 'The notification configuration' })
  notificationConfigId: string;
}
