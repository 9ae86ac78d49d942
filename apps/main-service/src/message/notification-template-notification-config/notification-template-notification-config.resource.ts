import { defineResource } from '@app/common';
import { linkOptions, messageRoute } from '../resource-options';
import { NotificationTemplateNotificationConfig } from './notification-template-notification-config.entity';

export const notificationTemplateNotificationConfigResource = defineResource({
  ...messageRoute('notification-template-notification-config', 'Notification template configuration link'),
  entity: NotificationTemplateNotificationConfig,
  idField: 'notificationTemplateNotificationConfigId',
  ...linkOptions('notificationTemplateId', 'notificationConfigId'),
});
