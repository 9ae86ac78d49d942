import { defineResource } from '@app/common';
import { linkOptions, messageRoute } from '../shared/message-resource';
import { NotificationTemplateNotificationConfig } from './notification-template-notification-config.entity';

export const notificationTemplateNotificationConfigResource = defineResource({
  ...messageRoute('notification-template-notification-config', 'Notification template configuration link'),
  entity: NotificationTemplateNotificationConfig,
  idField: 'notificationTemplateNotificationConfigId',
  ...linkOptions('notificationTemplateId', 'notificationConfigId'),
});
