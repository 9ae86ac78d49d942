import { defineResource } from '@app/common';
import { messageRoute, NEWEST_FIRST } from '../resource-options';
import { NotificationConfig } from './notification-config.entity';

export const notificationConfigResource = defineResource({
  ...messageRoute('notification-config', 'Notification configuration'),
  entity: NotificationConfig,
  idField: 'notificationConfigId',
  filters: ['name', 'channel', 'enabled'],
  sortable: ['name', 'channel', 'enabled'],
  defaultSort: NEWEST_FIRST,
});
