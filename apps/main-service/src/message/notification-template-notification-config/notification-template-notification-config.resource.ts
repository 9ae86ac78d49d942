import { defineResource } from '@app/common';
import { messageRoute, NEWEST_FIRST } from '../shared/message-resource';
import { NotificationTemplateNotificationConfigSave } from './notification-template-notification-config.dto';
import { NotificationTemplateNotificationConfig } from './notification-template-notification-config.entity';

export const notificationTemplateNotificationConfigResource = defineResource({
  ...messageRoute('notification-template-notification-config', 'Notification template configuration link'),
  entity: NotificationTemplateNotificationConfig,
  idField: 'notificationTemplateNotificationConfigId',
  saveDto: NotificationTemplateNotificationConfigSave,
  filters: ['notificationTemplateId', 'notificationConfigId'],
  sortable: ['sort', 'notificationTemplateId', 'notificationConfigId'],
  defaultSort: NEWEST_FIRST,
  uniqueKey: ['notificationTemplateId', 'notificationConfigId'],
});
